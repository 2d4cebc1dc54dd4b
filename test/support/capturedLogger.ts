import { pino } from 'pino';
import type { Logger } from '../../src/shared/logger.js';

/** A real logger whose lines a test can read back, parsed. */
export function capturedLogger(): { logger: Logger; lines(): Record<string, unknown>[] } {
  const written: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => written.push(line) });
  return { logger, lines: () => written.map((line) => JSON.parse(line) as Record<string, unknown>) };
}
