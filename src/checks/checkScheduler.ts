import { CASE_CATEGORY, type CaseCreated } from '../cases/caseEvents.js';
import { notifyWorkers } from '../db/notifications.js';
import type { RecordedEvent } from '../eventStore/eventStore.js';
import type { SubscriptionHandler } from '../subscriptions/handler.js';
import { insertJobs, type NewCheckJob } from './checkJobs.js';

/**
 * The check scheduler: a reactor on the case category that queues one `check_jobs` row per check
 * of each CaseCreated. The rows are written through the runner's transaction, the one that moves the
 * subscription's checkpoint, so each check is queued exactly once; a batch seen again (after a crash
 * before its commit) finds its rows there and inserts nothing (ON CONFLICT DO NOTHING). It is a
 * subscription of its own, so rebuilding a projection never queues a check again.
 */
export const CHECK_SCHEDULER_SUBSCRIPTION_ID = 'reactor:check_scheduler';

/**
 * The jobs of the CaseCreated events among `events`, in feed order. A follow-up case of monitoring
 * (`origin`) comes with its checks completed by the run: nothing to queue.
 */
export function jobsOf(events: readonly RecordedEvent[]): NewCheckJob[] {
  return events
    .filter(
      (event): event is RecordedEvent<'CaseCreated', CaseCreated['data']> =>
        event.type === 'CaseCreated' && !(event.data as CaseCreated['data']).origin,
    )
    .flatMap(({ data }) =>
      data.checks.map((check) => ({
        checkReference: check.checkReference,
        caseReference: data.caseReference,
        accountId: data.accountId,
        checkType: check.type,
      })),
    );
}

/** Check workers LISTEN on this channel: the scheduler notifies it when it queued jobs. */
export const CHECK_JOBS_CHANNEL = 'check_jobs';

/**
 * `onQueued` is told, inside the batch's transaction, that it queued jobs: the caller rings its own
 * workers once the batch has committed (checkRunner.ts), and they skip the notification of `sender`
 * sent at that commit, which every other runner's workers take.
 */
export function checkSchedulerHandler(
  options: { sender?: string; onQueued?: () => void } = {},
): SubscriptionHandler {
  return {
    subscriptionId: CHECK_SCHEDULER_SUBSCRIPTION_ID,
    categories: [CASE_CATEGORY],
    async handle(events, tx) {
      if ((await insertJobs(tx, jobsOf(events))) === 0) return;
      await notifyWorkers(tx, CHECK_JOBS_CHANNEL, options.sender);
      options.onQueued?.();
    },
  };
}
