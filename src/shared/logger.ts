import { type Logger, pino, destination as pinoDestination } from 'pino';
import type { Config } from '../config.js';

/** The one logger type: pino's. Components take a child of the process's logger. */
export type { Logger };

/** For code run without a process logger (tests, benchmarks). */
export const silentLogger: Logger = pino({ level: 'silent' });

type Destination = ReturnType<typeof pinoDestination>;

const destinations = new WeakMap<Logger, Destination>();

/**
 * JSON lines on stdout; one logger per process, children per component. Lines are written
 * asynchronously: a synchronous write to a slow reader of stdout (a pipe whose other end is busy)
 * blocked the event loop for a quarter of the service's time under load. Before a planned exit,
 * `endLog` waits for them; what is still buffered at any other exit is written then, synchronously.
 */
export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  const destination = pinoDestination({ dest: 1, sync: false });
  process.once('exit', () => {
    try {
      destination.flushSync();
    } catch {
      // Nothing was ever written, stdout is gone, or endLog already wrote everything.
    }
  });
  const logger = pino({ level: config.logLevel, base: { service: 'casescreen' } }, destination);
  destinations.set(logger, destination);
  return logger;
}

/**
 * Resolves once every line the logger took is written, in order. Not `logger.flush(cb)`: the
 * destination calls that back at once even while a write is in flight, and an exit then wrote the
 * lines still buffered (synchronously) before the one in flight.
 */
export function endLog(logger: Logger): Promise<void> {
  const destination = destinations.get(logger);
  if (!destination) return Promise.resolve();
  return new Promise((resolve) => {
    destination.once('close', () => resolve());
    destination.once('error', () => resolve());
    try {
      destination.end();
    } catch {
      resolve(); // Already ended.
    }
  });
}
