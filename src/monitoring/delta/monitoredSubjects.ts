import { createHash } from 'node:crypto';
import type pg from 'pg';
import { screeningSubjectOf } from '../../checks/screeningPlan.js';
import type { CheckType } from '../../screening/checkTypes.js';
import type { MonitoredSubject as ConfigSubject } from '../monitoringEvents.js';
import { type MonitoredSubject, MonitoredSubjectIndex } from './monitoredSubjectIndex.js';

/** Configurations whose subject is read per query when they changed. */
const CHANGED_PAGE = 1000;

/**
 * The reverse index of the active configurations' subjects, kept warm in the work process
 * (docs/monitoring.md, "The reverse index"). Building it reads and prepares every subject (seconds
 * for 100,000); a sweep needs it at once, so it is built when monitoring starts, brought up to date
 * on every tick, and brought up to date again by each sweep before its search.
 *
 * Bringing it up to date reads the active configurations' ids and stream revisions (one narrow
 * scan), and the subject of those whose revision moved since; a configuration whose subject or
 * check types did not change (a run, most often) is left as indexed. Configurations no longer
 * active leave the index.
 *
 * Exact: after `current()` resolves, the index holds exactly the subjects of the active
 * configurations of `monitoring_configs` as one statement read it, which the sweep reads after
 * waiting for the read model to reach the list version.
 */
export class MonitoredSubjects {
  private index = MonitoredSubjectIndex.build([]);
  /** Per indexed configuration: the revision last read and what the index holds of it. */
  private readonly known = new Map<string, { revision: number; fingerprint: string }>();
  /** Refreshes run one after another: a later caller must see rows an earlier scan predates. */
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly pool: pg.Pool) {}

  /**
   * Runs `search` on the index brought up to date first; no refresh changes the index until
   * `search` resolves, so a search may yield to the event loop between parties and still see one
   * index throughout.
   */
  withCurrent<T>(search: (index: MonitoredSubjectIndex) => Promise<T> | T): Promise<T> {
    return this.serially(async () => {
      await this.refreshNow();
      return search(this.index);
    });
  }

  /** The index brought up to date, for use before the caller next yields (tests, operations). */
  current(): Promise<MonitoredSubjectIndex> {
    return this.withCurrent((index) => index);
  }

  /** Brings the index up to date; resolves with the configurations (re)indexed or dropped. */
  refresh(): Promise<number> {
    return this.serially(() => this.refreshNow());
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const next = this.chain.then(work);
    this.chain = next.catch(() => {});
    return next;
  }

  private async refreshNow(): Promise<number> {
    const { rows } = await this.pool.query<{ id: string; revision: string }>(
      `SELECT monitoring_config_id AS id, revision FROM monitoring_configs WHERE status = 'active'`,
    );
    const active = new Set<string>();
    const moved: { id: string; revision: number }[] = [];
    for (const row of rows) {
      active.add(row.id);
      const revision = Number(row.revision);
      if (this.known.get(row.id)?.revision !== revision) moved.push({ id: row.id, revision });
    }
    let touched = 0;
    for (const id of this.known.keys()) {
      if (active.has(id)) continue;
      this.known.delete(id);
      this.index.remove(id);
      touched++;
    }
    for (let i = 0; i < moved.length; i += CHANGED_PAGE) {
      const page = new Map(moved.slice(i, i + CHANGED_PAGE).map((m) => [m.id, m.revision]));
      for (const subject of await subjectsOf(this.pool, [...page.keys()])) {
        const fingerprint = fingerprintOf(subject);
        const revision = page.get(subject.key)!;
        const before = this.known.get(subject.key);
        this.known.set(subject.key, { revision, fingerprint });
        if (before?.fingerprint === fingerprint) continue;
        this.index.add(subject);
        touched++;
      }
    }
    // Replaced and removed slots are skipped but kept; past the live ones, build afresh.
    if (this.index.removedSize > Math.max(1000, this.index.size)) {
      this.index = MonitoredSubjectIndex.build([]);
      this.known.clear();
      touched += await this.refreshNow();
    }
    return touched;
  }
}

/** What the index holds of a configuration, compactly: an unchanged one is not indexed again. */
function fingerprintOf(subject: MonitoredSubject): string {
  return createHash('sha1')
    .update(JSON.stringify([subject.subject, subject.checkTypes]))
    .digest('base64');
}

async function subjectsOf(pool: pg.Pool, ids: readonly string[]): Promise<MonitoredSubject[]> {
  if (ids.length === 0) return [];
  const { rows } = await pool.query<{ id: string; subject: ConfigSubject; check_types: CheckType[] }>(
    `SELECT monitoring_config_id AS id, state->'subject' AS subject, check_types
       FROM monitoring_configs WHERE monitoring_config_id = ANY($1::text[])`,
    [ids],
  );
  return rows.map((row) => ({
    key: row.id,
    subject: screeningSubjectOf(row.subject),
    checkTypes: row.check_types,
  }));
}
