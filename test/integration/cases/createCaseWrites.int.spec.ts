import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseStream } from '../../../src/cases/caseStream.js';
import { candidateCaseReference } from '../../../src/cases/references.js';
import { subjectStreamName } from '../../../src/subjects/subjectEvents.js';
import type { CreatedApiKey } from '../../../src/workspace/keyStore.js';
import { type CaseApiService, openCaseApiService } from '../../support/caseApiService.js';
import type { TestEventStore } from '../../support/testEventStore.js';

/**
 * How POST /v1/cases writes (docs/cases.md, "How a case is written"): the subject and the case in one
 * append, under the first free candidate reference, with concurrent writers of the same subject
 * decided again rather than overwritten.
 */
describe('POST /v1/cases writes', () => {
  let opened: TestEventStore;
  let url: string;
  let key: CreatedApiKey;

  let service: CaseApiService;
  beforeAll(async () => {
    service = await openCaseApiService({ account: 'Writes Co' });
    ({ opened, url, key } = service);
  });
  afterAll(async () => {
    await service?.close();
  });

  async function post(body: unknown, idempotencyKey = `idem-${randomUUID()}`) {
    const response = await fetch(`${url}/v1/cases`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key.rawKey}`,
        'idempotency-key': idempotencyKey,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as {
      data: { case_reference: string; subject: { subject_reference: string; display_name: string } };
    };
    return { status: response.status, body: json };
  }

  it('writes the new subject and the case in one transaction', async () => {
    const created = await post({ subject: { name: 'Ottilie Atomic' }, checks: { types: ['sanctions'] } });
    expect(created.status).toBe(201);
    const { rows } = await opened.db.pool.query<{ stream_name: string; transaction_id: string }>(
      'SELECT stream_name, transaction_id::text FROM es_events WHERE stream_name = ANY($1)',
      [
        [
          subjectStreamName(created.body.data.subject.subject_reference),
          `case-${created.body.data.case_reference}`,
        ],
      ],
    );
    expect(new Set(rows.map((row) => row.stream_name)).size).toBe(2);
    expect(new Set(rows.map((row) => row.transaction_id)).size).toBe(1);
  });

  it('moves to the next candidate reference when another case holds the first', async () => {
    const idempotencyKey = `idem-${randomUUID()}`;
    const first = candidateCaseReference(key.key.id, idempotencyKey, 0);
    // Another request's case, copied under the first candidate.
    const other = await post({ subject: { name: 'Olga Other' }, checks: { types: ['sanctions'] } });
    const events = (await opened.store.readStream(`case-${other.body.data.case_reference}`)).events;
    await opened.store.appendToStream(
      `${caseStream.category}-${first}`,
      events.map((e) => ({ type: e.type, data: e.data })),
    );
    const created = await post(
      { subject: { name: 'Nadia Next' }, checks: { types: ['sanctions'] } },
      idempotencyKey,
    );
    expect(created.status).toBe(201);
    expect(created.body.data.case_reference).toBe(candidateCaseReference(key.key.id, idempotencyKey, 1));
  });

  it('decides again on the newer subject when concurrent requests update the same subject', async () => {
    const externalReference = `ext-${randomUUID()}`;
    const names = Array.from({ length: 8 }, (_, i) => `Concurrent Person ${i}`);
    const created = await Promise.all(
      names.map((name) =>
        post({
          subject: { name, external_reference: externalReference },
          checks: { types: ['sanctions'] },
        }),
      ),
    );
    expect(created.map((c) => c.status)).toEqual(names.map(() => 201));
    const references = new Set(created.map((c) => c.body.data.subject.subject_reference));
    expect(references.size).toBe(1);
    const stream = await opened.store.readStream(subjectStreamName([...references][0]!));
    // One creation and one update per later request: none lost, revisions without gaps.
    expect(stream.events.map((e) => Number(e.revision))).toEqual(names.map((_, i) => i));
    const screened = created.map((c) => c.body.data.subject.display_name).sort();
    expect(screened).toEqual([...names].sort());
  });
});
