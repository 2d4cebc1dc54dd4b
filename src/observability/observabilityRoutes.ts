import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import { ApiError } from '../server/errors.js';
import type { ServiceMetrics } from './metrics.js';
import type { SystemStatus } from './systemStatus.js';

export const METRICS_PATH = '/metrics';
export const STATUS_PATH = '/health/status';

export interface ObservabilityDependencies {
  metrics: ServiceMetrics;
  /** The system status behind `/health/status` (and the metrics' system gauges). */
  readStatus?: () => Promise<SystemStatus>;
  /** METRICS_TOKEN: lets callers other than loopback read both with `Authorization: Bearer <token>`. */
  metricsToken?: string;
}

/**
 * `/metrics` (Prometheus text) and `/health/status` (the system status as JSON: 200 when all is
 * well, 503 otherwise) on the service's port, for loopback callers and, with METRICS_TOKEN set,
 * for others presenting it. Every answered request is counted by route pattern, method and status.
 */
export function registerObservability(app: FastifyInstance, deps: ObservabilityDependencies): void {
  const { metrics } = deps;
  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      route: request.routeOptions.url ?? 'unmatched',
      method: request.method,
      status: String(reply.statusCode),
    };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
    // Only the rate limit answers 429 (rateLimitHook.ts).
    if (reply.statusCode === 429) metrics.rateLimited.inc();
  });

  const admit = (request: FastifyRequest) => {
    if (isLoopback(request.socket.remoteAddress) || hasToken(request, deps.metricsToken)) return;
    throw ApiError.unauthorized(
      deps.metricsToken
        ? 'Metrics and system status need the metrics token (Authorization: Bearer <METRICS_TOKEN>).'
        : 'Metrics and system status are open to loopback callers only (set METRICS_TOKEN to open them to others).',
    );
  };

  app.get(METRICS_PATH, async (request, reply) => {
    admit(request);
    const { contentType, body } = await metrics.exposition();
    return reply.header('Content-Type', contentType).header('Cache-Control', 'no-store').send(body);
  });

  const readStatus = deps.readStatus;
  if (readStatus) {
    app.get(STATUS_PATH, async (request, reply) => {
      admit(request);
      const status = await readStatus();
      return reply
        .code(status.ok ? 200 : 503)
        .header('Cache-Control', 'no-store')
        .send(status);
    });
  }
}

/** The TCP peer, never a forwarded header: a proxy on the same host makes every caller loopback (see docs). */
function isLoopback(address: string | undefined): boolean {
  if (!address || !ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return parsed.range() === 'loopback';
}

function hasToken(request: FastifyRequest, token: string | undefined): boolean {
  if (!token) return false;
  // The scheme name is case-insensitive (RFC 9110, 11.1): "bearer" is Bearer.
  const match = /^bearer +(.+)$/i.exec(request.headers.authorization ?? '');
  if (!match) return false;
  const given = Buffer.from(match[1]!);
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
