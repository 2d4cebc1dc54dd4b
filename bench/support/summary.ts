import type { AppendThroughput } from './appends.js';
import type { DeliveryLatency } from './delivery.js';
import type { AppendBreakdown, PgbenchVariant } from './diagnostics.js';
import type { BenchOptions } from './options.js';
import type { PgbenchResult } from './pgbench.js';
import type { Rate } from './rebuild.js';
import { fraction, ms, multiple, NONE, perSecond, table } from './report.js';
import { describeWaits, type WaitShare } from './waits.js';

/** An append phase with what its server backends were doing (sampled). */
export type SampledAppends = AppendThroughput & { waits: WaitShare[] };

export interface Results {
  appendOne: SampledAppends;
  appendMany: SampledAppends;
  ceilingOne: PgbenchResult;
  ceilingMany: PgbenchResult;
  delivery: DeliveryLatency[];
  seed: Rate;
  rebuild: { label: string; rate: Rate }[];
  breakdown: AppendBreakdown[];
}

export function summary(options: BenchOptions, results: Results): string {
  const sections = [mainTable(options, results), appendLatencyTable(results)];
  if (results.breakdown.length > 0) sections.push(breakdownTable(results));
  sections.push(notes(options, results));
  return sections.join('\n\n');
}

function mainTable(options: BenchOptions, results: Results): string {
  const { appendOne, appendMany, ceilingOne, ceilingMany } = results;
  const rows = [
    throughputRow('appends, 1 writer (1 event each)', appendOne.perSecond, ceilingOne),
    throughputRow(`appends, ${options.writers} writers, own streams`, appendMany.perSecond, ceilingMany),
    ...results.delivery.flatMap((delivery) => deliveryRows(delivery, ceilingOne)),
    ...results.rebuild.map(({ label, rate }) => throughputRow(label, rate.perSecond, ceilingOne)),
    [
      `seed events, ${options.seedBatch}-event appends x4 writers`,
      perSecond(results.seed.perSecond),
      NONE,
      NONE,
    ],
  ];
  return table(['metric', 'value', 'pgbench INSERT ceiling', 'ratio'], rows);
}

function throughputRow(metric: string, value: number, ceiling: PgbenchResult): string[] {
  return [
    metric,
    perSecond(value),
    `${perSecond(ceiling.tps)} (c=${ceiling.clients})`,
    fraction(value, ceiling.tps),
  ];
}

/** Latency has no tps ceiling; it is set beside one INSERT transaction's latency at c=1. */
function deliveryRows(delivery: DeliveryLatency, ceiling: PgbenchResult): string[][] {
  const at = `${delivery.path} @${delivery.targetRate}/s`;
  const cell = `${ms(ceiling.latencyMs)} (c=1 latency)`;
  return [
    [
      `delivery p50, ${at}`,
      ms(delivery.latency.p50),
      cell,
      multiple(delivery.latency.p50, ceiling.latencyMs),
    ],
    [
      `delivery p99, ${at}`,
      ms(delivery.latency.p99),
      cell,
      multiple(delivery.latency.p99, ceiling.latencyMs),
    ],
  ];
}

function appendLatencyTable(results: Results): string {
  const pairs: [AppendThroughput, PgbenchResult][] = [
    [results.appendOne, results.ceilingOne],
    [results.appendMany, results.ceilingMany],
  ];
  const rows = pairs.flatMap(([append, ceiling]) => {
    const label = `append call, ${append.writers} writer${append.writers > 1 ? 's' : ''}`;
    const cell = `${ms(ceiling.latencyMs)} (c=${ceiling.clients} avg)`;
    return [
      [`${label}, p50`, ms(append.latency.p50), cell, multiple(append.latency.p50, ceiling.latencyMs)],
      [`${label}, p99`, ms(append.latency.p99), cell, multiple(append.latency.p99, ceiling.latencyMs)],
    ];
  });
  return table(['latency', 'value', 'pgbench INSERT latency', 'ratio'], rows);
}

