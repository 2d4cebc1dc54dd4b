import { type Clock, systemClock } from '../shared/clock.js';

export interface CliOutput {
  write(text: string): unknown;
}

export interface CliIo {
  stdout: CliOutput;
  stderr: CliOutput;
  env: NodeJS.ProcessEnv;
  /** Interrupts a long command (a rebuild) cleanly; bin/casescreen.js wires SIGINT and SIGTERM to it. */
  signal?: AbortSignal;
  /** The time of what the commands record; the system clock unless a test sets it. */
  clock?: Clock;
}

/** The clock a command reads: the test's, or the system's. */
export function clockOf(io: CliIo): Clock {
  return io.clock ?? systemClock;
}
