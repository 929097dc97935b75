import type {} from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** Parley's Prometheus metrics, one registry per app instance. */
export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  liveSessions: Gauge;
  wsEvents: Counter<'type'>;
  wsErrors: Counter<'code'>;
  utterancesStored: Counter<'source'>;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'parley_' });
  return {
    registry,
    httpDuration: new Histogram({
      name: 'parley_http_request_duration_seconds',
      help: 'HTTP request duration',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    liveSessions: new Gauge({ name: 'parley_live_sessions', help: 'Live WebSocket sessions', registers: [registry] }),
    wsEvents: new Counter({ name: 'parley_ws_events_total', help: 'Server events sent', labelNames: ['type'], registers: [registry] }),
    wsErrors: new Counter({ name: 'parley_ws_errors_total', help: 'Error events sent', labelNames: ['code'], registers: [registry] }),
    utterancesStored: new Counter({
      name: 'parley_utterances_stored_total', help: 'Utterances stored', labelNames: ['source'], registers: [registry],
    }),
  };
}

/** Decorates `app.metrics` and serves `GET /metrics` in the Prometheus text format. */
export const metricsPlugin = fp(
  async (app: FastifyInstance) => {
    const metrics = createMetrics();
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
  },
  { name: 'parley-metrics' },
);
