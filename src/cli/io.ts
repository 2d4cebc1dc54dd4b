export interface CliOutput {
  write(text: string): unknown;
}

export interface CliIo {
  stdout: CliOutput;
  stderr: CliOutput;
  env: NodeJS.ProcessEnv;
  /** Interrupts a long command (a rebuild) cleanly; bin/casescreen.js wires SIGINT and SIGTERM to it. */
  signal?: AbortSignal;
}
