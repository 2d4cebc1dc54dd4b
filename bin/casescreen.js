#!/usr/bin/env node
// The build output comes from `npm run build` (run by npm's prepare on install).
import { runCli } from '../dist/src/cli/main.js';
import { withDotEnv } from '../dist/src/shared/dotEnv.js';

const interrupted = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => interrupted.abort());

// The project's .env, as the service reads it, wherever the command is run from.
process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: withDotEnv(process.env).env,
  signal: interrupted.signal,
});
