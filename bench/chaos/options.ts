import { randomInt } from 'node:crypto';
import { parseDuration } from '../../src/screening/snapshots/staleness.js';

/**
 * Settings of one chaos run, from the environment only (`CHAOS_*`), each with a default that keeps
 * a run near five minutes on a two-core machine. Durations take `180`, `180s`, `3m` or `2m30s`.
 */
export interface ChaosOptions {
  /** Seeds every random choice of the fault schedule (kinds, gaps, outage lengths, victims). */
  seed: number;
  /** How long load runs and faults are injected. */
  durationMs: number;
  /** New `POST /v1/cases` per second (open loop: arrivals do not wait for answers). */
  rate: number;
  /** `GET /v1/cases/{ref}` per second, of acknowledged cases. */
  readRate: number;
  /** Quiet time after start-up before the first fault, and the least time between two faults. */
  minGapMs: number;
  maxGapMs: number;
  /** After the load: how long writes still unacknowledged keep retrying (with their same key). */
  drainMs: number;
  /** After the load and the drain: how long the system may take to settle (lag 0, no open check). */
  settleTimeoutMs: number;
  /** The stated bound: every subscription caught up within this time of each fault's end. */
  lagBoundMs: number;
  /** Keep the service logs (a temp folder) even when every invariant holds. */
  keepLogs: boolean;
}

export const USAGE = `npm run chaos: load plus PostgreSQL restarts and kill -9 of service processes, then invariants.
Settings (environment):
  CHAOS_SEED            seed of the fault schedule (default: random, printed)
  CHAOS_DURATION        load and fault phase (default 3m)
  CHAOS_RATE            new cases per second (default 8)
  CHAOS_READ_RATE       GET /v1/cases/{ref} per second (default 3)
  CHAOS_MIN_GAP         least time between two faults (default 8s)
  CHAOS_MAX_GAP         most time between two faults (default 20s)
  CHAOS_DRAIN           most time unacknowledged writes keep retrying after the load (default 60s:
                        well past the Idempotency-Key lease a killed process leaves behind)
  CHAOS_SETTLE_TIMEOUT  most time to reach lag 0 and no open check after the drain (default 3m: past
                        the check retry delays, 5s,30s,2m by default)
  CHAOS_LAG_BOUND       the stated bound: every subscription caught up within this of each fault's
                        end (default 60s)
  CHAOS_KEEP_LOGS=1     keep the service logs even when every invariant holds
The service's own settings (CHECK_LEASE, IDEMPOTENCY_LEASE, CHECK_RETRY_DELAYS...) set in the
environment reach its processes; DATABASE_URL, HOST, PORT and LOG_LEVEL are the run's.`;

function durationMs(name: string, fallback: string, env: NodeJS.ProcessEnv): number {
  const text = (env[name] ?? '').trim() || fallback;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const parsed = parseDuration(text);
  if (!parsed.ok) throw new Error(`${name}=${text}: ${parsed.message} (or a number of seconds)`);
  return parsed.value;
}

function positive(name: string, fallback: number, env: NodeJS.ProcessEnv): number {
  const text = (env[name] ?? '').trim();
  if (text === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name}=${text}: not a positive number`);
  return value;
}

export function chaosOptions(env: NodeJS.ProcessEnv = process.env): ChaosOptions {
  const seedText = (env.CHAOS_SEED ?? '').trim();
  const seed = seedText === '' ? randomInt(1, 2 ** 31 - 1) : Number(seedText);
  if (!Number.isSafeInteger(seed)) throw new Error(`CHAOS_SEED=${seedText}: not an integer`);
  const options: ChaosOptions = {
    seed,
    durationMs: durationMs('CHAOS_DURATION', '3m', env),
    rate: positive('CHAOS_RATE', 8, env),
    readRate: positive('CHAOS_READ_RATE', 3, env),
    minGapMs: durationMs('CHAOS_MIN_GAP', '8s', env),
    maxGapMs: durationMs('CHAOS_MAX_GAP', '20s', env),
    drainMs: durationMs('CHAOS_DRAIN', '60s', env),
    settleTimeoutMs: durationMs('CHAOS_SETTLE_TIMEOUT', '3m', env),
    lagBoundMs: durationMs('CHAOS_LAG_BOUND', '60s', env),
    keepLogs: env.CHAOS_KEEP_LOGS === '1',
  };
  if (options.maxGapMs < options.minGapMs) throw new Error('CHAOS_MAX_GAP is shorter than CHAOS_MIN_GAP');
  return options;
}
