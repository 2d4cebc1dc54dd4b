import { describe, expect, it } from 'vitest';
import type { Checkpoint, RecordedEvent } from '../eventStore/eventStore.js';
import { CHECK_SCHEDULER_SUBSCRIPTION_ID, checkSchedulerHandler, jobsOf } from './checkScheduler.js';

const event = (type: string, data: unknown): RecordedEvent => ({
  id: '00000000-0000-4000-8000-000000000000',
  type,
  data,
  metadata: {},
  streamName: 'case-ABC123456',
  category: 'case',
  revision: 0n,
  position: '1:1' as Checkpoint,
  recordedAt: new Date(),
});

describe('check scheduler', () => {
  it('is a reactor of its own on the case category', () => {
    const handler = checkSchedulerHandler();
    expect(handler.subscriptionId).toBe(CHECK_SCHEDULER_SUBSCRIPTION_ID);
    expect(CHECK_SCHEDULER_SUBSCRIPTION_ID).toBe('reactor:check_scheduler');
    expect(handler.categories).toEqual(['case']);
  });

  it('queues one job per check of each CaseCreated, and nothing for other events', () => {
    const created = (caseReference: string, types: string[]) =>
      event('CaseCreated', {
        caseReference,
        accountId: 'acc',
        checks: types.map((type, i) => ({ checkReference: `${caseReference}-${i + 1}`, checkId: 'x', type })),
      });
    expect(
      jobsOf([
        created('ABC123456', ['sanctions', 'pep']),
        event('CheckStarted', { checkReference: 'ABC123456-1' }),
        created('DEF654321', ['business_entity_risk']),
      ]),
    ).toEqual([
      { checkReference: 'ABC123456-1', caseReference: 'ABC123456', accountId: 'acc', checkType: 'sanctions' },
      { checkReference: 'ABC123456-2', caseReference: 'ABC123456', accountId: 'acc', checkType: 'pep' },
      {
        checkReference: 'DEF654321-1',
        caseReference: 'DEF654321',
        accountId: 'acc',
        checkType: 'business_entity_risk',
      },
    ]);
  });
});
