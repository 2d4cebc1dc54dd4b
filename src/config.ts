import { z } from 'zod';
import { DEFAULT_MAX_IN_FLIGHT_REQUESTS } from './api/inFlightLimit.js';
import { ACCEPTED_SCHEMES, acceptedScheme } from './eventStore/esdb/connectionString.js';
import { DEFAULT_STALE_AFTER, formatDuration, parseDuration } from './screening/snapshots/staleness.js';
import { DEFAULT_HTTP_TIMEOUTS, type HttpTimeouts } from './server/server.js';
import { projectPath } from './shared/projectRoot.js';

const roles = ['all', 'serve', 'work'] as const;
export type ProcessRole = (typeof roles)[number];

const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);

/** A duration (`60s`, `2m`, `1h`; see parseDuration) within [min, max] milliseconds. */
function durationWithin(min: number, max: number) {
  return (value: string, ctx: z.RefinementCtx): number => {
    const duration = parseDuration(value);
    if (!duration.ok) {
      ctx.addIssue({ code: 'custom', message: duration.message });
      return z.NEVER;
    }
    if (duration.value < min || duration.value > max) {
      ctx.addIssue({
        code: 'custom',
        message: `must be between ${formatDuration(min)} and ${formatDuration(max)}`,
      });
      return z.NEVER;
    }
    return duration.value;
  };
}

/** `none`, or comma-separated durations each within [min, max], at most `most` of them. */
function durationList(min: number, max: number, most: number) {
  return (value: string, ctx: z.RefinementCtx): number[] => {
    if (value.trim() === 'none') return [];
    const delays = value.split(',').map((part) => durationWithin(min, max)(part.trim(), ctx));
    if (delays.length > most) {
      ctx.addIssue({ code: 'custom', message: `at most ${most} delays` });
      return z.NEVER;
    }
    return delays;
  };
}

/** About three days of retries, growing: Stripe's and GitHub's receivers expect no less. */
export const DEFAULT_WEBHOOK_RETRY_DELAYS = '1m,5m,30m,2h,5h,10h,14h,14h,14h,14h';

