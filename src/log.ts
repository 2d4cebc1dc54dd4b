import { type Logger, pino } from 'pino';
import type { Config } from './config.js';

export type { Logger };

/** JSON lines on stdout; one logger per process, children per component. */
export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({ level: config.logLevel, base: { service: 'casescreen' } });
}
