import { listCheckpoints, resumeSubscription } from '../subscriptions/checkpointStore.js';
import type { CliContext } from './context.js';
import type { CliIo } from './io.js';
import { formatTable } from './table.js';

export async function subscriptionsStatus(
  context: CliContext,
  io: CliIo,
  options: { json?: boolean },
): Promise<number> {
  const rows = await listCheckpoints(context.pool);
  if (options.json) {
    io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  io.stdout.write(
    formatTable(
      ['SUBSCRIPTION', 'CHECKPOINT', 'STATUS', 'ATTEMPTS', 'PARKED EVENT', 'LAST ERROR'],
      rows.map((row) => [
        row.subscriptionId,
        row.checkpoint ?? 'start',
        row.status,
        String(row.attempts),
        row.parkedEventId ? `${row.parkedEventId} at ${row.parkedPosition}` : '-',
        row.lastError ?? '-',
      ]),
    ),
  );
  return 0;
}

export async function subscriptionsResume(
  context: CliContext,
  io: CliIo,
  subscriptionId: string,
): Promise<number> {
  const outcome = await resumeSubscription(context.pool, subscriptionId);
  switch (outcome) {
    case 'resumed':
      io.stdout.write(`Resumed ${subscriptionId}; its runner retries the parked event on its next check\n`);
      return 0;
    case 'not-parked':
      io.stderr.write(`${subscriptionId} is not parked\n`);
      return 1;
    case 'unknown':
      io.stderr.write(`No subscription "${subscriptionId}"\n`);
      return 1;
  }
}
