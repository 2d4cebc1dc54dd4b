import { readFile, stat } from 'node:fs/promises';
import { lookup } from 'mime-types';
import { MAX_ATTACHMENT_BYTES } from '../../cases/attachmentFiles.js';
import { CliInputError } from '../commandSupport.js';

/** The file's bytes, or exit 2: missing, not a file, empty, or over 10 MiB. */
export async function readAttachment(file: string): Promise<Buffer> {
  let size: number;
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new CliInputError(`--file: ${file} is not a regular file`);
    size = info.size;
  } catch (error) {
    if (error instanceof CliInputError) throw error;
    throw new CliInputError(`--file: cannot read ${file}: ${(error as Error).message}`);
  }
  const tooLarge = (bytes: number) =>
    new CliInputError(
      `--file: ${file} is ${bytes} bytes; attachments are limited to 10 MiB (${MAX_ATTACHMENT_BYTES} bytes)`,
    );
  if (size > MAX_ATTACHMENT_BYTES) throw tooLarge(size);
  const content = await readFile(file);
  if (content.length > MAX_ATTACHMENT_BYTES) throw tooLarge(content.length);
  if (content.length === 0) throw new CliInputError(`--file: ${file} is empty`);
  return content;
}

/** The media type of a file name's extension; `application/octet-stream` when it names none. */
export function guessContentType(filename: string): string {
  return lookup(filename) || 'application/octet-stream';
}
