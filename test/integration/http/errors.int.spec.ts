import { connect } from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { type Logger, pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sendData } from '../../../src/server/envelope.js';
import { BODY_LIMIT_BYTES } from '../../../src/server/errorHandling.js';
import { buildServer } from '../../../src/server/server.js';
import { parseOr400 } from '../../../src/server/validation.js';

const SECRET = 'postgres://admin:hunter2@db.internal/cases';
const REQUEST_ID = /^req_[0-9a-f]{32}$/;

interface Envelope {
  data?: unknown;
  error?: { code: string; message: string; details: unknown };
  meta: { request_id: string };
}

/** Test-only routes: one that fails unexpectedly, one that validates a zod body. */
function addTestRoutes(app: FastifyInstance): void {
  app.get('/test/boom', async () => {
    throw new Error(`connection refused: ${SECRET}`);
  });
  const item = z.strictObject({
    title: z.string().min(1).max(160),
    tags: z.array(z.string().max(5)).max(3).default([]),
  });
  app.post('/test/items', async (request, reply) => {
    const body = parseOr400(item, request.body, 'body');
    return sendData(reply, 201, { item: body });
  });
  app.get('/test/items/:id', async (request, reply) => sendData(reply, 200, request.params));
}

async function start(logger: Logger): Promise<{ app: FastifyInstance; url: string }> {
  const app = buildServer({ logger, readiness: [] });
  addTestRoutes(app);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url };
}

describe('HTTP errors and envelopes', () => {
  let app: FastifyInstance;
  let url: string;

  beforeAll(async () => {
    ({ app, url } = await start(pino({ level: 'silent' })));
  });
  afterAll(async () => {
    await app?.close();
  });

  /** Every response: request id header matching the body, the API version, a JSON envelope. */
  async function call(path: string, init?: RequestInit): Promise<{ response: Response; body: Envelope }> {
    const response = await fetch(`${url}${path}`, init);
    const body = (await response.json()) as Envelope;
    const requestId = response.headers.get('x-request-id');
    expect(requestId).toMatch(REQUEST_ID);
    expect(body.meta).toEqual({ request_id: requestId });
    expect(response.headers.get('service-api-version')).toBe('2026-06-09');
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    return { response, body };
  }

  function expectError(response: Response, body: Envelope, status: number, code: string): void {
    expect(response.status).toBe(status);
    expect(Object.keys(body).sort()).toEqual(['error', 'meta']);
    expect(body.error).toMatchObject({ code, message: expect.any(String) });
    expect(body.error).toHaveProperty('details');
  }

  const json = (body: unknown, method = 'POST'): RequestInit => ({
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

  it('answers a success with {data, meta}', async () => {
    const { response, body } = await call('/test/items', json({ title: 'Passport scan' }));
    expect(response.status).toBe(201);
    expect(body).toEqual({ data: { item: { title: 'Passport scan', tags: [] } }, meta: body.meta });
  });

  it('accepts application/json with a charset', async () => {
    const { response } = await call('/test/items', {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: '{"title":"x"}',
    });
    expect(response.status).toBe(201);
  });

  it('answers an unknown route with 404 not_found', async () => {
    const { response, body } = await call('/v1/nothing-here?q=1');
    expectError(response, body, 404, 'not_found');
    expect(body.error!.message).toBe('No route matches GET /v1/nothing-here.');
  });

  it('answers a known path with a wrong method with 405 and Allow', async () => {
    const { response, body } = await call('/test/items', { method: 'DELETE' });
    expectError(response, body, 405, 'method_not_allowed');
    expect(response.headers.get('allow')).toBe('POST');
    expect(body.error!.details).toEqual({ allowed_methods: ['POST'] });

    const health = await call('/health/live', json({}, 'PUT'));
    expectError(health.response, health.body, 405, 'method_not_allowed');
    expect(health.response.headers.get('allow')).toBe('GET, HEAD');
  });

  it('answers malformed JSON with 400 invalid_request', async () => {
    const { response, body } = await call('/test/items', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"title": "unterminated',
    });
    expectError(response, body, 400, 'invalid_request');
    expect(body.error!.message).toBe('The request body is not valid JSON.');
  });

  it('answers an empty JSON body and a prototype-poisoning body with 400 invalid_request', async () => {
    const empty = await call('/test/items', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    expectError(empty.response, empty.body, 400, 'invalid_request');
    const poisoned = await call('/test/items', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"title":"x","__proto__":{"admin":true}}',
    });
    expectError(poisoned.response, poisoned.body, 400, 'invalid_request');
  });

  it('answers a wrong or missing content type with 400 invalid_request', async () => {
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const { response, body } = await call('/test/items', {
        method: 'POST',
        headers: { 'content-type': contentType },
        body: '{"title":"x"}',
      });
      expectError(response, body, 400, 'invalid_request');
      expect(body.error!.details).toEqual({ accepted_content_types: ['application/json'] });
    }
    // fetch labels a string body text/plain; a Blob without a type sends no Content-Type at all.
    const untyped = await call('/test/items', { method: 'POST', body: new Blob(['{"title":"x"}']) });
    expectError(untyped.response, untyped.body, 400, 'invalid_request');
  });

  it('answers a body over 1 MiB with 400 invalid_request and the limit', async () => {
    const title = 'x'.repeat(BODY_LIMIT_BYTES);
    const { response, body } = await call('/test/items', json({ title }));
    expectError(response, body, 400, 'invalid_request');
    expect(body.error!.details).toEqual({ limit_bytes: 1_048_576 });
  });

  it('answers an unexpected failure with 500 internal_error and nothing of the cause', async () => {
    const response = await fetch(`${url}/test/boom`);
    const text = await response.text();
    expect(response.status).toBe(500);
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('connection refused');
    expect(text).not.toMatch(/\bat .*\.ts:\d+/);
    const body = JSON.parse(text) as Envelope;
    expect(body).toEqual({
      error: {
        code: 'internal_error',
        message: 'An internal error occurred. Please retry later.',
        details: null,
      },
      meta: { request_id: response.headers.get('x-request-id') },
    });
    expect(response.headers.get('service-api-version')).toBe('2026-06-09');
  });

  it('answers a zod validation failure with 400 and fieldErrors', async () => {
    const { response, body } = await call(
      '/test/items',
      json({ title: '', tags: ['ok', 'too long'], colour: 'red' }),
    );
    expectError(response, body, 400, 'invalid_request');
    expect(body.error!.details).toEqual({
      fieldErrors: {
        title: [expect.any(String)],
        'tags.1': [expect.any(String)],
        colour: ['Unrecognized field.'],
      },
    });
    const notAnObject = await call('/test/items', json([1, 2]));
    expect(notAnObject.body.error!.details).toEqual({ fieldErrors: { body: [expect.any(String)] } });
  });

  it('answers an undecodable URL and an overlong path parameter with 400 invalid_request', async () => {
    const { response, body } = await call('/test/items/%E0%A4%A');
    expectError(response, body, 400, 'invalid_request');
    const overlong = await call(`/test/items/${'a'.repeat(101)}`);
    expectError(overlong.response, overlong.body, 400, 'invalid_request');
    const fits = await call(`/test/items/${'a'.repeat(100)}`);
    expect(fits.response.status).toBe(200);
  });

  it('gives every request its own id and never adopts the client one', async () => {
    const first = await call('/v1/missing', { headers: { 'x-request-id': 'client-chosen-id' } });
    const second = await call('/v1/missing', { headers: { 'x-request-id': 'client-chosen-id' } });
    expect(first.body.meta.request_id).not.toBe('client-chosen-id');
    expect(first.body.meta.request_id).not.toBe(second.body.meta.request_id);
  });

  it('keeps the health routes, with both headers', async () => {
    const live = await fetch(`${url}/health/live`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${url}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: {} });
    for (const response of [live, ready]) {
      expect(response.headers.get('x-request-id')).toMatch(REQUEST_ID);
      expect(response.headers.get('service-api-version')).toBe('2026-06-09');
    }
  });

  it('answers a request that is not HTTP with the envelope before closing', async () => {
    const { port } = new URL(url);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write('GET /health/live HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
      });
      let received = '';
      socket.on('data', (chunk) => {
        received += chunk;
      });
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
    });
    const [head, payload] = raw.split('\r\n\r\n') as [string, string];
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    const requestId = /\r\nX-Request-Id: (\S+)/.exec(head)?.[1];
    expect(requestId).toMatch(REQUEST_ID);
    expect(head).toContain('\r\nService-Api-Version: 2026-06-09');
    expect(JSON.parse(payload)).toMatchObject({
      error: { code: 'invalid_request', details: null },
      meta: { request_id: requestId },
    });
  });
});

