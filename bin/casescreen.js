#!/usr/bin/env node
// The build output comes from `npm run build` (run by npm's prepare on install).
import { runCli } from '../dist/src/cli/main.js';

const interrupted = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => interrupted.abort());

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  signal: interrupted.signal,
});
