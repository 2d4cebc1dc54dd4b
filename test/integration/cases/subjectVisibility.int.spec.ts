import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCaseView } from '../../../projections/cases/queries.js';
import { projections } from '../../../projections/registry.js';
import { installProjections } from '../../../projections/registryStore.js';
import { startProjections } from '../../../projections/startProjections.js';
import { loadCase } from '../../../src/cases/caseStream.js';
import { unXmlFormat } from '../../../src/screening/parsers/unXml.js';
import { loadSnapshot } from '../../../src/screening/snapshots/loadSnapshot.js';
import { subjectStreamName } from '../../../src/subjects/subjectEvents.js';
import { SCOPES } from '../../../src/workspace/keyPolicy.js';
import type { CreatedApiKey } from '../../../src/workspace/keyStore.js';
import {
  createCaseNow,
  createCaseWorkspace,
  createKey,
  DAY_MS,
  freshSubjectReference,
  runCase,
  startApiServer,
} from '../../support/caseApi.js';
import { eventually } from '../../support/eventually.js';
import { fixturePath } from '../../support/parsedEntities.js';
import { fastRunnerOptions } from '../../support/subscriptionFixtures.js';
import { openTestEventStore, type TestEventStore } from '../../support/testEventStore.js';

/**
 * Subject visibility over real HTTP (docs/cases.md, "Subjects"): a key reads, reuses or changes a
 * subject only through a group it can see; another group's subject is not found, exactly like a
 * missing one, and create_or_reuse never matches it. Every path of POST /v1/cases that takes a
 * subject: `subject_reference` in both modes, and `external_reference` in create_or_reuse.
 */

interface Envelope<T> {
  data: T;
  error?: { code: string; message: string; details: Record<string, unknown> | null };
}

type CaseData = {
  case_reference: string;
  group_id: string;
  subject: {
    subject_reference: string;
    display_name: string;
    external_reference: string | null;
    metadata: Record<string, unknown>;
  };
};

