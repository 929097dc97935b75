import type { SessionEvent } from '../graph/event-bus.js';
import { openStoresChecked } from '../graph/open-stores.js';
import { registerJobHandlers } from '../pipelines/jobs.js';
import { leftBrainStep } from '../pipelines/retrieval/left-brain-job.js';
import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { createTextEmbedder } from './plugins/models.js';
import { openEventBus } from './plugins/event-bus.js';

/**
 * `npm run worker`: a consolidation worker process. It takes jobs from the configured queue (Redis
 * in networked mode; with the embedded queue it shares the SQLite file of a server on this machine),
 * and sends `memory.updated` to live sessions through the event bus.
 */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`parley worker: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const logger = createLogger(config.logLevel).child({ process: 'worker' });
  const stores = await openStoresChecked(config, logger);
  const events = openEventBus(config, logger);
  const embedder = createTextEmbedder(config);
  await registerJobHandlers({
    config,
    stores,
    embedder,
    logger,
    publish: (tenant, sessionId, type, payload) => {
      events.publish(tenant, sessionId, { type, payload } as SessionEvent).catch((err: Error) => {
        logger.warn({ err: err.message }, 'event not delivered');
      });
    },
    // Keep the left brain (schema–entity index) up to date, as the server does in embedded mode.
    afterConsolidation: [leftBrainStep({
      graph: stores.graph, memory: stores.memory, vectors: stores.vectors,
      entities: stores.entities, embedder, logger,
    })],
  });
  logger.info({ queue: config.queue }, 'parley worker running');

  let closing = false;
  const shutdown = (signal: string): void => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'worker shutting down: finishing running jobs');
    const force = setTimeout(() => process.exit(1), config.shutdownGraceMs + 5000);
    force.unref();
    (async () => {
      await stores.close(config.shutdownGraceMs);
      await events.close();
      await embedder.close();
    })().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'worker shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  process.stderr.write(`parley worker: failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
