#!/usr/bin/env node
// The build output comes from `npm run build` (run by npm's prepare on install).
import { runCli } from '../dist/src/cli/main.js';
import { withDotEnv } from '../dist/src/shared/dotEnv.js';

// A reader that stops early (`casescreen --help | head`) closes the pipe: that ends the output, quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

const interrupted = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => interrupted.abort());

// The project's .env, as the service reads it, wherever the command is run from.
process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: withDotEnv(process.env).env,
  signal: interrupted.signal,
});
