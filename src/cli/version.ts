import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The version of the project's package.json, the nearest one above this module: the same file
 * whether it runs from src/ (tsx, the tests) or from dist/src/ (the build).
 */
export function projectVersion(): string {
  let folder = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = path.join(folder, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
    const parent = path.dirname(folder);
    if (parent === folder) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
    folder = parent;
  }
}
