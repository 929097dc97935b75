import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';

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
    schema: { summary: 'Process is up', response: { 200: Type.Object({ status: Type.Literal('ok') }) } },
  }, async () => ({ status: 'ok' as const }));

  app.get('/readyz', {
    schema: {
      summary: 'Stores and workers are ready',
      response: {
        200: Type.Object({ status: Type.String(), checks: Type.Record(Type.String(), Type.Boolean()) }),
        503: Type.Object({ status: Type.String(), checks: Type.Record(Type.String(), Type.Boolean()) }),
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
