/**
 * The service's own view of its latency, from its `/metrics` histogram
 * (`casescreen_http_request_duration_seconds`: from receiving a request to its response). Beside what
 * the load client measures, it tells time spent answering from time spent before the service saw the
 * request: waiting for a core, in the accept queue, in the client itself.
 */

const BUCKET = /^casescreen_http_request_duration_seconds_bucket\{([^}]*)\} (\d+(?:\.\d+)?(?:e[+-]?\d+)?)$/gm;

/** Cumulative counts per bucket bound (seconds, +Inf included), per status, of one route and method. */
export type DurationBuckets = Map<string, Map<number, number>>;

export async function scrapeDurations(url: string, route: string, method: string): Promise<DurationBuckets> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const byStatus: DurationBuckets = new Map();
  for (const [, labelText, value] of text.matchAll(BUCKET)) {
    const labels = Object.fromEntries(
      [...labelText!.matchAll(/(\w+)="([^"]*)"/g)].map(([, name, labelValue]) => [name!, labelValue!]),
    );
    if (labels.route !== route || labels.method !== method) continue;
    const status = labels.status!;
    if (!byStatus.has(status)) byStatus.set(status, new Map());
    byStatus.get(status)!.set(labels.le === '+Inf' ? Infinity : Number(labels.le), Number(value));
  }
  return byStatus;
}

/**
 * Per status, the requests answered between two scrapes and the smallest bucket bound that holds 99%
 * of them: "p99 within N ms" (a histogram tells no finer).
 */
export function p99Between(
  before: DurationBuckets,
  after: DurationBuckets,
): Map<string, { count: number; p99WithinMs: number }> {
  const result = new Map<string, { count: number; p99WithinMs: number }>();
  for (const [status, buckets] of after) {
    const bounds = [...buckets.keys()].sort((a, b) => a - b);
    const delta = (bound: number) => buckets.get(bound)! - (before.get(status)?.get(bound) ?? 0);
    const count = delta(Infinity);
    if (count === 0) continue;
    const bound = bounds.find((candidate) => delta(candidate) >= 0.99 * count) ?? Infinity;
    result.set(status, { count, p99WithinMs: bound * 1000 });
  }
  return result;
}