/** A log destination that keeps each JSON line, parsed. */
function capturedLog() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  return { lines, sink };
}

describe('logging of failures', () => {
  it('logs an unexpected failure in full under the request id the client got', async () => {
    const { lines, sink } = capturedLog();
    const { app, url } = await start(pino({ level: 'error' }, sink));
    try {
      const response = await fetch(`${url}/test/boom`, { headers: { 'x-request-id': 'upstream-42' } });
      await response.arrayBuffer();
      const logged = lines.find((line) => line.msg === 'request failed');
      expect(logged).toMatchObject({
        request_id: response.headers.get('x-request-id'),
        client_request_id: 'upstream-42',
        errorCode: 'internal_error',
        statusCode: 500,
        err: { message: `connection refused: ${SECRET}` },
      });
      expect(logged?.level).toBe(50);
    } finally {
      await app.close();
    }
  });

  it('logs an expected failure as one warn line without a stack', async () => {
    const { lines, sink } = capturedLog();
    const { app, url } = await start(pino({ level: 'warn' }, sink));
    try {
      const response = await fetch(`${url}/test/items`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title: '' }),
      });
      expect(response.status).toBe(400);
      const logged = lines.filter((line) => line.request_id === response.headers.get('x-request-id'));
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ level: 40, errorCode: 'invalid_request', statusCode: 400 });
      expect(logged[0]).not.toHaveProperty('err');
      expect(JSON.stringify(logged[0])).not.toContain('    at ');
    } finally {
      await app.close();
    }
  });
});
