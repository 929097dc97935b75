import { createLogger } from './logger.js';
import { exitOnStartFailure, loadConfigOrExit, logConfigWarnings, onShutdownSignal } from './process.js';
import { checkDataDir, checkListenable } from './start-checks.js';

/** Start Parley: read the config, listen, and shut down gracefully on SIGINT / SIGTERM. */
async function main(): Promise<void> {
  const { config, warnings } = loadConfigOrExit('parley');
  // Before the models load (half a minute on a busy machine): a taken port or a bad DATA_DIR is said at once.
  checkDataDir(config.dataDir);
  await checkListenable(config.host, config.port);
  // Imported only now: loading the app's modules alone takes seconds, and the checks above should not wait for it.
  const { buildApp } = await import('./app.js');
  const logger = createLogger(config.logLevel);
  logConfigWarnings(logger, warnings);
  const app = await buildApp(config, { logger, eagerModels: true });
  // Sessions get the grace to store their open turns (and as long again for a turn being stored when it
  // ran out), then the stores get it to finish their jobs.
  onShutdownSignal(
    3 * config.shutdownGraceMs + 5000,
    async (signal) => {
      logger.info({ signal }, 'shutting down: draining sessions and flushing stores');
      await app.close();
    },
    (err) => logger.error({ err }, 'shutdown failed'),
  );
  const address = await app.listen({ port: config.port, host: config.host });
  logger.info(
    { address, dataDir: config.dataDir, tenants: config.apiKeys.length > 0 ? 'api-keys' : 'single (default)', queue: config.queue },
    'parley listening',
  );
}

main().catch(exitOnStartFailure('parley'));
