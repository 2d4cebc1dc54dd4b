import type { Migration } from './index.js';

/**
 * The rate-limit counters without write-ahead log. Every request bumps one (often in the statement
 * of a GET's read); logged, each bump waited for a WAL flush at commit, a disk write per GET. A counter
 * lives one minute, so what unlogged costs is small and bounded: after a crash of the database server
 * (not of a service process) PostgreSQL empties the table, and every key gets the rest of that
 * window's budget again; a standby holds no counters, so a promoted standby starts empty the same way
 * (docs/rate-limits-and-request-log.md).
 */
export const unloggedRateLimitWindowsMigration: Migration = {
  id: 15,
  name: 'unlogged_rate_limit_windows',
  sql: `ALTER TABLE rate_limit_windows SET UNLOGGED;`,
};
