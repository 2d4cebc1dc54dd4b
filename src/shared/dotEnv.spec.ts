import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDotEnv } from './dotEnv.js';

describe('withDotEnv', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'dotenv-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("adds the file's variables, the environment winning where both set one", async () => {
    const file = path.join(dir, '.env');
    await writeFile(file, '# settings\nSOURCE_STALE_AFTER=3650d\nPORT=3100\nLOG_LEVEL="warn"\n');
    const { env, file: read } = withDotEnv({ PORT: '4000' }, file);
    expect(read).toBe(file);
    expect(env).toEqual({ SOURCE_STALE_AFTER: '3650d', PORT: '4000', LOG_LEVEL: 'warn' });
  });

  it('leaves the environment as it is when there is no file', () => {
    const env = { PORT: '4000' };
    expect(withDotEnv(env, path.join(dir, 'missing.env'))).toEqual({ env, file: undefined });
  });
});
