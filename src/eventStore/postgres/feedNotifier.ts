import type pg from 'pg';
import { prepared } from '../../db/sql.js';
import { FEED_CHANNEL, type FeedNotification } from './wakeups.js';

/**
 * Sends the feed wake-up after an append has committed, coalesced: at most one NOTIFY in flight per
 * process, carrying every category appended to meanwhile. Sending it from inside the append would
 * make every append's commit take PostgreSQL's global notify lock through its WAL flush (measured
 * in bench/: 8 writers fell below 1 writer). A lost notification costs one fallback poll, no event.
 */
export class FeedNotifier {
  private readonly pending = new Set<string>();
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly pool: pg.Pool,
    /** Named in every notification, for the same store's listener to skip (wakeups.ts). */
    private readonly sender?: string,
  ) {}

  notify(...categories: string[]): void {
    for (const category of categories) this.pending.add(category);
    this.flushing ??= this.flush().finally(() => {
      this.flushing = undefined;
    });
  }

  /** Resolves once every wake-up requested so far has been sent (or given up). */
  async drain(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  private async flush(): Promise<void> {
    while (this.pending.size > 0) {
      const payload: FeedNotification = { c: [...this.pending], s: this.sender };
      this.pending.clear();
      try {
        await this.pool.query(prepared('SELECT pg_notify($1, $2)', [FEED_CHANNEL, JSON.stringify(payload)]));
      } catch {
        // Readers poll anyway; a failed wake-up only delays delivery by one poll interval.
      }
    }
  }
}
