import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { JOB_NAMES } from '../../pipelines/jobs.js';
import { errorResponses, HealthResponse, JobsReadiness, ReadinessResponse, ref } from '../protocol/http-schemas.js';
import { summariseJobs } from '../unclaimed-jobs.js';

async function check(probe: () => Promise<boolean>): Promise<boolean> {
  try {
    return await probe();
  } catch {
    return false;
  }
}

/** The background jobs, and each queue's jobs waiting out a store outage; undefined when the queue does not answer. */
async function jobsOf(app: FastifyInstance): Promise<{ jobs: Static<typeof JobsReadiness>; waitingOnOutage: Record<string, number> } | undefined> {
  try {
    const summary = await summariseJobs(app.stores.queue, JOB_NAMES, app.config.jobsUnclaimedMs);
    const waitingOnOutage: Record<string, number> = {};
    const queues: Static<typeof JobsReadiness>['queues'] = {};
    for (const [name, stats] of Object.entries(summary.byQueue)) {
      if (!stats) continue;
      waitingOnOutage[name] = stats.outageWaiting;
      queues[name] = { waiting: stats.waiting, running: stats.running, oldest_waiting_ms: stats.oldestWaitingMs };
    }
    return {
      jobs: {
        status: summary.status, waiting: summary.waiting, running: summary.running, oldest_waiting_ms: summary.oldestWaitingMs,
        unclaimed_after_ms: summary.afterMs, run_here: app.config.runJobs, queues,
      },
      waitingOnOutage,
    };
  } catch {
    return undefined;
  }
}

/** The warning for jobs no one takes, worded for where they should run. */
function unclaimedWarning(jobs: Static<typeof JobsReadiness>): { code: string; message: string } {
  const waited = `${jobs.waiting} background job(s) waiting, the oldest for ${Math.round((jobs.oldest_waiting_ms ?? 0) / 1000)} s`;
  return {
    code: 'PARLEY_WARN_JOBS_UNCLAIMED',
    message: jobs.run_here
      ? `${waited}: this server's job runner falls behind; memories form late`
      : `${waited} and no worker takes them: with PARLEY_RUN_JOBS=false, start \`npm run worker\` on this queue; memories do not form until one runs`,
  };
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
    const jobs = checks.queue ? await jobsOf(app) : undefined;
    // Unclaimed jobs warn but leave the server ready: it still stores and answers (docs/METRICS.md).
    const warnings = jobs?.jobs.status === 'unclaimed' ? [unclaimedWarning(jobs.jobs)] : [];
    return reply.status(ok ? 200 : 503).send({
      status: ok ? 'ready' : 'not ready', checks,
      ...(jobs ? { waiting_on_outage: jobs.waitingOnOutage, jobs: jobs.jobs } : {}),
      warnings,
    });
  });
}
