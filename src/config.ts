import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_STALE_AFTER, parseDuration } from './screening/snapshots/staleness.js';

const roles = ['all', 'serve', 'work'] as const;
export type ProcessRole = (typeof roles)[number];

const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);

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
      .regex(/^(esdb|esdb\+discover|kurrentdb|kdb):\/\//, 'must be an esdb:// connection string')
      .optional(),
  ),
  PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
  HOST: z.preprocess(emptyToUndefined, z.string().default('0.0.0.0')),
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
});

export interface Config {
  databaseUrl: string | undefined;
  eventStore: 'postgres' | 'esdb';
  esdbConnectionString: string | undefined;
  port: number;
  host: string;
  role: ProcessRole;
  embeddedPgDir: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  feedPollIntervalMs: number;
  shutdownTimeoutMs: number;
  /** A source snapshot older than this (publisher's date, else load time) refuses checks. */
  sourceStaleAfterMs: number;
  /** The publisher download list of `casescreen sources sync`. */
  sourcesConfigPath: string;
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
    embeddedPgDir: path.resolve(e.EMBEDDED_PG_DIR),
    logLevel: e.LOG_LEVEL,
    feedPollIntervalMs: e.FEED_POLL_INTERVAL_MS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    sourceStaleAfterMs: e.SOURCE_STALE_AFTER,
    sourcesConfigPath: path.resolve(e.SOURCES_CONFIG),
  };
}
