import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The real lists of `../shared/data`, read through SCREENING_DATA_DIR as the product does. Tests
 * that need them call `screeningData()` at module level and use `describe.skipIf(!data.available)`;
 * the reason is printed once per file so a skipped run says why.
 */
export interface ScreeningData {
  available: boolean;
  dir: string;
  /** Absolute path of a file or folder under the data directory. */
  file(...segments: string[]): string;
}

export function screeningData(requiredFor: string): ScreeningData {
  const dir = path.resolve(
    process.env.SCREENING_DATA_DIR ?? path.join(process.cwd(), '..', 'shared', 'data'),
  );
  const available = existsSync(dir);
  if (!available) {
    console.warn(`[skipped] ${requiredFor}: screening data folder ${dir} is absent (set SCREENING_DATA_DIR)`);
  }
  return { available, dir, file: (...segments) => path.join(dir, ...segments) };
}
