import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from './clock.js';
import type { ServiceProcess } from './processes.js';
import type { Workspace } from './setup.js';

/**
 * The run's clients. An open-loop stream of `POST /v1/cases` at a steady rate, each with an
 * Idempotency-Key of its own, retried with the SAME key, API key and body on a network error, any
 * 5xx, a 409 `conflict` (the key is in progress elsewhere) or a 429, until it is acknowledged (2xx)
 * or the run stops retrying; every acknowledged write is recorded with its case reference. Beside it,
 * GETs of acknowledged cases, and reviews (`PATCH /v1/matches/{id}/review`, retried the same way) of
 * the matches the listed subjects get. Requests go to a `serve` process at random; after a network
 * error the next try goes to another one, as a load balancer would send it.
 */
export type Outcome = number | 'network';

export interface RequestRecord {
  kind: 'create' | 'get' | 'review';
  target: string;
  start: number;
  end: number;
  outcome: Outcome;
  /** error.code of an error answer. */
  code?: string;
}

export interface AcknowledgedCase {
  idempotencyKey: string;
  apiKey: number;
  caseReference: string;
  listed: boolean;
  attempts: number;
  at: number;
}

export interface AcknowledgedReview {
  caseReference: string;
  matchId: string;
  apiKey: number;
  reviewStatus: string;
  attempts: number;
}

export interface Anomaly {
  at: number;
  what: string;
}

interface Answer {
  outcome: Outcome;
  code?: string;
  retryAfterMs?: number;
  body?: unknown;
  error?: string;
}

const REQUEST_TIMEOUT_MS = 15_000;
const MAX_WRITES_IN_FLIGHT = 400;
const LISTED_EVERY = 8;

const GIVEN = ['Maria', 'John', 'Aisha', 'Ivan', 'Chen', 'Fatima', 'Carlos', 'Olga', 'Kwame', 'Yuki'];
const FAMILY = ['Gonzalez', 'Smith', 'Petrov', 'Wang', 'Haddad', 'Silva', 'Novak', 'Okafor', 'Berg', 'Sato'];

export class Load {
  readonly records: RequestRecord[] = [];
  readonly acknowledged = new Map<string, AcknowledgedCase>();
  readonly reviews: AcknowledgedReview[] = [];
  readonly anomalies: Anomaly[] = [];
  /** Writes started, and those given up when the run stopped retrying. */
  started = 0;
  abandoned = 0;
  /** Arrivals skipped because MAX_WRITES_IN_FLIGHT writes were still retrying. */
  skipped = 0;
  private inFlight = new Set<Promise<void>>();
  private arrivals = true;
  private retrying = true;
  private readonly reviewed = new Set<string>();
  private readonly loops: Promise<void>[] = [];

  constructor(
    private readonly deps: {
      serve: readonly ServiceProcess[];
      workspace: Workspace;
      clock: Clock;
      random: () => number;
      runId: string;
      rate: number;
      readRate: number;
    },
  ) {}

  start(): void {
    this.loops.push(this.arrivalLoop(), this.readLoop(), this.reviewLoop());
  }

  /** No new writes, reads or reviews from now; writes not yet acknowledged go on retrying. */
  async stopArrivals(): Promise<void> {
    this.arrivals = false;
    await Promise.all(this.loops);
  }

  /** Waits for the writes still retrying, at most `ms`; then gives them up. Returns how many were. */
  async drain(ms: number): Promise<number> {
    const deadline = this.deps.clock.now() + ms;
    while (this.inFlight.size > 0 && this.deps.clock.now() < deadline) await sleep(200);
    const left = this.inFlight.size;
    this.retrying = false;
    await Promise.all([...this.inFlight]);
    return left;
  }

