import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMonitoringJob } from '../../../src/monitoring/runJob.js';
import { enrollNewSubject, openRunJobBed } from '../../support/monitoringBuilders.js';

/**
 * What one run costs the database in the steady state (the screening index built, the process
 * warm): a run that finds nothing is most of a book's runs (every configuration once a day on the
 * safety-net schedule), so its statements are counted. They are: the configuration's stream, the
 * current snapshots, the subject's stream, the subject's cases in the group (the evidence), the
 * append of the run (at the revision read first), the feed's wake-up after the
 * append (sent apart from it, coalesced: src/eventStore/postgres/feedNotifier.ts), and the current
 * snapshots once more after it (a list version that became current meanwhile gets its run queued).
 * Before 2026-11-28 it took ten: the current snapshots were read twice before the run, the stream
 * again to record it, and once more after it to look for a follow-up case it had not asked for.
 */

describe('a monitoring run that finds nothing', () => {
  let bed: Awaited<ReturnType<typeof openRunJobBed>>;
  beforeAll(async () => {
    bed = await openRunJobBed('Run statements');
  });
  afterAll(async () => {
    await bed?.close();
  });

  const baselineOf = async (name: string) => {
    const { es, where } = bed;
    const { configId } = await enrollNewSubject({ pool: es.db.pool, store: es.store }, where, { name });
    return {
      runId: `run_${configId.slice(4)}`,
      monitoringConfigId: configId,
      trigger: { kind: 'enrollment' as const },
    };
  };

  it('takes seven statements', async () => {
    // The first run builds the screening index; the one counted finds the process warm.
    expect(await runMonitoringJob(bed.deps(), await baselineOf('Maria Nobody'))).toMatchObject({
      kind: 'recorded',
    });
    const job = await baselineOf('Jonas Nobody');

    const statements: string[] = [];
    const pool = bed.es.db.pool;
    const query = pool.query;
    pool.query = ((...args: Parameters<pg.Pool['query']>) => {
      statements.push(typeof args[0] === 'string' ? args[0] : String((args[0] as { text?: string }).text));
      return (query as (...a: unknown[]) => unknown).apply(pool, args);
    }) as pg.Pool['query'];
    try {
      const outcome = await runMonitoringJob(bed.deps(), job);
      expect(outcome).toMatchObject({ kind: 'recorded', result: 'no_change', followUpCaseReference: null });
    } finally {
      pool.query = query;
    }
    expect(statements.length, statements.join('\n---\n')).toBeLessThanOrEqual(7);
  });
});
