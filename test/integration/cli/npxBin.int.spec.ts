import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { SERVICE_START_TIMEOUT_MS } from '../../support/serviceProcess.js';

const built = existsSync('dist/src/cli/main.js');
if (!built)
  console.log('[npx casescreen] skipped: no build output in dist/ (npm install or npm run build makes it)');

describe.skipIf(!built)('npx casescreen', () => {
  it('runs the operator CLI through the bin npm links into node_modules/.bin', async () => {
    const { stdout } = await promisify(execFile)('npx', ['--no-install', 'casescreen', '--help'], {
      timeout: SERVICE_START_TIMEOUT_MS,
    });
    expect(stdout).toContain('projections');
    expect(stdout).toContain('migrate');
  });
});
