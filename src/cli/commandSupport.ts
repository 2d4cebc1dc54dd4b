import { Help, type Option } from 'commander';
import { z } from 'zod';
import type { CliContext } from './context.js';
import type { CliIo } from './io.js';

/** What command modules need from runCli: output, and a way to run against the database. */
export interface CommandHost {
  io: CliIo;
  /** Opens the database (migrated), runs the command, and makes its result the exit code. */
  inContext: (command: (context: CliContext) => Promise<number>) => Promise<void>;
}

/** Bad command-line input, found before the database is touched; runCli exits with status 2. */
export class CliInputError extends Error {
  override readonly name = 'CliInputError';
}

/**
 * Validates commander's parsed options (camelCase keys) with a zod schema. Every problem is
 * reported at once, named by its flag (`expiresAt` → `--expires-at`) or by `labels`.
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  values: unknown,
  labels: Record<string, string> = {},
): z.output<S> {
  const parsed = schema.safeParse(values);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => {
    const key = String(issue.path[0] ?? '');
    const label = labels[key] ?? (key ? `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}` : 'input');
    return `${label}: ${issue.message}`;
  });
  throw new CliInputError(lines.length === 1 ? lines[0]! : `invalid input:\n  ${lines.join('\n  ')}`);
}

/** `--json` output: exactly one JSON object on stdout. */
export function writeJson(io: CliIo, value: Record<string, unknown>): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export const uuidInput = z.uuid('must be a UUID');
export const nameInput = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters');
export const isoDateTimeInput = z.iso
  .datetime({
    offset: true,
    error: 'must be an ISO 8601 date-time with a time zone, e.g. 2030-01-31T00:00:00Z',
  })
  .transform((value) => new Date(value));

/** Adapts a pure `(input) => {ok, value} | {ok: false, message}` parser to a zod transform. */
export function viaParser<I, T>(
  parse: (input: I) => { ok: true; value: T } | { ok: false; message: string },
) {
  return (input: I, ctx: z.RefinementCtx): T => {
    const result = parse(input);
    if (result.ok) return result.value;
    ctx.addIssue({ code: 'custom', message: result.message });
    return z.NEVER;
  };
}

/**
 * The "Example" section of a command's help, for `addHelpText('after', ...)`: command lines a
 * reader can copy, `npx casescreen` as the README runs it.
 */
export function helpExamples(...commandLines: string[]): string {
  const heading = commandLines.length === 1 ? 'Example:' : 'Examples:';
  return `\n${heading}\n${commandLines.map((line) => `  $ npx casescreen ${line}`).join('\n')}\n`;
}

/**
 * Commander's help, with `(required)` after each mandatory option: commander refuses a command
 * without one, but its help does not say which they are. Subcommands inherit it from the program.
 */
export const helpConfiguration = {
  optionDescription(this: Help, option: Option): string {
    const description = Help.prototype.optionDescription.call(this, option);
    return option.mandatory ? `${description} (required)` : description;
  },
};
