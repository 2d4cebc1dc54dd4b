import type { NewEvent } from '../../src/eventStore/eventStore.js';

/** A case event of typical size; pgbench's ceiling inserts the same JSON. */
export const SAMPLE_DATA = {
  caseReference: 'CASE-2026-000123',
  subjectReference: 'SUBJ-000456',
  checkType: 'sanctions',
  note: 'benchmark payload of a typical case event',
} as const;

export function sampleEvent(type: string, extra: Record<string, unknown> = {}): NewEvent {
  return { type, data: { ...SAMPLE_DATA, ...extra } };
}

/**
 * The sample JSON with a space after every colon: pgbench reads `:name` (digits included) as a
 * variable reference inside a script, so the literal must not contain one.
 */
export function sampleJsonForPgbench(): string {
  const fields = Object.entries(SAMPLE_DATA).map(([key, value]) => `"${key}": ${JSON.stringify(value)}`);
  return `{${fields.join(', ')}}`;
}

/** A stream name unique to this run: `<category>-<run>-<id>`. */
export function benchStream(category: string, run: string, id: number | string): string {
  return `${category}-${run}-${id}`;
}
