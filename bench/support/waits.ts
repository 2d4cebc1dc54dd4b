import pg from 'pg';

/**
 * Share of sampled backends per wait event of active ones ("CPU" when not waiting), or per state
 * of the others ("idle": the server waits for its client, here Node or pgbench).
 */
export interface WaitShare {
  event: string;
  share: number;
}

export interface WaitSampler {
  /** Stops sampling; the shares, largest first. */
  stop(): Promise<WaitShare[]>;
}

/**
 * Samples pg_stat_activity every `intervalMs` for the backends of `applicationName`: where the
 * server side of a measurement spends its time (locks, WAL flushes, CPU, or waiting for the client).
 */
export function sampleWaits(url: string, applicationName: string, intervalMs = 20): WaitSampler {
  const counts = new Map<string, number>();
  let running = true;
  const loop = (async () => {
    const client = new pg.Client({ connectionString: url, application_name: 'casescreen-bench-waits' });
    await client.connect();
    try {
      while (running) {
        await sampleOnce(client, applicationName, counts);
        await new Promise((resolve) => setTimeout(resolve, intervalMs));
      }
    } finally {
      await client.end();
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
      return [...counts.entries()]
        .map(([event, n]) => ({ event, share: n / total }))
        .sort((a, b) => b.share - a.share);
    },
  };
}

async function sampleOnce(client: pg.Client, applicationName: string, counts: Map<string, number>) {
  const { rows } = await client.query<{ event: string; n: number }>(
    `SELECT CASE WHEN state = 'active' THEN coalesce(wait_event_type || ':' || wait_event, 'CPU')
                 ELSE state END AS event,
            count(*)::int AS n
       FROM pg_stat_activity
      WHERE application_name = $1 AND pid <> pg_backend_pid()
      GROUP BY 1`,
    [applicationName],
  );
  for (const row of rows) counts.set(row.event, (counts.get(row.event) ?? 0) + row.n);
}

/** "Lock:object 84%, IO:WalSync 8%, CPU 7%": the top few. */
export function describeWaits(waits: WaitShare[], top = 3): string {
  return waits
    .slice(0, top)
    .map((wait) => `${wait.event} ${Math.round(wait.share * 100)}%`)
    .join(', ');
}
