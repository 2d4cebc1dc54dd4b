#!/usr/bin/env node
// `npm start`: builds only when a source file is newer than the last build, then runs the service in
// this very process, so that Ctrl-C and SIGTERM reach it directly.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const buildInfo = path.join(root, 'dist', '.tsbuildinfo');
const inputs = ['src', 'projections', 'bench', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];

/** Newest modification time of the build's inputs, in milliseconds. */
function newestInput() {
  let newest = 0;
  const visit = (file) => {
    const stats = statSync(file, { throwIfNoEntry: false });
    if (!stats) return;
    if (stats.isDirectory()) {
      for (const entry of readdirSync(file)) visit(path.join(file, entry));
    } else if (stats.mtimeMs > newest) {
      newest = stats.mtimeMs;
    }
  };
  for (const input of inputs) visit(path.join(root, input));
  return newest;
}

const built = statSync(buildInfo, { throwIfNoEntry: false })?.mtimeMs ?? 0;
if (newestInput() > built) {
  process.stderr.write('Sources changed since the last build: building (npm run build)...\n');
  const build = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (build.status !== 0) {
    process.stderr.write('The build failed (see above); the service was not started.\n');
    process.exit(1);
  }
  // tsc leaves its build info untouched when nothing it emits changed; mark this build as current.
  const now = new Date();
  utimesSync(buildInfo, now, now);
}

await import('../dist/src/main.js');
