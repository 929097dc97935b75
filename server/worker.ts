import type { SessionEvent } from '../graph/event-bus.js';
import { openStoresChecked } from '../graph/open-stores.js';
import { registerJobHandlers } from '../pipelines/jobs.js';
import { OnnxTextEmbedder } from '../pipelines/embeddings/onnx-text-embedder.js';
import { leftBrainStep } from '../pipelines/retrieval/left-brain-job.js';
import { SchemaVectors } from '../pipelines/retrieval/schema-vectors.js';
import { createLogger } from './logger.js';
import { createAffectEmbedder, createTextEmbedder } from './plugins/models.js';
import { openEventBus } from './plugins/event-bus.js';
import { exitOnStartFailure, loadConfigOrExit, logConfigWarnings, onShutdownSignal } from './process.js';

/**
 * `npm run worker`: a consolidation worker process. It takes jobs from the configured queue (Redis
 * in networked mode; with the embedded queue it shares the SQLite file of a server on this machine),
 * and sends `memory.updated` to live sessions through the event bus.
 */
async function main(): Promise<void> {
  const { config, warnings } = loadConfigOrExit('parley worker');
  const logger = createLogger(config.logLevel).child({ process: 'worker' });
  logConfigWarnings(logger, warnings);
  const stores = await openStoresChecked(config, logger);
  const events = openEventBus(config, logger, 'worker');
  if (config.textEmbedderFallback) logger.warn({ warning: config.textEmbedderFallback }, 'text embedder: bge-small-en-v1.5-q not installed, using USE-lite');
  const embedder = createTextEmbedder(config);
  const affectEmbedder = createAffectEmbedder(config, embedder);
  // The embedded (SQLite) queue polls on an unref'd timer so that it never holds a server or a test
  // open by itself; this process exists only to take jobs, so it holds itself open until a signal.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  // A missing ONNX text model stops the worker here, with a message naming the fetch command.
  if (embedder instanceof OnnxTextEmbedder) await embedder.start();
  // Schema vectors of the left-brain step: an erasure on the server (told over the bus) drops the tenant's, which may
  // have been embedded from an erased person's name or words.
  const schemaVectors = new SchemaVectors(stores.entities, embedder);
  events.subscribe((event) => {
    if (event.type !== 'participant.erased') return;
    const dropped = schemaVectors.held(event.tenant);
    schemaVectors.forget(event.tenant);
    logger.info({ tenant: event.tenant, dropped, held: schemaVectors.held(event.tenant) }, 'participant erased: schema vectors dropped');
  });
  await registerJobHandlers({
    config,
    stores,
    embedder,
    affectEmbedder,
    logger,
    publish: (tenant, sessionId, type, payload) => {
      events.publish(tenant, sessionId, { type, payload } as SessionEvent).catch((err: Error) => {
        logger.warn({ err: err.message }, 'event not delivered');
      });
    },
    // Keep the left brain (schema–entity index) up to date, as the server does in embedded mode.
    afterConsolidation: [leftBrainStep({
      graph: stores.graph, memory: stores.memory, vectors: stores.vectors,
      entities: stores.entities, embedder, logger, schemaVectors,
    })],
    // Turn texts kept for the jobs running now are forgotten on the same notice.
    events,
  });
  onShutdownSignal(
    config.shutdownGraceMs + 5000,
    async (signal) => {
      logger.info({ signal }, 'worker shutting down: finishing running jobs');
      clearInterval(keepAlive);
      await stores.close(config.shutdownGraceMs);
      await events.close();
      await embedder.close();
    },
    (err) => logger.error({ err }, 'worker shutdown failed'),
  );
  // Connected once set up (the models loaded above keep the event loop busy), as the server's is once ready.
  events.start?.();
  logger.info({ queue: config.queue }, 'parley worker running');
}

main().catch(exitOnStartFailure('parley worker'));
