import Fastify from 'fastify';

/**
 * The baseline of the case benchmark: a bare fastify route answering a small JSON envelope, in a
 * process of its own like the service, so the ratio shows what the service's pipeline (key
 * verification, rate limit, idempotency, event store, read model) costs over plain HTTP on this
 * machine. Prints its URL on stdout.
 */
const app = Fastify({ logger: false });
app.get('/ping', async () => ({ data: { ok: true }, meta: { request_id: 'bench' } }));
app.post('/ping', async (request) => ({ data: request.body, meta: { request_id: 'bench' } }));
const url = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${url}\n`);
process.on('SIGTERM', () => {
  app.close().then(() => process.exit(0));
});
