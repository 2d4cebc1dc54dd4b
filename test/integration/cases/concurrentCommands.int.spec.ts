import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedApiKey } from '../../../src/workspace/keyStore.js';
import { type CaseApiService, openCaseApiService } from '../../support/caseApiService.js';
import type { TestEventStore } from '../../support/testEventStore.js';

/**
 * Commands that do not conflict in the domain all succeed, however many arrive at once on one case
 * (docs/cases.md, "Concurrent commands"): no 500 and no 409 from optimistic concurrency.
 */
describe('simultaneous commands on one case', () => {
  let opened: TestEventStore;
  let url: string;
  let key: CreatedApiKey;

  let service: CaseApiService;
  beforeAll(async () => {
    service = await openCaseApiService({ account: 'Busy Co', maxInFlightRequests: 100 });
    ({ opened, url, key } = service);
  });
  afterAll(async () => {
    await service?.close();
  });

  const send = async (method: string, path: string, body: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key.rawKey}`,
        'idempotency-key': `idem-${randomUUID()}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as { data: { case_reference: string } } };
  };

  it('adds 50 materials sent at once to one case: 50 times 201, each once, revisions without gaps', async () => {
    const created = await send('POST', '/v1/cases', {
      subject: { name: 'Bea Busy' },
      checks: { types: ['sanctions'] },
    });
    expect(created.status).toBe(201);
    const reference = created.body.data.case_reference;
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        send('POST', `/v1/cases/${reference}/materials`, { title: `Material ${i}`, note: `note ${i}` }),
      ),
    );
    expect(answers.filter((answer) => answer.status !== 201)).toEqual([]);
    const { events } = await opened.store.readStream(`case-${reference}`);
    const titles = events
      .filter((event) => event.type === 'MaterialAdded')
      .map((event) => (event.data as { title: string }).title)
      .sort();
    expect(titles).toEqual(Array.from({ length: 50 }, (_, i) => `Material ${i}`).sort());
    expect(events.map((event) => Number(event.revision))).toEqual(events.map((_, i) => i));
  });
});
