import { connect } from 'node:net';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { buildServer } from '../../../src/server/server.js';

/**
 * A request that reaches a server while it drains (here: pipelined behind one still running) gets
 * the 503 `service_unavailable` envelope with a request id and Retry-After, like any refusal.
 */
describe('graceful shutdown', () => {
  it('answers requests arriving while the server drains with the 503 envelope', async () => {
    const app = buildServer({ logger: pino({ level: 'silent' }), readiness: [] });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    app.get('/test/slow', async () => {
      started();
      await gate;
      return { data: 'slow' };
    });
    app.get('/test/fast', async () => ({ data: 'fast' }));
    let fastAnswered!: () => void;
    const answered = new Promise<void>((resolve) => {
      fastAnswered = resolve;
    });
    app.addHook('onSend', async (request, _reply, payload) => {
      if (request.url === '/test/fast') fastAnswered();
      return payload;
    });

    // Registered after the server's own: once it has run, the server knows it is closing.
    let closingNoticed!: () => void;
    const closing = new Promise<void>((resolve) => {
      closingNoticed = resolve;
    });
    app.addHook('preClose', (done) => {
      closingNoticed();
      done();
    });
    const url = new URL(await app.listen({ port: 0, host: '127.0.0.1' }));

    let socket!: ReturnType<typeof connect>;
    const received = new Promise<string>((resolve, reject) => {
      socket = connect(Number(url.port), '127.0.0.1', () => {
        socket.write('GET /test/slow HTTP/1.1\r\nHost: x\r\n\r\n');
      });
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk;
      });
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    await running;
    const closed = app.close();
    await closing;
    // The connection is busy, so it stays open: a request on it now arrives while the server drains.
    // Its answer waits behind the slow one's (HTTP/1.1 answers in order): release that once this one
    // has been answered.
    socket.write('GET /test/fast HTTP/1.1\r\nHost: x\r\n\r\n');
    await answered;
    release();
    const text = await received;
    await closed;

    const responses = text.split(/(?=HTTP\/1\.1 )/);
    const refusal = responses.find((response) => response.startsWith('HTTP/1.1 503 '));
    expect(refusal).toMatch(/\r\nRetry-After: 1\r\n/i);
    const body = JSON.parse(refusal!.split('\r\n\r\n')[1]!) as {
      error: { code: string };
      meta: { request_id: string };
    };
    expect(body.error.code).toBe('service_unavailable');
    expect(body.meta.request_id).toMatch(/^req_[0-9a-f]{32}$/);
    // Without the server's own answer the refusal never comes: a time-out, not a hang of the suite.
  }, 20_000);
});
