import { createHash } from 'node:crypto';
import { cleanText } from './names.js';

/**
 * Keys for lists that publish no record id (EBRD, the BIS Denied Persons List): a record is known
 * by what it says about the party, folded so that spacing, case and quote style do not make a
 * second party, and hashed into an id of fixed length.
 */

/** Lower case, NFKC, quotes and apostrophes of every style dropped, whitespace collapsed. */
export function foldForKey(text: string | undefined | null): string {
  return cleanText(
    cleanText(text)
      .normalize('NFKC')
      .toLowerCase()
      .replace(/["'`´‘’‚‛“”„‟«»‹›]/g, ''),
  );
}

/** 16 hex digits (64 bits) of the SHA-256 of the parts, each folded; stable across runs and machines. */
export function hashedId(...parts: (string | undefined | null)[]): string {
  return createHash('sha256').update(parts.map(foldForKey).join('\u001f')).digest('hex').slice(0, 16);
}
