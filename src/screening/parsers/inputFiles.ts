import type { Stats } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { SourceParseError } from '../model/listedEntity.js';

/** What a load's input path is; a path that cannot be read is a SourceParseError naming it. */
export async function statInput(given: string): Promise<Stats> {
  try {
    return await stat(given);
  } catch (error) {
    throw new SourceParseError(given, `cannot read: ${(error as Error).message}`);
  }
}

/**
 * Input files: each path a file, or a directory whose files `accept` takes are read in name order.
 * A directory holding none of them is an error, named by `expected` ("*.yaml").
 */
export async function expandInputFiles(
  paths: readonly string[],
  accept: (fileName: string) => boolean,
  expected: string,
): Promise<string[]> {
  const files: string[] = [];
  for (const given of paths) {
    if (!(await statInput(given)).isDirectory()) {
      files.push(given);
      continue;
    }
    const found = (await readdir(given))
      .filter(accept)
      .sort()
      .map((name) => path.join(given, name));
    if (found.length === 0) throw new SourceParseError(given, `no ${expected} file in the directory`);
    files.push(...found);
  }
  return files;
}