const envSchema = z.object({
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// connection URL')
      .optional(),
  ),
  EVENT_STORE: z.preprocess(emptyToUndefined, z.enum(['postgres', 'esdb']).default('postgres')),
  ESDB_CONNECTION_STRING: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine(
        (value) => acceptedScheme(value) !== null,
        `must start with ${ACCEPTED_SCHEMES.map((scheme) => `${scheme}://`).join(', ')}`,
      )
      .optional(),
  ),
  PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
  // Loopback unless asked: a newcomer's `npm start` must not open the service to the network.
  HOST: z.preprocess(emptyToUndefined, z.string().default('127.0.0.1')),
  ROLE: z.preprocess(emptyToUndefined, z.enum(roles).default('all')),
  EMBEDDED_PG_DIR: z.preprocess(emptyToUndefined, z.string().default('.data/postgres')),
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  FEED_POLL_INTERVAL_MS: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(10).max(60_000).default(1000),
  ),
  MAX_IN_FLIGHT_REQUESTS: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(10_000).default(DEFAULT_MAX_IN_FLIGHT_REQUESTS),
  ),
  DATABASE_POOL_WAIT_TIMEOUT_MS: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(0).max(60_000).default(2000),
  ),
  METRICS_TOKEN: z.preprocess(
    emptyToUndefined,
    z.string().min(16, 'must be at least 16 characters (a secret)').optional(),
  ),
  HTTP_HEADERS_TIMEOUT_MS: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1_000).max(300_000).default(DEFAULT_HTTP_TIMEOUTS.headersMs),
  ),
  HTTP_REQUEST_TIMEOUT_MS: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1_000).max(600_000).default(DEFAULT_HTTP_TIMEOUTS.requestMs),
  ),
  SHUTDOWN_TIMEOUT_MS: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(100).max(600_000).default(30_000),
  ),
  SOURCE_STALE_AFTER: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default(DEFAULT_STALE_AFTER)
      .transform((value, ctx) => {
        const duration = parseDuration(value);
        if (duration.ok) return duration.value;
        ctx.addIssue({ code: 'custom', message: duration.message });
        return z.NEVER;
      }),
  ),
  SOURCES_CONFIG: z.preprocess(emptyToUndefined, z.string().default('config/sources.json')),
  CHECK_WORKERS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(64).default(2)),
  CHECK_LEASE: z.preprocess(
    emptyToUndefined,
    z.string().default('15s').transform(durationWithin(2_000, 3_600_000)),
  ),
  IDEMPOTENCY_LEASE: z.preprocess(
    emptyToUndefined,
    z.string().default('10s').transform(durationWithin(1_000, 600_000)),
  ),
  CHECK_RETRY_DELAYS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default('5s,30s,2m')
      .transform(durationList(1_000, 86_400_000, 10)),
  ),
  CHECK_POLL_INTERVAL_MS: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(50).max(60_000).default(1000),
  ),
  WEBHOOK_WORKERS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(256).default(16)),
  WEBHOOK_TIMEOUT: z.preprocess(
    emptyToUndefined,
    z.string().default('10s').transform(durationWithin(1_000, 60_000)),
  ),
  WEBHOOK_RETRY_DELAYS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default(DEFAULT_WEBHOOK_RETRY_DELAYS)
      .transform(durationList(1_000, 7 * 86_400_000, 30)),
  ),
  WEBHOOK_DISABLE_AFTER: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default('3d')
      .transform(durationWithin(60_000, 30 * 86_400_000)),
  ),
  // Delivery history is kept at least 30 days, as the webhooks issue requires: no setting lets the
  // purge delete a month's deliveries and attempts that operators and integrators look back on.
  WEBHOOK_RETENTION: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default('30d')
      .transform(durationWithin(30 * 86_400_000, 3_650 * 86_400_000)),
  ),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: z.preprocess(
    emptyToUndefined,
    z
      .enum(['true', 'false'], 'must be true or false')
      .default('false')
      .transform((value) => value === 'true'),
  ),
  MONITORING_WORKERS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(64).default(2)),
  MONITORING_INTERVAL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default('24h')
      .transform(durationWithin(60_000, 366 * 86_400_000)),
  ),
});

