import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

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
      role: 'all',
      feedPollIntervalMs: 1000,
    });
    expect(config.embeddedPgDir.endsWith('.data/postgres')).toBe(true);
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

  it('accepts EventStoreDB with a connection string', () => {
    expect(
      loadConfig({ EVENT_STORE: 'esdb', ESDB_CONNECTION_STRING: 'esdb://localhost:2113?tls=false' }),
    ).toMatchObject({ eventStore: 'esdb', esdbConnectionString: 'esdb://localhost:2113?tls=false' });
  });
});