describe('subject visibility over HTTP', () => {
  let opened: TestEventStore;
  let app: FastifyInstance;
  let url: string;
  let accountId: string;
  let groupA: string;
  let groupB: string;
  const keys: Record<'a' | 'b' | 'both', CreatedApiKey> = {} as never;

  beforeAll(async () => {
    opened = await openTestEventStore();
    // As every process does at start-up: the read model's views exist before anything serves.
    await installProjections(opened.db.pool, projections);
    const workspace = await createCaseWorkspace(opened.db.pool, {
      account: 'Visibility Co',
      groups: ['Desk A', 'Desk B'],
      foreign: 'Elsewhere Ltd',
    });
    accountId = workspace.accountId;
    [groupA, groupB] = workspace.groupIds as [string, string];
    const key = (ids: string[]) =>
      createKey(opened.db.pool, accountId, SCOPES, { groups: { kind: 'ids', ids } });
    keys.a = await key([groupA]);
    keys.b = await key([groupB]);
    keys.both = await key([groupA, groupB]);
    await loadSnapshot(opened.db.pool, {
      format: unXmlFormat,
      paths: [fixturePath('un-xml', 'consolidated.xml')],
      publishedAt: new Date(Date.now() - DAY_MS),
    });
    ({ app, url } = await startApiServer({ pool: opened.db.pool, store: opened.store, rateLimit: 100_000 }));
  });

  afterAll(async () => {
    await app?.close();
    await opened?.close();
  });

  async function post(key: CreatedApiKey, body: unknown) {
    const response = await fetch(`${url}/v1/cases`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key.rawKey}`,
        'idempotency-key': `idem-${randomUUID()}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Envelope<CaseData> };
  }

  async function createCase(key: CreatedApiKey, groupId: string, subject: Record<string, unknown>) {
    const created = await post(key, {
      subject,
      case: { group_id: groupId },
      checks: { types: ['sanctions'] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.data;
  }

  async function streamTypes(subjectReference: string): Promise<string[]> {
    return (await opened.store.readStream(subjectStreamName(subjectReference))).events.map((e) => e.type);
  }

  /** The subject as a key of its group sees it now: screened as stored, in a new case. */
  async function storedAs(key: CreatedApiKey, groupId: string, subjectReference: string) {
    return (await createCase(key, groupId, { mode: 'existing', subject_reference: subjectReference }))
      .subject;
  }

  it("answers another group's subject_reference exactly as a missing one, in both modes, changing nothing", async () => {
    const original = await createCase(keys.a, groupA, {
      name: 'Ada Visible',
      metadata: { segment: 'private' },
    });
    const reference = original.subject.subject_reference;
    const missing = freshSubjectReference();
    for (const mode of ['existing', 'create_or_reuse'] as const) {
      const overwrite =
        mode === 'create_or_reuse' ? { name: 'Someone Else', metadata: { overwritten: true } } : {};
      const hidden = await post(keys.b, {
        subject: { mode, subject_reference: reference, ...overwrite },
        case: { group_id: groupB },
        checks: { types: ['sanctions'] },
      });
      const absent = await post(keys.b, {
        subject: { mode, subject_reference: missing, ...overwrite },
        case: { group_id: groupB },
        checks: { types: ['sanctions'] },
      });
      expect(hidden.status).toBe(404);
      expect(absent.status).toBe(404);
      expect(hidden.body.error).toEqual({
        code: 'not_found',
        message: `Subject ${reference} was not found.`,
        details: absent.body.error?.details ?? null,
      });
      // The same body but for the reference itself.
      expect(JSON.stringify(hidden.body.error).replaceAll(reference, missing)).toBe(
        JSON.stringify(absent.body.error),
      );
    }
    // Nothing was written to the subject, and its group's key sees it as it was.
    expect(await streamTypes(reference)).toEqual(['SubjectCreated']);
    expect(await storedAs(keys.a, groupA, reference)).toEqual(original.subject);
  });

  it("does not reuse another group's subject for its external reference: a new subject, the other untouched", async () => {
    const first = await createCase(keys.a, groupA, {
      name: 'Grace Shared',
      external_reference: 'crm-shared-1',
      metadata: { owner: 'desk a' },
    });
    const theirs = await createCase(keys.b, groupB, {
      name: 'Grace Other',
      external_reference: 'crm-shared-1',
      metadata: { owner: 'desk b' },
    });
    expect(theirs.subject.subject_reference).not.toBe(first.subject.subject_reference);
    expect(theirs.subject).toMatchObject({
      display_name: 'Grace Other',
      external_reference: 'crm-shared-1',
      metadata: { owner: 'desk b' },
    });
    expect(await streamTypes(first.subject.subject_reference)).toEqual(['SubjectCreated']);

    // Each group's key finds its own subject for the external reference from then on.
    const againB = await createCase(keys.b, groupB, {
      name: 'Grace Other',
      external_reference: 'crm-shared-1',
    });
    expect(againB.subject.subject_reference).toBe(theirs.subject.subject_reference);
    const againA = await createCase(keys.a, groupA, {
      name: 'Grace Shared',
      external_reference: 'crm-shared-1',
    });
    expect(againA.subject).toEqual(first.subject);
  });

  it('lets a key of both groups reuse a subject in its other group, which the subject then belongs to', async () => {
    const original = await createCase(keys.a, groupA, { name: 'Joint Party', metadata: { tier: 1 } });
    const reference = original.subject.subject_reference;
    const reused = await createCase(keys.both, groupB, {
      subject_reference: reference,
      metadata: { tier: 2 },
    });
    expect(reused.group_id).toBe(groupB);
    expect(reused.subject).toMatchObject({ subject_reference: reference, metadata: { tier: 2 } });
    expect(await streamTypes(reference)).toEqual(['SubjectCreated', 'SubjectUsedInGroup', 'SubjectUpdated']);
    // The subject belongs to both groups now: each group's key sees it, as it stands.
    expect((await storedAs(keys.a, groupA, reference)).metadata).toEqual({ tier: 2 });
    expect((await storedAs(keys.b, groupB, reference)).metadata).toEqual({ tier: 2 });
    // Joined once: a second case in the group records nothing more.
    expect(await streamTypes(reference)).toEqual(['SubjectCreated', 'SubjectUsedInGroup', 'SubjectUpdated']);
  });

  it('reuses by external reference for a key of both groups, the subject joining the case group', async () => {
    const first = await createCase(keys.a, groupA, { name: 'Ext Joint', external_reference: 'crm-joint-1' });
    const reused = await createCase(keys.both, groupB, {
      name: 'Ext Joint',
      external_reference: 'crm-joint-1',
    });
    expect(reused.subject.subject_reference).toBe(first.subject.subject_reference);
    expect(await streamTypes(first.subject.subject_reference)).toEqual([
      'SubjectCreated',
      'SubjectUsedInGroup',
    ]);
    // Group B's own key now finds the same subject.
    const byB = await createCase(keys.b, groupB, { name: 'Ext Joint', external_reference: 'crm-joint-1' });
    expect(byB.subject.subject_reference).toBe(first.subject.subject_reference);
  });

  it('gives a subject stored before subjects recorded groups the groups of its cases, and records them on first use', async () => {
    const reference = freshSubjectReference();
    await opened.store.appendToStream(subjectStreamName(reference), [
      {
        type: 'SubjectCreated',
        data: {
          subjectReference: reference,
          accountId,
          type: 'person',
          displayName: 'Old Subject',
          countries: [],
          birthDate: null,
          externalReference: null,
          metadata: { era: 'before groups' },
          occurredAt: new Date().toISOString(),
        },
      },
    ]);
    const caseReference = 'OLD000001';
    await runCase(
      opened.store,
      caseReference,
      createCaseNow(
        {
          caseReference,
          accountId,
          groupId: groupA,
          actor: { type: 'api_client', id: keys.a.key.id, displayName: keys.a.key.name },
        },
        { subjectReference: reference, displayName: 'Old Subject' },
      ),
    );
    // Its case in the read model, as it is for every case made before this change.
    const workers = await startProjections({
      pool: opened.db.pool,
      databaseUrl: opened.db.url,
      store: opened.store,
      runner: fastRunnerOptions,
    });
    try {
      const target = (await loadCase(opened.store, caseReference)).state!.revision;
      await eventually(async () => {
        expect((await findCaseView(opened.db.pool, caseReference))?.revision).toBe(target);
      });
    } finally {
      await workers.stop();
    }

    // Another group's key: not found, nothing written.
    const hidden = await post(keys.b, {
      subject: { subject_reference: reference, metadata: { overwritten: true } },
      case: { group_id: groupB },
      checks: { types: ['sanctions'] },
    });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error?.message).toBe(`Subject ${reference} was not found.`);
    expect(await streamTypes(reference)).toEqual(['SubjectCreated']);

    // Its case's group's key: reused, and the group recorded on the subject's stream.
    const reused = await createCase(keys.a, groupA, { mode: 'existing', subject_reference: reference });
    expect(reused.subject.metadata).toEqual({ era: 'before groups' });
    expect(await streamTypes(reference)).toEqual(['SubjectCreated', 'SubjectUsedInGroup']);
  });
});