export interface Config {
  databaseUrl: string | undefined;
  eventStore: 'postgres' | 'esdb';
  esdbConnectionString: string | undefined;
  port: number;
  host: string;
  role: ProcessRole;
  /** Data directory of the embedded PostgreSQL; a relative EMBEDDED_PG_DIR is anchored to the project. */
  embeddedPgDir: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  feedPollIntervalMs: number;
  /** `/v1` requests a serving process works on at once; past it, 503 `service_unavailable` at once. */
  maxInFlightRequests: number;
  /**
   * How long a request of a `serve` or `all` process waits for a database connection before its 503
   * (0: forever). Not applied to workers' pools (`work`, the `all` role's work thread): a
   * subscription whose batch fails after its retries parks, and a moment of saturation must not
   * park a projection.
   */
  databasePoolWaitTimeoutMs: number;
  /** Opens `/metrics` and `/health/status` to callers other than loopback that present it. */
  metricsToken: string | undefined;
  /** A client that has not sent its headers, or its whole request, by then gets 400 and is cut. */
  httpTimeouts: HttpTimeouts;
  shutdownTimeoutMs: number;
  /** A source snapshot older than this (publisher's date, else load time) refuses checks. */
  sourceStaleAfterMs: number;
  /** The publisher download list of `casescreen sources sync`. */
  sourcesConfigPath: string;
  /** Checks screened at once by a `work` process (0: it only runs the check scheduler). */
  checkWorkers: number;
  /** How long a worker's claim on a check holds without renewal; then another worker takes over. */
  checkLeaseMs: number;
  /** How long a request owns its Idempotency-Key without renewal (IDEMPOTENCY_LEASE). */
  idempotencyLeaseMs: number;
  /** Delays before a check's attempts 2, 3, ... after transient errors; then the check fails. */
  checkRetryDelaysMs: number[];
  /** How often an idle check worker looks for due jobs. */
  checkPollIntervalMs: number;
  /** Webhook deliveries a `work` process sends at once (0: it sends none). */
  webhookWorkers: number;
  /** How long a receiver has to answer one delivery attempt. */
  webhookTimeoutMs: number;
  /** Delays before a delivery's attempts 2, 3, ...; after the last failure the delivery is dead. */
  webhookRetryDelaysMs: number[];
  /** An endpoint whose every attempt has failed for this long is disabled. */
  webhookDisableAfterMs: number;
  /** Finished deliveries (delivered or dead) and their attempts are kept this long. */
  webhookRetentionMs: number;
  /** Allows http and private, loopback and link-local targets: for local development and tests only. */
  webhookAllowPrivateTargets: boolean;
  /** Monitoring runs made at once by a `work` process (0: it only queues them). */
  monitoringWorkers: number;
  /** The safety-net schedule: an active configuration is run again after this long (jittered ±10%). */
  monitoringIntervalMs: number;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Parses the environment once at start-up; every problem is reported at once, by variable name. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  const problems = parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  // Checked on the raw values so that it is reported together with every other problem.
  if (env.EVENT_STORE === 'esdb' && !env.ESDB_CONNECTION_STRING) {
    problems.push('ESDB_CONNECTION_STRING: is required when EVENT_STORE=esdb');
  }
  if (!parsed.success || problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${problems.map((line) => `  ${line}`).join('\n')}`);
  }
  const e = parsed.data;
  return {
    databaseUrl: e.DATABASE_URL,
    eventStore: e.EVENT_STORE,
    esdbConnectionString: e.ESDB_CONNECTION_STRING,
    port: e.PORT,
    host: e.HOST,
    role: e.ROLE,
    embeddedPgDir: projectPath(e.EMBEDDED_PG_DIR),
    logLevel: e.LOG_LEVEL,
    feedPollIntervalMs: e.FEED_POLL_INTERVAL_MS,
    maxInFlightRequests: e.MAX_IN_FLIGHT_REQUESTS,
    databasePoolWaitTimeoutMs: e.DATABASE_POOL_WAIT_TIMEOUT_MS,
    metricsToken: e.METRICS_TOKEN,
    httpTimeouts: { headersMs: e.HTTP_HEADERS_TIMEOUT_MS, requestMs: e.HTTP_REQUEST_TIMEOUT_MS },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    sourceStaleAfterMs: e.SOURCE_STALE_AFTER,
    sourcesConfigPath: projectPath(e.SOURCES_CONFIG),
    checkWorkers: e.CHECK_WORKERS,
    checkLeaseMs: e.CHECK_LEASE,
    idempotencyLeaseMs: e.IDEMPOTENCY_LEASE,
    checkRetryDelaysMs: e.CHECK_RETRY_DELAYS,
    checkPollIntervalMs: e.CHECK_POLL_INTERVAL_MS,
    webhookWorkers: e.WEBHOOK_WORKERS,
    webhookTimeoutMs: e.WEBHOOK_TIMEOUT,
    webhookRetryDelaysMs: e.WEBHOOK_RETRY_DELAYS,
    webhookDisableAfterMs: e.WEBHOOK_DISABLE_AFTER,
    webhookRetentionMs: e.WEBHOOK_RETENTION,
    webhookAllowPrivateTargets: e.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    monitoringWorkers: e.MONITORING_WORKERS,
    monitoringIntervalMs: e.MONITORING_INTERVAL,
  };
}
