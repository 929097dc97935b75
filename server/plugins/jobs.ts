import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';
import type { SessionEvent } from '../../graph/event-bus.js';
import { watchUnclaimedJobs } from '../unclaimed-jobs.js';
import { JOB_NAMES, registerJobHandlers, type AfterConsolidation, type Publish } from '../../pipelines/jobs.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** How background work reaches a session's client: the live socket here, or the event bus. */
    publish: Publish;
    /** Steps to run after each consolidation; plugins push theirs before the app is ready. */
    afterConsolidation: AfterConsolidation[];
  }
}

/**
 * Runs the background job handlers in this process (unless `PARLEY_RUN_JOBS=false`) once every
 * plugin has had its say, and sends their events to live sessions.
 */
export const jobsPlugin = fp(
  async (app: FastifyInstance, opts: { logger: Logger }) => {
    // Set as the app closes, before the event bus does (hooks run last-registered first): the sockets
    // are closed by then (sessions drained in preClose), so an event a job still publishes while the
    // stores drain their queue has no one to reach; not worth a warning.
    let closing = false;
    app.addHook('onClose', async () => {
      closing = true;
    });
    // Through the event bus, so a session held by another server process gets it too.
    const publish: Publish = (tenant, sessionId, type, payload) => {
      app.events.publish(tenant, sessionId, { type, payload } as SessionEvent).catch((err: Error) => {
        if (closing) opts.logger.debug({ err: err.message, sessionId, type }, 'event not delivered: shutting down');
        else opts.logger.warn({ err: err.message }, 'event not delivered');
      });
    };
    app.decorate('publish', publish);
    app.decorate('afterConsolidation', [] as AfterConsolidation[]);
    if (!app.config.runJobs) {
      // Memories form only if a worker takes the jobs: say so when none does.
      let stop = (): void => undefined;
      app.addHook('onReady', async () => {
        stop = watchUnclaimedJobs({ queue: app.stores.queue, names: JOB_NAMES, logger: opts.logger, afterMs: app.config.jobsUnclaimedMs });
      });
      app.addHook('onClose', async () => stop());
      return;
    }
    app.addHook('onReady', async () => {
      await registerJobHandlers({
        config: app.config,
        stores: app.stores,
        embedder: app.models.textEmbedder,
        affectEmbedder: app.models.affectEmbedder,
        logger: opts.logger,
        publish: (tenant, sessionId, type, payload) => app.publish(tenant, sessionId, type, payload),
        afterConsolidation: app.afterConsolidation,
        events: app.events,
      });
    });
  },
  { name: 'parley-jobs', dependencies: ['parley-stores', 'parley-models', 'parley-stream', 'parley-event-bus'] },
);
