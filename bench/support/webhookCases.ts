import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { queuedChecks } from '../../src/cases/caseDecide.js';
import { runCaseCommand } from '../../src/cases/caseStream.js';
import { checkId, checkReference } from '../../src/cases/references.js';
import type { EventStore } from '../../src/eventStore/eventStore.js';
import { webhookEventId } from '../../src/webhooks/webhookEvents.js';
import { epochMs } from './receiver.js';
import { now } from './stats.js';

/**
 * Cases created the way the API creates them, through the case stream's command handler
 * (runCaseCommand: load, decide, append), each appending one CaseCreated: the domain event of a
 * `case.created` webhook. Each case has one sanctions check; the bench's work process runs no
 * check workers, so no check completes and case.created is the only webhook they cause.
 */

export interface CaseAccount {
  accountId: string;
  groupId: string;
  /** Three capital letters: the case references of this batch are these and a six-digit sequence. */
  prefix: string;
}

export interface CreatedCase {
  /** The Service-Event-Id its case.created webhook carries. */
  webhookEventId: string;
  /** epochMs() right after the append resolved: the domain event is committed. */
  committedAt: number;
}

const ACTOR = { type: 'api_client' as const, id: randomUUID(), displayName: 'Webhook benchmark' };

async function createCase(store: EventStore, account: CaseAccount, sequence: number): Promise<CreatedCase> {
  const caseReference = `${account.prefix}${String(sequence).padStart(6, '0')}`;
  const domainEventId = randomUUID();
  const outcome = await runCaseCommand(
    store,
    caseReference,
    {
      type: 'CreateCase',
      now: new Date().toISOString(),
      groupMemberIds: [],
      caseReference,
      accountId: account.accountId,
      groupId: account.groupId,
      subject: {
        subjectReference: `sub_${domainEventId.replaceAll('-', '').slice(0, 24)}`,
        type: 'person',
        displayName: `Bench Subject ${sequence}`,
        countries: ['GB'],
        birthDate: { year: 1950 + (sequence % 50) },
        externalReference: `bench-${sequence}`,
        metadata: {},
      },
      ownerUserId: null,
      collaboratorUserIds: [],
      externalReference: `bench-case-${sequence}`,
      notes: null,
      metadata: {},
      screeningProfileId: 'default',
      checks: queuedChecks(caseReference, ['sanctions'], { reference: checkReference, id: checkId }),
      monitoring: { enable: false, ownerUserId: null, collaboratorUserIds: [] },
      actor: ACTOR,
    },
    () => domainEventId,
  );
  if (!outcome.ok)
    throw new Error(`creating case ${caseReference} was refused: ${outcome.rejection.message}`);
  return { webhookEventId: webhookEventId(domainEventId, 'case.created'), committedAt: epochMs() };
}

/** `count` cases as fast as `writers` concurrent callers can create them (the outbox's pre-fill). */
export async function createCases(
  store: EventStore,
  account: CaseAccount,
  count: number,
  writers: number,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (next < count) await createCase(store, account, next++);
    }),
  );
}

/** Cases at a steady arrival rate: each started on its schedule whether the last finished or not. */
export async function createCasesAtRate(
  store: EventStore,
  account: CaseAccount,
  rate: number,
  durationMs: number,
  firstSequence = 0,
): Promise<CreatedCase[]> {
  const total = Math.max(1, Math.round((rate * durationMs) / 1000));
  const start = now();
  const created: Promise<CreatedCase>[] = [];
  for (let n = 0; n < total; n++) {
    const wait = start + (n * 1000) / rate - now();
    if (wait > 0) await sleep(wait);
    created.push(createCase(store, account, firstSequence + n));
  }
  return Promise.all(created);
}
