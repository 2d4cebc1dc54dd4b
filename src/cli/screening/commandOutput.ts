import { once } from 'node:events';
import { existsSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { CliInputError } from '../commandSupport.js';
import type { CliIo } from '../io.js';

/** Where a command's lines or rows go (`--output <file>`, else stdout), and how they get there. */

/** The output, if any, is a file that can be created, and not the input. */
export function checkOutputFile(output: string | undefined, input: string): void {
  if (output === undefined) return;
  if (path.resolve(output) === path.resolve(input)) {
    throw new CliInputError('--output: must not be the input file');
  }
  if (!existsSync(path.dirname(path.resolve(output)))) {
    throw new CliInputError(`--output: no such folder: ${path.dirname(output)}`);
  }
  if (existsSync(output) && statSync(output).isDirectory()) {
    throw new CliInputError(`--output: ${output} is a folder`);
  }
}

/** Where output goes: a file (opened here, so that an unwritable one fails at once), or the CLI's stdout. */
export async function outputStream(io: CliIo, file: string | undefined): Promise<Writable> {
  if (file !== undefined) return (await open(file, 'w')).createWriteStream();
  return new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      io.stdout.write(chunk.toString());
      callback();
    },
  });
}

/** Writes a line, waiting while the output is full (a file on a slow disk). */
export async function writeLine(out: Writable, line: string): Promise<void> {
  if (out.errored) throw out.errored;
  if (!out.write(`${line}\n`)) await once(out, 'drain');
}

/** Ends the output and waits until it is written (or throws why it could not be). */
export async function endOutput(out: Writable): Promise<void> {
  out.end();
  await finished(out);
}
