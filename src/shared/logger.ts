import { type Logger, pino, destination as pinoDestination } from 'pino';
import type { Config } from '../config.js';

/** The one logger type: pino's. Components take a child of the process's logger. */
export type { Logger };

/** For code run without a process logger (tests, benchmarks). */
export const silentLogger: Logger = pino({ level: 'silent' });

/**
 * JSON lines on stdout; one logger per process, children per component. Lines are written
 * asynchronously: a synchronous write to a slow reader of stdout (a pipe whose other end is busy)
 * blocked the event loop for a quarter of the service's time under load. What is still buffered
 * when the process exits is written then, synchronously.
 */
export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  const destination = pinoDestination({ dest: 1, sync: false });
  process.once('exit', () => {
    try {
      destination.flushSync();
    } catch {
      // Nothing was ever written, or stdout is gone: nothing to flush.
    }
  });
  return pino({ level: config.logLevel, base: { service: 'casescreen' } }, destination);
}
