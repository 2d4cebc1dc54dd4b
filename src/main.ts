import { type Runtime, startRuntime } from './app/runtime.js';
import { ConfigError, loadConfig, type ProcessRole } from './config.js';
import { withDotEnv } from './shared/dotEnv.js';
import { createLogger, endLog } from './shared/logger.js';

const ROLES: ProcessRole[] = ['all', 'serve', 'work'];

/** `node dist/src/main.js [serve|work|all]`; the argument wins over ROLE; `all` by default. */
async function main(): Promise<void> {
  const roleArg = process.argv[2];
  if (roleArg !== undefined && !ROLES.includes(roleArg as ProcessRole)) {
    console.error(`Unknown role "${roleArg}": expected one of ${ROLES.join(', ')}`);
    process.exit(2);
  }
  let config: ReturnType<typeof loadConfig>;
  const { env, file: envFile } = withDotEnv(process.env);
  try {
    config = loadConfig(roleArg ? { ...env, ROLE: roleArg } : env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger(config);
  if (envFile) logger.info({ file: envFile }, 'settings read from .env (environment variables win)');

  // Signals are handled from the start: one arriving during start-up stops the process right after.
  let runtime: Runtime | undefined;
  let requested: string | undefined;
  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error({ timeoutMs: config.shutdownTimeoutMs }, 'shutdown timed out; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    force.unref();
    // The log is written asynchronously: let the last lines out, in order, before exiting.
    const exitAfterLog = (code: number) => void endLog(logger).then(() => process.exit(code));
    runtime!.stop().then(
      () => {
        logger.info('shutdown complete');
        exitAfterLog(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        exitAfterLog(1);
      },
    );
  };
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    process.on(signal, () => {
      if (requested) return;
      requested = signal;
      if (runtime) shutdown(signal);
    });
  }
  runtime = await startRuntime(config, logger);
  if (requested) shutdown(requested);
}

main().catch((error: unknown) => {
  console.error('casescreen failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
