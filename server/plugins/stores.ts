import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';
import { openStoresChecked } from '../../graph/open-stores.js';
import type { Stores } from '../../graph/stores.js';
import { InteractionIngest } from '../../pipelines/interaction/ingest.js';
import { TurnVectors } from '../../pipelines/interaction/turn-vectors.js';
import type { Config } from '../config.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    stores: Stores;
    ingest: InteractionIngest;
  }
}

/** Opens the configured stores (failing fast, naming the variable, when a backend is unreachable), decorates `app.stores` and `app.ingest`, and closes them last. */
export const storesPlugin = fp(
  async (app: FastifyInstance, opts: { config: Config; logger: Logger; stores?: Stores }) => {
    const stores = opts.stores ?? (await openStoresChecked(opts.config, opts.logger));
    app.decorate('config', opts.config);
    app.decorate('stores', stores);
    const logger = opts.logger.child({ component: 'ingest' });
    app.decorate('ingest', new InteractionIngest({ ...stores, logger, clock: app.clock, ...turnVectorsOf(app, stores, opts.config, logger) }));
    app.addHook('onClose', async () => {
      await stores.close(opts.config.shutdownGraceMs);
    });
  },
  { name: 'parley-stores' },
);

/**
 * Store-time turn vectors (`InteractionIngestDeps.turnVectors`) with the app's text embedder, where it runs here: a
 * remote embedder (`PARLEY_TEXT_EMBEDDER=openai`) would put a network round trip before every stored turn, so its
 * turns get their vectors from the consolidation job alone.
 */
function turnVectorsOf(app: FastifyInstance, stores: Stores, config: Config, logger: Logger): { turnVectors?: TurnVectors } {
  if (!app.hasDecorator('models') || config.textEmbedder === 'openai') return {};
  return {
    turnVectors: new TurnVectors({
      vectors: stores.vectors, lexical: stores.lexical, embedder: app.models.textEmbedder, logger,
      minAsrConfidence: config.memoryMinAsrConfidence,
    }),
  };
}
