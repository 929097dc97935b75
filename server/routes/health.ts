import type { FastifyInstance } from 'fastify';
import { errorResponses, HealthResponse, ReadinessResponse, ref } from '../protocol/http-schemas.js';

async function check(probe: () => Promise<boolean>): Promise<boolean> {
  try {
    return await probe();
  } catch {
    return false;
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
        503: ref(ReadinessResponse, { description: 'a store, the queue or the event bus does not answer' }),
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
    };
    const ok = Object.values(checks).every(Boolean);
    return reply.status(ok ? 200 : 503).send({ status: ok ? 'ready' : 'not ready', checks });
  });
}
