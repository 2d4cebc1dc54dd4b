#!/usr/bin/env node
// npx only looks in node_modules/.bin; this package, installed from file:bin/cli, puts the
// project's CLI there. Node resolves the symlink, so this path is relative to the real file.
import '../casescreen.js';
