import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {} from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { JOB_NAMES } from '../../pipelines/jobs.js';
import type { QueueStats } from '../../graph/job-queue.js';
import { ConfigError, type Config } from '../config.js';

/** Where a stored utterance came from. */
export type UtteranceSource = 'http' | 'ws' | 'voice' | 'mcp';

/** Parley's Prometheus metrics, one registry per app instance. */
export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  liveSessions: Gauge;
  wsEvents: Counter<'type'>;
  wsErrors: Counter<'code'>;
  /** Labelled by {@link UtteranceSource}. */
  utterancesStored: Counter<'source'>;
  /** Wall time from the arrival of the audio a `transcript.partial` has heard up to, to sending it. */
  partialLag: Histogram;
  /** Wall time from the arrival of the end of speech (`end_ms`) to sending `transcript.final`. */
  finalLatency: Histogram;
  /** `ready_at_ms` of confirmed `memory.context` events (negative: memory was ready before the turn ended). */
  readyAt: Histogram;
  /**
   * Duration of one memory search, labelled by `kind`: `turn` (a staged retrieval of a live turn's
   * memory context, speculative or confirmed) or `query_round` (one retrieval round of a question).
   */
  searchDuration: Histogram<'kind'>;
  /** Duration of one question answered from memory (`POST /v1/query`, WS `query`, MCP `query_memory`). */
  queryDuration: Histogram;
  /** Seconds of session audio shed under overload. */
  audioShed: Counter;
  /** HTTP requests refused with 429 `PARLEY_ERR_RATE_LIMITED`, by route. */
  rateLimited: Counter<'route'>;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
    /** The separate metrics listener's address (`PARLEY_METRICS_PORT`), once listening; else null. */
    metricsAddress(): AddressInfo | null;
  }
}

/** The queues whose depth and oldest-job age are reported. */
const QUEUES = JOB_NAMES;

/**
 * prom-client's default Node metrics, except its three `*_total` gauges: promtool rejects a gauge
 * named `_total`, and each is the sum of the per-type gauge of the same name without the suffix
 * (`nodejs_active_handles{type}` …), which stays.
 */
const DROPPED_DEFAULTS = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

let processMetrics: Registry | null = null;

/**
 * The registry of prom-client's default metrics, made once per process: they describe the process, and what
 * `collectDefaultMetrics` starts (a GC performance observer, an event-loop-delay histogram) cannot be stopped again,
 * so collecting them per app leaked one of each for every app built, failed starts included (the stdio MCP server
 * tries `buildApp` again and again while its stores cannot be opened).
 */
function defaultMetrics(): Registry {
  if (!processMetrics) {
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics });
    for (const name of DROPPED_DEFAULTS) processMetrics.removeSingleMetric(name);
  }
  return processMetrics;
}

