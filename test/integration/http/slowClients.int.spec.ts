import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../../src/server/server.js';

/** Sends `parts` in order and never finishes the request; resolves with all the server said once it closes. */
function sendAndStall(url: string, parts: string[]): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = connect(Number(port), '127.0.0.1', () => {
      for (const part of parts) socket.write(part);
    });
    socket.on('data', (chunk) => {
      received += chunk.toString('utf8');
    });
    socket.on('close', () => resolve(received));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' ? resolve(received) : reject(error),
    );
  });
}

function expectTimedOut(raw: string): void {
  const [head, payload] = raw.split('\r\n\r\n') as [string, string];
  expect(head).toMatch(/^HTTP\/1\.1 400 /);
  expect(head).toContain('\r\nConnection: close');
  expect(JSON.parse(payload)).toMatchObject({
    error: { code: 'invalid_request', message: 'The request was not received in time.', details: null },
    meta: { request_id: expect.stringMatching(/^req_[0-9a-f]{32}$/) },
  });
}

/**
 * A client that sends its request slowly (a slowloris) is answered 400 and cut at the deadline,
 * instead of holding a connection for Node's default minute and a half. The deadlines are short
 * here so the test need not wait long; the server decides when they pass, the test only waits.
 * (Whether a prompt client is served is not asked of these short deadlines: on a machine whose
 * event loop stalls for a second, the server may check a deadline before it reads the request.
 * Every other HTTP test is served under the default ones.)
 */
describe('slow clients', () => {
  let app: FastifyInstance;
  let url: string;

  beforeAll(async () => {
    app = buildServer({
      logger: pino({ level: 'silent' }),
      readiness: [],
      timeouts: { headersMs: 1_000, requestMs: 2_000 },
    });
    app.post('/test/echo', async (request) => request.body);
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers a client that never finishes its headers 400 and closes the connection', async () => {
    expectTimedOut(await sendAndStall(url, ['GET /health/live HTTP/1.1\r\nHost: x\r\n', 'X-Slow: 1\r\n']));
  });

  it('answers a client that never finishes its body 400 and closes the connection', async () => {
    expectTimedOut(
      await sendAndStall(url, [
        'POST /test/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n',
        '{"a":',
      ]),
    );
  });
});