  pendingWrites(): number {
    return this.inFlight.size;
  }

  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  private async arrivalLoop(): Promise<void> {
    const { clock, rate } = this.deps;
    const begin = clock.now();
    for (let n = 0; this.arrivals; n++) {
      const wait = begin + (n * 1000) / rate - clock.now();
      if (wait > 0) await sleep(wait);
      if (!this.arrivals) break;
      if (this.inFlight.size >= MAX_WRITES_IN_FLIGHT) {
        this.skipped++;
        continue;
      }
      this.started++;
      this.track(this.createCase(n));
    }
  }

  private async readLoop(): Promise<void> {
    const { clock, readRate, random, workspace } = this.deps;
    const begin = clock.now();
    for (let n = 0; this.arrivals; n++) {
      const wait = begin + (n * 1000) / readRate - clock.now();
      if (wait > 0) await sleep(wait);
      const known = [...this.acknowledged.values()];
      if (!this.arrivals || known.length === 0) continue;
      const target = known[Math.floor(random() * known.length)]!;
      void this.send('get', this.pickServe(), 'GET', `/v1/cases/${target.caseReference}`, {
        authorization: `Bearer ${workspace.keys[target.apiKey]}`,
      }).then((answer) => {
        if (answer.outcome === 404) {
          this.anomaly(`GET ${target.caseReference} (acknowledged) answered 404`);
        }
      });
    }
  }

  /** About one review a second: a listed subject's case whose check found matches. */
  private async reviewLoop(): Promise<void> {
    const { random, workspace } = this.deps;
    while (this.arrivals) {
      await sleep(1_000);
      const candidates = [...this.acknowledged.values()].filter(
        (c) => c.listed && !this.reviewed.has(c.caseReference),
      );
      if (!this.arrivals || candidates.length === 0) continue;
      const chosen = candidates[Math.floor(random() * candidates.length)]!;
      const answer = await this.send('get', this.pickServe(), 'GET', `/v1/cases/${chosen.caseReference}`, {
        authorization: `Bearer ${workspace.keys[chosen.apiKey]}`,
      });
      if (answer.outcome !== 200) continue;
      const match = pendingMatch(answer.body);
      if (!match) continue;
      this.reviewed.add(chosen.caseReference);
      this.track(this.review(chosen, match));
    }
  }

  private async createCase(n: number): Promise<void> {
    const { runId, workspace } = this.deps;
    const idempotencyKey = `chaos-${runId}-${n}`;
    const apiKey = n % workspace.keys.length;
    const listed = n % LISTED_EVERY === 0;
    const name = listed
      ? workspace.listedName
      : `${GIVEN[n % GIVEN.length]} ${FAMILY[Math.floor(n / GIVEN.length) % FAMILY.length]} ${n}`;
    const body = JSON.stringify({
      subject: { name, countries: ['GB'], birth_date: { year: 1950 + (n % 50) } },
      checks: { types: ['sanctions'] },
      case: { external_reference: idempotencyKey },
    });
    const result = await this.untilAcknowledged('create', 'POST', '/v1/cases', apiKey, idempotencyKey, body);
    if (!result) return;
    const data = (result.body as { data?: { case_reference?: string } }).data;
    if (typeof data?.case_reference !== 'string') {
      this.anomaly(`POST /v1/cases ${idempotencyKey}: 2xx without a case_reference`);
      return;
    }
    this.acknowledged.set(idempotencyKey, {
      idempotencyKey,
      apiKey,
      caseReference: data.case_reference,
      listed,
      attempts: result.attempts,
      at: this.deps.clock.now(),
    });
  }

  private async review(chosen: AcknowledgedCase, matchId: string): Promise<void> {
    const reviewStatus = 'not_relevant';
    const result = await this.untilAcknowledged(
      'review',
      'PATCH',
      `/v1/matches/${encodeURIComponent(matchId)}/review`,
      chosen.apiKey,
      `chaos-${this.deps.runId}-review-${chosen.caseReference}`,
      JSON.stringify({ review_status: reviewStatus, note: 'chaos run' }),
    );
    if (result) {
      this.reviews.push({
        caseReference: chosen.caseReference,
        matchId,
        apiKey: chosen.apiKey,
        reviewStatus,
        attempts: result.attempts,
      });
    }
  }

