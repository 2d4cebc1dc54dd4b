import { distribution } from '../support/stats.js';
import { seconds } from './clock.js';
import { FAULT_KINDS, type Fault } from './faults.js';
import type { Load, RequestRecord } from './load.js';

/** What the run measured about one fault. */
export interface FaultFigures {
  fault: Fault;
  /** Restore to the next 2xx (from the restarted process for a serve kill; any process otherwise). */
  nextOkMs: number | undefined;
  /** Restore to every subscription handling the events on the feed at restore. */
  caughtUpMs: number | undefined;
  /** Answers other than 2xx from the fault's start to 2 s after its restore, by outcome. */
  errors: Map<string, number>;
}

/** A plain-text table, every column left-aligned (the details are sentences, not figures). */
export function table(header: string[], rows: string[][]): string {
  const all = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...all.map((row) => (row[column] ?? '').length)));
  const line = (row: string[]) =>
    widths
      .map((width, column) => (row[column] ?? '').padEnd(width))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

const isOk = (record: RequestRecord) =>
  typeof record.outcome === 'number' && record.outcome >= 200 && record.outcome < 300;

export function outcomeLabel(record: RequestRecord): string {
  return record.outcome === 'network'
    ? 'network error'
    : `${record.outcome}${record.code ? ` ${record.code}` : ''}`;
}

export function faultFigures(faults: readonly Fault[], load: Load): FaultFigures[] {
  return faults.map((fault) => {
    const restored = fault.restoredAt;
    let nextOkMs: number | undefined;
    const errors = new Map<string, number>();
    if (restored !== undefined) {
      const next = load.records.find(
        (r) => r.end > restored && isOk(r) && (fault.kind !== 'kill9-serve' || r.target === fault.target),
      );
      nextOkMs = next ? next.end - restored : undefined;
      for (const record of load.records) {
        if (record.end < fault.startedAt || record.end > restored + 2_000 || isOk(record)) continue;
        const label = outcomeLabel(record);
        errors.set(label, (errors.get(label) ?? 0) + 1);
      }
    }
    return {
      fault,
      nextOkMs,
      caughtUpMs:
        fault.caughtUpAt !== undefined && restored !== undefined ? fault.caughtUpAt - restored : undefined,
      errors,
    };
  });
}

function describeCounts(counts: Map<string, number>): string {
  if (counts.size === 0) return 'none';
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([label, n]) => `${label} x${n}`)
    .join(', ');
}

export function faultTable(figures: readonly FaultFigures[]): string {
  return table(
    ['#', 'at', 'kind', 'target', 'down', 'restored', 'next 2xx', 'caught up', 'failed answers meanwhile'],
    figures.map(({ fault, nextOkMs, caughtUpMs, errors }) => [
      String(fault.n),
      seconds(fault.startedAt),
      fault.kind,
      fault.target,
      seconds(fault.plannedDownMs),
      seconds(fault.restoredAt === undefined ? undefined : fault.restoredAt - fault.startedAt),
      seconds(nextOkMs),
      seconds(caughtUpMs),
      `${describeCounts(errors)}${fault.error ? ` (fault error: ${fault.error})` : ''}`,
    ]),
  );
}

export function faultKindTable(figures: readonly FaultFigures[]): string {
  const summary = (values: (number | undefined)[]) => {
    const known = values.filter((v): v is number => v !== undefined);
    if (known.length === 0) return '-';
    const d = distribution(known);
    return `${seconds(d.p50)} / ${seconds(d.max)}${known.length < values.length ? ` (${values.length - known.length} never)` : ''}`;
  };
  return table(
    ['fault kind', 'injected', 'restored (p50 / max)', 'next 2xx after restore', 'caught up after restore'],
    FAULT_KINDS.map((kind) => {
      const of = figures.filter((f) => f.fault.kind === kind);
      return [
        kind,
        String(of.length),
        summary(
          of.map((f) =>
            f.fault.restoredAt === undefined ? undefined : f.fault.restoredAt - f.fault.startedAt,
          ),
        ),
        summary(of.map((f) => f.nextOkMs)),
        summary(of.map((f) => f.caughtUpMs)),
      ];
    }),
  );
}

export function requestTable(load: Load): string {
  const kinds: RequestRecord['kind'][] = ['create', 'get', 'review'];
  const label = {
    create: 'POST /v1/cases',
    get: 'GET /v1/cases/{ref}',
    review: 'PATCH /v1/matches/{id}/review',
  };
  return table(
    ['request', 'sent', '2xx', 'answers other than 2xx'],
    kinds.map((kind) => {
      const of = load.records.filter((r) => r.kind === kind);
      const others = new Map<string, number>();
      for (const record of of) {
        if (isOk(record)) continue;
        const l = outcomeLabel(record);
        others.set(l, (others.get(l) ?? 0) + 1);
      }
      return [label[kind], String(of.length), String(of.filter(isOk).length), describeCounts(others)];
    }),
  );
}

export { describeCounts };