function createMetrics(app: FastifyInstance): Metrics {
  // The app's own registry: the process's default metrics (shared, not copied) and Parley's, made per app.
  const registry = Registry.merge([defaultMetrics()]);
  const registers = [registry];
  const latency = [0.05, 0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10];
  // The three queue gauges share one stats read per queue per scrape (the registry collects them all at
  // once; each collect() would otherwise read again: three SQLite queries or Redis round trips per queue).
  // The read is shared only while in flight, so a scrape never sees an earlier scrape's figures.
  let inFlight: Promise<Map<string, QueueStats | null>> | null = null;
  const queueStats = (): Promise<Map<string, QueueStats | null>> => {
    if (!inFlight) {
      const { queue } = app.stores;
      inFlight = Promise.all(QUEUES.map((q) => queue.stats(q).catch(() => null)))
        .then((list) => new Map(QUEUES.map((q, i) => [q, list[i] ?? null])))
        .finally(() => { inFlight = null; });
    }
    return inFlight;
  };
  new Gauge({
    name: 'parley_queue_jobs',
    help: 'Background jobs by queue and state (waiting: not started yet, including retries and outbox hand-over; running)',
    labelNames: ['queue', 'state'],
    registers,
    async collect() {
      if (!app.hasDecorator('stores')) return;
      for (const [queue, stats] of await queueStats()) {
        if (!stats) continue;
        this.set({ queue, state: 'waiting' }, stats.waiting);
        this.set({ queue, state: 'running' }, stats.running);
      }
    },
  });
  new Gauge({
    name: 'parley_queue_oldest_job_age_seconds',
    help: 'How long the oldest due job of each queue has waited to start (0 when none waits)',
    labelNames: ['queue'],
    registers,
    async collect() {
      if (!app.hasDecorator('stores')) return;
      for (const [queue, stats] of await queueStats()) {
        if (stats) this.set({ queue }, (stats.oldestWaitingMs ?? 0) / 1000);
      }
    },
  });
  new Gauge({
    name: 'parley_queue_outage_waiting_jobs',
    help: 'Jobs of each queue whose last try met a store outage (PARLEY_ERR_STORE_UNAVAILABLE) and that wait to be tried again',
    labelNames: ['queue'],
    registers,
    async collect() {
      if (!app.hasDecorator('stores')) return;
      for (const [queue, stats] of await queueStats()) {
        if (stats) this.set({ queue }, stats.outageWaiting);
      }
    },
  });
  new Gauge({
    name: 'parley_queue_unclaimed',
    help: 'Per queue, 1 while its oldest due job has waited PARLEY_JOBS_UNCLAIMED_MS or longer to start (no worker takes jobs, or they fall far behind), else 0',
    labelNames: ['queue'],
    registers,
    async collect() {
      if (!app.hasDecorator('stores') || !app.hasDecorator('config')) return;
      for (const [queue, stats] of await queueStats()) {
        if (stats) this.set({ queue }, (stats.oldestWaitingMs ?? 0) >= app.config.jobsUnclaimedMs ? 1 : 0);
      }
    },
  });
  new Gauge({
    name: 'parley_sessions',
    help: 'Sessions held by this process: live (a client is connected) or waiting_resume (disconnected, kept for a resume)',
    labelNames: ['state'],
    registers,
    collect() {
      if (!app.hasDecorator('sessions')) return;
      const counts = app.sessions.countsByState();
      this.set({ state: 'live' }, counts.live);
      this.set({ state: 'waiting_resume' }, counts.waitingResume);
    },
  });
  return {
    registry,
    httpDuration: new Histogram({
      name: 'parley_http_request_duration_seconds',
      help: 'HTTP request duration',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    }),
    liveSessions: new Gauge({ name: 'parley_live_sessions', help: 'Sessions held by this process, live or waiting for a resume', registers }),
    wsEvents: new Counter({ name: 'parley_ws_events_total', help: 'Server events sent', labelNames: ['type'], registers }),
    wsErrors: new Counter({ name: 'parley_ws_errors_total', help: 'Error events sent', labelNames: ['code'], registers }),
    utterancesStored: new Counter({
      name: 'parley_utterances_stored_total', help: 'Utterances stored, by source (http, ws, voice, mcp)', labelNames: ['source'], registers,
    }),
    partialLag: new Histogram({
      name: 'parley_transcript_partial_lag_seconds',
      help: 'Wall time from the arrival of the audio a transcript.partial has heard up to, to sending it',
      buckets: [0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 3, 5],
      registers,
    }),
    finalLatency: new Histogram({
      name: 'parley_transcript_final_latency_seconds',
      help: 'Wall time from the arrival of the end of speech to sending transcript.final (includes the end-of-turn silence)',
      buckets: latency,
      registers,
    }),
    readyAt: new Histogram({
      name: 'parley_memory_ready_at_seconds',
      help: 'ready_at_ms of confirmed memory.context events, in seconds: negative when memory was ready before the end of turn was decided',
      buckets: [-2, -1, -0.5, -0.25, -0.1, 0, 0.05, 0.1, 0.25, 0.5, 1, 2],
      registers,
    }),
    searchDuration: new Histogram({
      name: 'parley_memory_search_duration_seconds',
      help: 'Duration of one memory search: kind="turn", a staged retrieval for a live turn (memory.context, speculative or confirmed); '
        + 'kind="query_round", one retrieval round of a question (POST /v1/query, WebSocket query, MCP query_memory)',
      labelNames: ['kind'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    }),
    queryDuration: new Histogram({
      name: 'parley_query_duration_seconds',
      help: 'Duration of one question answered from memory (POST /v1/query, WebSocket query, MCP query_memory)',
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    }),
    audioShed: new Counter({
      name: 'parley_audio_shed_seconds_total', help: 'Seconds of session audio shed under overload', registers,
    }),
    rateLimited: new Counter({
      name: 'parley_http_rate_limited_total',
      help: 'HTTP requests refused with 429 PARLEY_ERR_RATE_LIMITED (a tenant over PARLEY_RATE_LIMIT_PER_MIN), by route',
      labelNames: ['route'],
      registers,
    }),
  };
}

/**
 * Decorates `app.metrics` and serves `GET /metrics` in the Prometheus text format, behind the API key
 * like every route but `/healthz`. With `PARLEY_METRICS_PORT` it is also served, without a key, on a
 * separate listener (`PARLEY_METRICS_HOST`, loopback by default) started when the app is ready; one
 * that cannot listen there fails start-up with a `ConfigError` naming both variables.
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance, opts: { config?: Pick<Config, 'metricsPort' | 'metricsHost'> }) => {
    const metrics = createMetrics(app);
    app.decorate('metrics', metrics);
    app.addHook('onResponse', async (request, reply) => {
      metrics.httpDuration.observe(
        { method: request.method, route: request.routeOptions.url ?? 'unknown', status: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      );
    });
    app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
      void reply.header('content-type', metrics.registry.contentType);
      return metrics.registry.metrics();
    });

    let separate: Server | null = null;
    app.decorate('metricsAddress', () => (separate?.address() as AddressInfo | null | undefined) ?? null);
    const config = opts.config;
    const port = config?.metricsPort ?? null;
    if (port === null) return;
    // On ready, not on listen: a listener that cannot bind must fail start-up (Fastify only logs onListen errors).
    app.addHook('onReady', async () => {
      separate = createServer((req, res) => {
        if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
          res.writeHead(404, { 'content-type': 'application/json' }).end(
            JSON.stringify({ error: { code: 'PARLEY_ERR_NOT_FOUND', message: 'this listener serves only GET /metrics' } }),
          );
          return;
        }
        metrics.registry.metrics().then(
          (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
          (err: Error) => {
            app.log.error({ err }, 'metrics collection failed');
            res.writeHead(500).end();
          },
        );
      });
      const server = separate;
      const host = config?.metricsHost ?? '127.0.0.1';
      try {
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(port, host, () => resolve());
        });
      } catch (err) {
        separate = null;
        throw new ConfigError([
          `PARLEY_METRICS_HOST=${JSON.stringify(host)}, PARLEY_METRICS_PORT=${port}: the metrics listener cannot listen there (${err instanceof Error ? err.message : String(err)})`,
        ]);
      }
      app.log.info({ address: server.address() }, 'metrics listening');
    });
    app.addHook('onClose', async () => {
      const server = separate;
      if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    });
  },
  { name: 'parley-metrics' },
);
