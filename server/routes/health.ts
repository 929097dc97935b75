import type { FastifyInstance } from 'fastify';
import type { JobQueue } from '../../graph/job-queue.js';
import { JOB_NAMES } from '../../pipelines/jobs.js';
import { errorResponses, HealthResponse, ReadinessResponse, ref } from '../protocol/http-schemas.js';

async function check(probe: () => Promise<boolean>): Promise<boolean> {
  try {
    return await probe();
  } catch {
    return false;
  }
}

/** Per job queue, the jobs waiting out a store outage; undefined when the queue does not say. */
async function waitingOnOutage(queue: JobQueue): Promise<Record<string, number> | undefined> {
  try {
    const out: Record<string, number> = {};
    for (const name of JOB_NAMES) out[name] = (await queue.stats(name)).outageWaiting;
    return out;
  } catch {
    return undefined;
  }
}

/** `/healthz`: the process is up. `/readyz`: every store and the queue answer. */
export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get('/healthz', {
    schema: {
      operationId: 'getHealth', tags: ['health'], summary: 'Process is up', security: [],
      response: { 200: ref(HealthResponse) },
    },
  }, async () => ({ status: 'ok' as const }));

  app.get('/readyz', {
    schema: {
      operationId: 'getReadiness', tags: ['health'], summary: 'Stores and workers are ready',
      response: {
        200: ref(ReadinessResponse),
        401: errorResponses()[401]!,
        503: ref(ReadinessResponse, { description: 'a store, the queue or the event bus does not answer, or no inference worker is live' }),
      },
    },
  }, async (_request, reply) => {
    const { stores } = app;
    const checks = {
      graph: await check(() => stores.graph.ready()),
      vectors: await check(() => stores.vectors.ready()),
      lexical: await check(() => stores.lexical.ready()),
      queue: await check(() => stores.queue.ready()),
      memory: await check(() => stores.memory.ready()),
      events: await check(() => app.events.ready()),
      // The VAD + ASR workers, once started (the server starts them at boot; tests on first use).
      ...(app.models.inferenceReady() === null ? {} : { workers: app.models.inferenceReady() === true }),
    };
    const ok = Object.values(checks).every(Boolean);
    const waiting = checks.queue ? await waitingOnOutage(stores.queue) : undefined;
    return reply.status(ok ? 200 : 503).send({ status: ok ? 'ready' : 'not ready', checks, ...(waiting ? { waiting_on_outage: waiting } : {}) });
  });
}
