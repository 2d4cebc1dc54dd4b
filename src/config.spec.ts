import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from './config.js';
import { projectRoot } from './shared/projectRoot.js';

function problemsOf(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('defaults to the embedded PostgreSQL event store serving and working on port 3000', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      databaseUrl: undefined,
      eventStore: 'postgres',
      port: 3000,
      host: '127.0.0.1',
      role: 'all',
      feedPollIntervalMs: 1000,
    });
  });

  describe('paths', () => {
    afterEach(() => {
      vi.restoreAllMocks();
    });

    it('anchors relative paths to the project, not to the folder the command runs from', () => {
      vi.spyOn(process, 'cwd').mockReturnValue('/somewhere/else');
      const config = loadConfig({ SOURCES_CONFIG: 'config/other.json' });
      expect(config.embeddedPgDir).toBe(path.join(projectRoot, '.data', 'postgres'));
      expect(config.sourcesConfigPath).toBe(path.join(projectRoot, 'config', 'other.json'));
    });

    it('keeps absolute paths as given', () => {
      expect(loadConfig({ EMBEDDED_PG_DIR: '/var/lib/casescreen/pg' }).embeddedPgDir).toBe(
        '/var/lib/casescreen/pg',
      );
    });
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' })).toMatchObject({ databaseUrl: undefined, port: 3000 });
  });

  it('reports every invalid variable at once, by name, including the EventStoreDB rule', () => {
    const message = problemsOf({
      DATABASE_URL: 'mysql://x',
      PORT: '70000',
      ROLE: 'bogus',
      EVENT_STORE: 'esdb',
    });
    expect(message).toContain('DATABASE_URL: must be a postgres://');
    expect(message).toContain('PORT:');
    expect(message).toContain('ROLE:');
    expect(message).toContain('ESDB_CONNECTION_STRING: is required when EVENT_STORE=esdb');
  });

  it('bounds request work: 32 /v1 requests in flight, a 2 s wait for a database connection', () => {
    expect(loadConfig({})).toMatchObject({ maxInFlightRequests: 32, databasePoolWaitTimeoutMs: 2000 });
    expect(loadConfig({ MAX_IN_FLIGHT_REQUESTS: '8', DATABASE_POOL_WAIT_TIMEOUT_MS: '0' })).toMatchObject({
      maxInFlightRequests: 8,
      databasePoolWaitTimeoutMs: 0,
    });
    const message = problemsOf({ MAX_IN_FLIGHT_REQUESTS: '0', DATABASE_POOL_WAIT_TIMEOUT_MS: '-1' });
    expect(message).toContain('MAX_IN_FLIGHT_REQUESTS:');
    expect(message).toContain('DATABASE_POOL_WAIT_TIMEOUT_MS:');
  });

  it('accepts EventStoreDB with a connection string', () => {
    expect(
      loadConfig({ EVENT_STORE: 'esdb', ESDB_CONNECTION_STRING: 'esdb://localhost:2113?tls=false' }),
    ).toMatchObject({ eventStore: 'esdb', esdbConnectionString: 'esdb://localhost:2113?tls=false' });
  });

  it('accepts exactly the EventStoreDB schemes the adapter can open, and names them when refusing', () => {
    for (const scheme of [
      'esdb',
      'esdb+discover',
      'kurrentdb',
      'kurrentdb+discover',
      'kdb',
      'kdb+discover',
    ]) {
      const connectionString = `${scheme}://localhost:2113?tls=false`;
      expect(loadConfig({ EVENT_STORE: 'esdb', ESDB_CONNECTION_STRING: connectionString })).toMatchObject({
        esdbConnectionString: connectionString,
      });
    }
    for (const other of ['tcp://localhost:1113', 'http://localhost:2113', 'kurrent://localhost:2113']) {
      expect(problemsOf({ EVENT_STORE: 'esdb', ESDB_CONNECTION_STRING: other })).toContain(
        'ESDB_CONNECTION_STRING: must start with esdb://, esdb+discover://, kurrentdb://, kurrentdb+discover://, kdb://, kdb+discover://',
      );
    }
  });

  it('configures the check runner: two workers, a 15 s lease, retries after 5 s, 30 s and 2 min', () => {
    expect(loadConfig({})).toMatchObject({
      checkWorkers: 2,
      checkLeaseMs: 15_000,
      checkRetryDelaysMs: [5_000, 30_000, 120_000],
      checkPollIntervalMs: 1000,
    });
    expect(
      loadConfig({
        CHECK_WORKERS: '0',
        CHECK_LEASE: '2m',
        CHECK_RETRY_DELAYS: '10s, 1m,1h',
        CHECK_POLL_INTERVAL_MS: '250',
      }),
    ).toMatchObject({
      checkWorkers: 0,
      checkLeaseMs: 120_000,
      checkRetryDelaysMs: [10_000, 60_000, 3_600_000],
      checkPollIntervalMs: 250,
    });
    expect(loadConfig({ CHECK_RETRY_DELAYS: 'none' }).checkRetryDelaysMs).toEqual([]);
  });

  it('leases an Idempotency-Key for 10 s by default, 1 s to 10 min', () => {
    expect(loadConfig({}).idempotencyLeaseMs).toBe(10_000);
    expect(loadConfig({ IDEMPOTENCY_LEASE: '30s' }).idempotencyLeaseMs).toBe(30_000);
    expect(problemsOf({ IDEMPOTENCY_LEASE: '20m' })).toContain(
      'IDEMPOTENCY_LEASE: must be between 1s and 10m',
    );
  });

  it('runs the monitoring safety net every 24h by default, 1 min to 366 days', () => {
    expect(loadConfig({}).monitoringIntervalMs).toBe(86_400_000);
    expect(loadConfig({ MONITORING_INTERVAL: '6h' }).monitoringIntervalMs).toBe(21_600_000);
    expect(loadConfig({ MONITORING_INTERVAL: '' }).monitoringIntervalMs).toBe(86_400_000);
    for (const outOfRange of ['30s', '367d']) {
      expect(problemsOf({ MONITORING_INTERVAL: outOfRange })).toContain(
        'MONITORING_INTERVAL: must be between 1m and 366d',
      );
    }
    expect(problemsOf({ MONITORING_INTERVAL: 'daily' })).toContain('MONITORING_INTERVAL: must be a duration');
  });

  it('keeps webhook delivery history 30 days by default, and never less than 30 days', () => {
    expect(loadConfig({}).webhookRetentionMs).toBe(30 * 86_400_000);
    expect(loadConfig({ WEBHOOK_RETENTION: '90d' }).webhookRetentionMs).toBe(90 * 86_400_000);
    expect(loadConfig({ WEBHOOK_RETENTION: '3650d' }).webhookRetentionMs).toBe(3_650 * 86_400_000);
    for (const outOfRange of ['1d', '29d', '3651d']) {
      expect(problemsOf({ WEBHOOK_RETENTION: outOfRange })).toContain(
        'WEBHOOK_RETENTION: must be between 30d and 3650d',
      );
    }
  });

  it('refuses check runner settings out of range, by name', () => {
    const message = problemsOf({
      CHECK_WORKERS: '-1',
      CHECK_LEASE: '1s',
      CHECK_RETRY_DELAYS: '5s,soon',
      CHECK_POLL_INTERVAL_MS: '5',
    });
    expect(message).toContain('CHECK_WORKERS:');
    expect(message).toContain('CHECK_LEASE: must be between 2s and 1h');
    expect(message).toContain('CHECK_RETRY_DELAYS: must be a duration');
    expect(message).toContain('CHECK_POLL_INTERVAL_MS:');
    expect(problemsOf({ CHECK_RETRY_DELAYS: Array(11).fill('1s').join(',') })).toContain(
      'CHECK_RETRY_DELAYS: at most 10 delays',
    );
  });
});
