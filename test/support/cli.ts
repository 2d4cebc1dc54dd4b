import { runCli } from '../../src/cli/main.js';

/** An output stream for runCli that keeps what was written. */
export function captureOutput() {
  const chunks: string[] = [];
  return { write: (text: string) => chunks.push(text), text: () => chunks.join('') };
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the operator CLI in-process against a database, as `npx casescreen ...` would. */
export async function runCliCaptured(
  argv: string[],
  env: Record<string, string | undefined>,
): Promise<CliRun> {
  const stdout = captureOutput();
  const stderr = captureOutput();
  const code = await runCli(argv, { stdout, stderr, env });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}
