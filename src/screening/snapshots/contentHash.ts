import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

export interface HashedInput {
  /** sha256 (hex) identifying the input's bytes. */
  hash: string;
  files: { path: string; bytes: number }[];
}

/**
 * The content hash of a load's input: every file given, and every regular file directly inside a
 * directory given (`ofac-csv` takes a folder). Each file's bytes are hashed on their own (streamed);
 * the result is the sha256 of the sorted per-file digests. So it depends on the bytes only: not on
 * file names, folders or the order of the arguments, and a re-download of the same lists under
 * other names is still recognised as unchanged.
 */
export async function hashSourceFiles(paths: readonly string[]): Promise<HashedInput> {
  const files = await expandFiles(paths);
  const digests: string[] = [];
  for (const file of files) digests.push(await hashFile(file.path));
  digests.sort();
  const hash = createHash('sha256');
  for (const digest of digests) hash.update(`${digest}\n`);
  return { hash: hash.digest('hex'), files };
}

async function expandFiles(paths: readonly string[]): Promise<{ path: string; bytes: number }[]> {
  const files: { path: string; bytes: number }[] = [];
  for (const given of paths) {
    const info = await stat(given);
    if (!info.isDirectory()) {
      files.push({ path: given, bytes: info.size });
      continue;
    }
    const entries = await readdir(given, { withFileTypes: true });
    for (const entry of entries.filter((e) => e.isFile()).sort((a, b) => a.name.localeCompare(b.name))) {
      const file = path.join(given, entry.name);
      files.push({ path: file, bytes: (await stat(file)).size });
    }
  }
  return files;
}

async function hashFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
