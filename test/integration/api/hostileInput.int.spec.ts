import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedApiKey } from '../../../src/workspace/keyStore.js';
import { type CaseApiService, openCaseApiService } from '../../support/caseApiService.js';
import type { TestEventStore } from '../../support/testEventStore.js';

/**
 * Input the schemas let through but the database cannot store (docs/api-conventions.md, "Text the
 * service refuses"): 400 `invalid_request` in the envelope, and nothing written.
 */
describe('hostile input over HTTP', () => {
  let opened: TestEventStore;
  let url: string;
  let key: CreatedApiKey;
  let n = 0;

  let service: CaseApiService;
  beforeAll(async () => {
    service = await openCaseApiService({ account: 'Hostile Co' });
    ({ opened, url, key } = service);
  });
  afterAll(async () => {
    await service?.close();
  });

  const streams = async () =>
    (await opened.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM es_streams')).rows[0]!.n;

  async function postRaw(body: string | Buffer) {
    n += 1;
    const response = await fetch(`${url}/v1/cases`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key.rawKey}`,
        'idempotency-key': `hostile-${n}-${Date.now()}`,
        'content-type': 'application/json',
      },
      body,
    });
    return {
      status: response.status,
      body: (await response.json()) as {
        error?: { code: string; message: string; details: { fieldErrors?: Record<string, string[]> } };
        meta: { request_id: string };
      },
    };
  }

  const caseBody = (subject: Record<string, unknown>, kase: Record<string, unknown> = {}) =>
    JSON.stringify({ subject, case: kase, checks: { types: ['sanctions'] } });

  it.each([
    ['a NUL in case.notes', caseBody({ name: 'Nina Nul' }, { notes: 'before\u0000after' }), 'case.notes'],
    ['a NUL in subject.name', caseBody({ name: 'Nina\u0000Nul' }), 'subject.name'],
    ['a lone surrogate in subject.name', caseBody({ name: 'Sam \ud800 Surrogate' }), 'subject.name'],
    [
      'a NUL in a metadata key',
      caseBody({ name: 'Kim Key', metadata: { 'a\u0000b': 1 } }),
      'subject.metadata.a\u0000b',
    ],
  ])('refuses %s with 400 naming the field, writing nothing', async (_, body, field) => {
    const before = await streams();
    const answer = await postRaw(body);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'invalid_request' });
    expect(Object.keys(answer.body.error!.details.fieldErrors!)).toEqual([field]);
    expect(answer.body.meta.request_id).toMatch(/^req_/);
    expect(await streams()).toBe(before);
  });

  it('refuses metadata nested thousands of levels deep with 400, not 500', async () => {
    const deep = `${'{"a":'.repeat(4300)}1${'}'.repeat(4300)}`;
    const before = await streams();
    const answer = await postRaw(
      `{"subject":{"name":"Dee Deep","metadata":${deep}},"checks":{"types":["sanctions"]}}`,
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error?.message).toMatch(/deeper than 32 levels/);
    expect(await streams()).toBe(before);
  });

  it('refuses a body that is not UTF-8 instead of screening a replaced name', async () => {
    const before = await streams();
    const invalid = Buffer.concat([
      Buffer.from('{"subject":{"name":"Ren'),
      Buffer.from([0xe9]),
      Buffer.from('"},"checks":{"types":["sanctions"]}}'),
    ]);
    const answer = await postRaw(invalid);
    expect(answer.status).toBe(400);
    expect(answer.body.error?.message).toBe('The request body is not valid UTF-8.');
    expect(await streams()).toBe(before);
  });

  it('refuses a NUL in a query string or a path parameter with 400', async () => {
    const headers = { authorization: `Bearer ${key.rawKey}` };
    const query = await fetch(`${url}/v1/monitoring-configs?subject_reference=sub%00x`, { headers });
    expect(query.status).toBe(400);
    const path = await fetch(`${url}/v1/cases/ABC%00123`, { headers });
    expect(path.status).toBe(400);
    expect(((await path.json()) as { error: { code: string } }).error.code).toBe('invalid_request');
  });

  it('answers 404 in the envelope for static paths that climb out of the docs folder or name nothing', async () => {
    for (const path of [
      '/docs/static/../../../../etc/passwd',
      '/docs/static/%2e%2e/%2e%2e/etc/passwd',
      '/docs/static/nope.js',
    ]) {
      // fetch would normalize the dots away: send the path as written.
      const response = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const { hostname, port } = new URL(url);
        const request = http.get({ hostname, port, path }, (res) => {
          let body = '';
          res.on('data', (chunk) => {
            body += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        });
        request.on('error', reject);
      });
      expect(response.status, path).toBe(404);
      expect(JSON.parse(response.body), path).toMatchObject({ error: { code: 'not_found' } });
    }
  });

  it('still takes text from every script, astral characters included', async () => {
    const answer = await postRaw(
      caseBody({ name: '安倍晋三 😀 Zoë', metadata: { note: 'ok', nested: [{ a: 'b' }] } }),
    );
    expect(answer.status).toBe(201);
  });
});