/**
 * Where an append's time goes, from the adapter down to a bare INSERT, and what moving the NOTIFY
 * out of es_append changed: each shipped row beside its NOTIFY-inside counterpart. The first row
 * comes from the main append phases.
 */
function breakdownTable(results: Results): string {
  const pgbenchRow = (variant: PgbenchVariant, clients: string) => [
    `pgbench ${variant.name}`,
    clients,
    perSecond(variant.result.tps),
    `avg ${ms(variant.result.latencyMs)}`,
    `${Math.round(variant.walBytesPerTransaction).toLocaleString('en-US')} B`,
    NONE,
    describeWaits(variant.waits),
  ];
  const rows = results.breakdown.flatMap((item) => {
    const shipped = item.clients === 1 ? results.appendOne : results.appendMany;
    const clients = `${item.clients}`;
    return [
      [
        'adapter as shipped, post-commit NOTIFY (main phase)',
        clients,
        perSecond(shipped.perSecond),
        `p50 ${ms(shipped.latency.p50)}`,
        NONE,
        ms(shipped.nodeCpuMsPerAppend),
        describeWaits(shipped.waits),
      ],
      [
        'adapter, es_append with NOTIFY inside',
        clients,
        perSecond(item.adapterNotifyInside.perSecond),
        `p50 ${ms(item.adapterNotifyInside.p50)}`,
        NONE,
        ms(item.adapterNotifyInside.nodeCpuMsPerAppend),
        describeWaits(item.adapterNotifyInside.waits),
      ],
      ...item.esAppend.map((variant) => pgbenchRow(variant, clients)),
      [
        'node-pg INSERT, same row as the ceiling',
        clients,
        perSecond(item.nodeInsertPerSecond),
        `p50 ${ms(item.nodeInsertP50Ms)}`,
        NONE,
        NONE,
        NONE,
      ],
      pgbenchRow(item.insert, clients),
    ];
  });
  const header = [
    'append breakdown',
    'clients',
    'rate',
    'latency',
    'WAL/tx',
    'Node CPU/op',
    'server backends',
  ];
  return table(header, rows);
}

function notes(options: BenchOptions, results: Results): string {
  const lines = [
    `Appends: ${results.appendOne.appends} (1 writer) and ${results.appendMany.appends} (${options.writers} writers) single-event appends with expected revision, autocommit via the adapter, ${options.appendSeconds} s each.`,
    `Ceiling: pgbench -n -M prepared -T ${options.pgbenchSeconds}, one single-row INSERT (same JSON payload) per transaction into a table without indexes; -c 1 -j 1 and -c ${options.writers} -j 2.`,
    ...results.delivery.map(
      (d) =>
        `Delivery via ${d.path}: ${d.delivered}/${d.sent} delivered at ${d.achievedRate.toFixed(0)}/s; min ${ms(d.latency.min)}, max ${ms(d.latency.max)}, mean ${ms(d.latency.mean)}; ${d.beforeResolve} reached the handler before their append call resolved.`,
    ),
    `Rebuild: rebuildProjection(stream_index) from projections/rebuild.ts, timed end to end (install, build v<n+1> with the subscription runner in batches of ${options.rebuildBatch}, swap, drop v<n>); ${results.rebuild[0]?.rate.events ?? 0} events in ${results.rebuild[0]?.rate.seconds.toFixed(1)} s. Its ceiling is pgbench at c=1 (one writer).`,
    `Seeding: ${results.seed.events} events in ${results.seed.seconds.toFixed(1)} s.`,
  ];
  if (results.breakdown.length > 0) {
    lines.push(
      `Breakdown: "NOTIFY inside" is a copy of es_append ending in pg_notify('es_events', {"c": [category]}) (the earlier design), in a bench-only schema reached through search_path; the adapter on it still sends its own coalesced post-commit NOTIFY as well. Every row but the main-phase one runs ${options.pgbenchSeconds} s; pgbench rows do one append or INSERT per transaction, and their WAL/tx includes background writes.`,
    );
  }
  return lines.map((line) => `* ${line}`).join('\n');
}
