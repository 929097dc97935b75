import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './logger.js';

/** Start Parley: read the config, listen, and shut down gracefully on SIGINT / SIGTERM. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`parley: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const logger = createLogger(config.logLevel);
  const app = await buildApp(config, { logger, eagerModels: true });
  let closing = false;
  const shutdown = (signal: string): void => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down: draining sessions and flushing stores');
    const force = setTimeout(() => {
      logger.error({ graceMs: config.shutdownGraceMs }, 'shutdown grace period over; exiting');
      process.exit(1);
    }, config.shutdownGraceMs + 5000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  const address = await app.listen({ port: config.port, host: config.host });
  logger.info(
    { address, dataDir: config.dataDir, tenants: config.apiKeys.length > 0 ? 'api-keys' : 'single (default)', queue: config.queue },
    'parley listening',
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`parley: failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