  /**
   * Sends one mutation until it is acknowledged, always with the same key and body. Undefined when
   * the run stopped retrying first, or on an answer no retry can change (recorded as an anomaly).
   */
  private async untilAcknowledged(
    kind: 'create' | 'review',
    method: string,
    path: string,
    apiKey: number,
    idempotencyKey: string,
    body: string,
  ): Promise<{ body: unknown; attempts: number } | undefined> {
    const headers = {
      authorization: `Bearer ${this.deps.workspace.keys[apiKey]}`,
      'content-type': 'application/json',
      'idempotency-key': idempotencyKey,
    };
    let target = this.pickServe();
    for (let attempt = 1; ; attempt++) {
      if (!this.retrying) {
        this.abandoned++;
        return undefined;
      }
      const answer = await this.send(kind, target, method, path, headers, body);
      const { outcome } = answer;
      if (typeof outcome === 'number' && outcome >= 200 && outcome < 300) {
        return { body: answer.body, attempts: attempt };
      }
      const retryable =
        outcome === 'network' ||
        outcome >= 500 ||
        outcome === 429 ||
        (outcome === 409 && answer.code === 'conflict');
      if (!retryable) {
        this.anomaly(`${method} ${path} ${idempotencyKey}: ${outcome} ${answer.code ?? ''}`.trim());
        return undefined;
      }
      // Another process next time after a network error, as a load balancer would do.
      if (outcome === 'network') target = this.otherServe(target);
      const backoff = Math.min(2_000, 100 * 2 ** Math.min(attempt, 5)) * (0.5 + this.deps.random());
      await sleep(Math.min(5_000, answer.retryAfterMs ?? backoff));
    }
  }

  private pickServe(): ServiceProcess {
    const { serve, random } = this.deps;
    return serve[Math.floor(random() * serve.length)]!;
  }

  private otherServe(current: ServiceProcess): ServiceProcess {
    const others = this.deps.serve.filter((s) => s !== current);
    return others.length === 0 ? current : others[Math.floor(this.deps.random() * others.length)]!;
  }

  private anomaly(what: string): void {
    this.anomalies.push({ at: this.deps.clock.now(), what });
  }

  async send(
    kind: RequestRecord['kind'],
    target: ServiceProcess,
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<Answer> {
    const { clock } = this.deps;
    const start = clock.now();
    const answer = await httpCall(`${target.url}${path}`, method, headers, body);
    this.records.push({
      kind,
      target: target.name,
      start,
      end: clock.now(),
      outcome: answer.outcome,
      code: answer.code,
    });
    return answer;
  }
}

/** One HTTP call, never throwing: a transport failure is outcome 'network'. */
export async function httpCall(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  try {
    const response = await fetch(url, {
      method,
      headers,
      body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    const retryAfter = Number(response.headers.get('retry-after'));
    return {
      outcome: response.status,
      code: (parsed as { error?: { code?: string } } | undefined)?.error?.code,
      retryAfterMs: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined,
      body: parsed,
    };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return { outcome: 'network', error: cause ?? (error as Error).name };
  }
}

/** The first match still pending review in a case answer, if any. */
export function pendingMatch(body: unknown): string | undefined {
  const checks = (body as { data?: { checks?: unknown[] } }).data?.checks ?? [];
  for (const check of checks as { lifecycle_status?: string; matches?: unknown[] }[]) {
    if (check.lifecycle_status !== 'completed') continue;
    for (const match of (check.matches ?? []) as { match_id?: string; review_status?: string }[]) {
      if (match.review_status === 'pending_review' && typeof match.match_id === 'string')
        return match.match_id;
    }
  }
  return undefined;
}
