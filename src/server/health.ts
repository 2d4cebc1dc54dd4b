import type { FastifyInstance } from 'fastify';

export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

/**
 * Liveness says the process answers; readiness says it can serve: every dependency answered within
 * the timeout. Both sit outside /v1: they are for orchestrators, not API clients.
 */
export function registerHealthRoutes(app: FastifyInstance, checks: ReadinessCheck[], timeoutMs = 2000): void {
  let draining = false;
  app.addHook('onClose', async () => {
    draining = true;
  });

  app.get('/health/live', async () => ({ status: 'ok' }));

  app.get('/health/ready', async (request, reply) => {
    if (draining) return reply.code(503).send({ status: 'draining', checks: {} });
    const results = await Promise.all(
      checks.map(async ({ name, check }) => {
        try {
          await withTimeout(check(), timeoutMs);
          return [name, 'ok'] as const;
        } catch (error) {
          // The cause goes to the log: this unauthenticated answer names no host, port or error text.
          request.log.warn({ check: name, err: error }, 'readiness check failed');
          return [name, 'failed'] as const;
        }
      }),
    );
    const ready = results.every(([, status]) => status === 'ok');
    return reply
      .code(ready ? 200 : 503)
      .send({ status: ready ? 'ready' : 'not_ready', checks: Object.fromEntries(results) });
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
