import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'case-screening-service';

/**
 * The folder holding this project's package.json, found from this module's own location, so that it
 * is the same whether the code runs from `src/` (tsx, vitest) or `dist/src/`, and whatever folder the
 * service or the CLI was started from.
 */
export const projectRoot: string = findProjectRoot(path.dirname(fileURLToPath(import.meta.url)));

function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && readPackageName(manifest) === PACKAGE_NAME) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no ${PACKAGE_NAME} package.json above ${from}`);
  }
}

function readPackageName(manifest: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name;
  } catch {
    return undefined;
  }
}

/** A path from the configuration: absolute as given, relative ones against the project root. */
export function projectPath(configured: string): string {
  return path.resolve(projectRoot, configured);
}

/** The project's version, from its package.json. */
export function projectVersion(): string {
  const manifest = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8'));
  return (manifest as { version: string }).version;
}
