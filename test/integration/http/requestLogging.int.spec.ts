import { describe, expect, it } from 'vitest';
import { buildServer } from '../../../src/server/server.js';
import { capturedLogger } from '../../support/capturedLogger.js';

/**
 * The process log keeps one line per request, with its method, path and status, never its query
 * string or headers.
 */
describe('request logging', () => {
  it('logs the path without the query string, and neither the Authorization header nor the body', async () => {
    const { logger, lines } = capturedLogger();
    const app = buildServer({ logger, readiness: [] });
    app.post('/test/echo', async () => ({ data: 'ok' }));
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const response = await fetch(`${url}/test/echo?subject_reference=sub_querysecret&limit=5`, {
        method: 'POST',
        headers: { authorization: 'Bearer csk_headersecret', 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'bodysecret' }),
      });
      expect(response.status).toBe(200);
    } finally {
      await app.close();
    }
    // One line for the request, once answered, with its outcome.
    const logged = lines().filter((line) => line.req !== undefined);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      msg: 'request completed',
      req: { method: 'POST', path: '/test/echo', remoteAddress: '127.0.0.1' },
      res: { statusCode: 200 },
      request_id: expect.stringMatching(/^req_/),
    });
    expect(typeof logged[0]!.responseTime).toBe('number');
    const everything = JSON.stringify(lines());
    for (const secret of ['querysecret', 'headersecret', 'bodysecret'])
      expect(everything).not.toContain(secret);
  });
});
