import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';
import { openStoresChecked } from '../../graph/open-stores.js';
import type { Stores } from '../../graph/stores.js';
import { InteractionIngest } from '../../pipelines/interaction/ingest.js';
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
    app.decorate('ingest', new InteractionIngest({
      ...stores, logger: opts.logger.child({ component: 'ingest' }), clock: app.clock, minAsrConfidence: opts.config.memoryMinAsrConfidence,
    }));
    app.addHook('onClose', async () => {
      await stores.close(opts.config.shutdownGraceMs);
    });
  },
  { name: 'parley-stores' },
);
