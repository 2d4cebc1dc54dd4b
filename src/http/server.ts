import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from '../log.js';
import { type ReadinessCheck, registerHealthRoutes } from './health.js';

export interface ServerDependencies {
  logger: Logger;
  readiness: ReadinessCheck[];
}

export function buildServer(deps: ServerDependencies): FastifyInstance {
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    // Lets in-flight requests finish on close while refusing new connections.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
  });
  registerHealthRoutes(app, deps.readiness);
  return app;
}
