import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { projectRoot } from './projectRoot.js';

export interface EnvWithFile {
  env: NodeJS.ProcessEnv;
  /** The .env file read, when there was one. */
  file: string | undefined;
}

/**
 * The process environment over the project's `.env` file, so that the service and the CLI, wherever
 * they are started from, run with the same settings. A variable set in the environment wins over the
 * file, as with Node's own `--env-file`.
 */
export function withDotEnv(env: NodeJS.ProcessEnv, file = path.join(projectRoot, '.env')): EnvWithFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { env, file: undefined };
    throw error;
  }
  return { env: { ...parseEnv(text), ...env }, file };
}
