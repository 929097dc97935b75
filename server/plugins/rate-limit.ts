import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ParleyError } from '../../graph/core/errors.js';
import type { Config } from '../config.js';

/**
 * Routes never counted: probes (`/healthz`, `/readyz`: a busy tenant must not fail the process's
 * probes), `/metrics` (the scraper), `/v1/twilio` (authenticated after the upgrade, so its tenant is
 * not known yet, and Twilio cannot honour a 429) and the console's static files (no tenant data).
 */
const EXEMPT_ROUTES = new Set(['/healthz', '/readyz', '/metrics', '/v1/twilio', '/console', '/console/*', '/console/auth.json']);

/** Requests one window allows for `perMin` requests per minute (at least one). */
export function requestsPerWindow(perMin: number, windowMs: number): number {
  return Math.max(1, Math.round((perMin * windowMs) / 60_000));
}

/**
 * Per-tenant HTTP request rate limiting (`PARLEY_RATE_LIMIT_PER_MIN`, 0 = off) with
 * @fastify/rate-limit: requests are counted per API key's tenant (not per IP: behind a proxy every
 * client is one address) in this process, and one over the limit is answered 429
 * `PARLEY_ERR_RATE_LIMITED` with `Retry-After` (seconds) and counted in
 * `parley_http_rate_limited_total`. Register after the auth plugin (the tenant comes from it) and
 * before the routes it covers.
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, opts: { config: Pick<Config, 'rateLimitPerMin' | 'rateLimitWindowMs' | 'apiKeys'> }) => {
    const { rateLimitPerMin: perMin, rateLimitWindowMs: windowMs } = opts.config;
    // Without API keys every client is the one default tenant and shares its budget.
    const whose = opts.config.apiKeys.length > 0 ? 'for this API key\'s tenant' : 'from all clients together (no API keys are configured: they share one tenant)';
    if (perMin === 0) return;
    const max = requestsPerWindow(perMin, windowMs);
    const metrics = app.hasDecorator('metrics') ? app.metrics : null;
    await app.register(rateLimit, {
      global: true,
      max,
      timeWindow: windowMs,
      keyGenerator: (request: FastifyRequest) => `tenant:${request.tenant}`,
      allowList: (request: FastifyRequest) => EXEMPT_ROUTES.has(request.routeOptions.url ?? ''),
      onExceeded: (request: FastifyRequest) => {
        metrics?.rateLimited.inc({ route: request.routeOptions.url ?? 'unknown' });
      },
      errorResponseBuilder: (_request, context) => new ParleyError(
        'PARLEY_ERR_RATE_LIMITED',
        `more than ${context.max} requests in ${windowMs / 1000} s ${whose}; retry after ${context.after}`,
      ),
    });
  },
  { name: 'parley-rate-limit', dependencies: ['parley-auth'] },
);
