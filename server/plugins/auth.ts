import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ApiKey } from '../config.js';
import { ParleyError } from '../../graph/core/errors.js';
import { isLoopbackHostname } from '../loopback.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The tenant every read and write of this request is scoped to. */
    tenant: string;
  }
  interface FastifyInstance {
    /**
     * The tenant an API key belongs to: `default` when no keys are configured; null for a missing
     * or unknown key. For routes that receive their key after the upgrade (`/v1/twilio`).
     */
    tenantForKey(key: string | undefined): string | null;
  }
}

/** Routes that may carry the key as `?token=` (clients that cannot set headers: browsers' WebSocket and EventSource, Twilio). */
const TOKEN_ROUTES = new Set(['/v1/stream', '/v1/twilio', '/v1/sessions/:session_id/events']);

/**
 * Routes that authenticate themselves: Twilio cannot set headers, and its key may come in the
 * `start` message's `customParameters`, after the upgrade.
 */
const SELF_AUTHENTICATED_ROUTES = new Set(['/v1/twilio']);

/** The single tenant used when no API keys are configured. */
export const DEFAULT_TENANT = 'default';

function sameKey(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The key a request presents: `Authorization: Bearer <key>`, or `?token=` on the routes that take it. */
export function presentedKey(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header) {
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    return match?.[1];
  }
  if (TOKEN_ROUTES.has(request.routeOptions.url ?? '')) {
    const token = (request.query as Record<string, unknown> | undefined)?.token;
    return typeof token === 'string' ? token : undefined;
  }
  return undefined;
}

/**
 * Why a request's key is missing, in words: an `Authorization` header of another scheme (`Basic …`) or a
 * `Bearer` without a key says so, since a client that sent one believes it sent its key.
 */
export function missingKeyMessage(request: FastifyRequest): string {
  const header = request.headers.authorization;
  const scheme = header?.trim().split(/\s+/)[0];
  if (scheme && scheme.toLowerCase() !== 'bearer') {
    return `the Authorization header uses the ${JSON.stringify(scheme.slice(0, 20))} scheme: send the API key as Authorization: Bearer <key>`;
  }
  if (scheme) return 'the Authorization header says Bearer but holds no key: send Authorization: Bearer <key>';
  if (!TOKEN_ROUTES.has(request.routeOptions.url ?? '') && (request.query as Record<string, unknown> | undefined)?.token !== undefined) {
    return 'missing API key: ?token= is accepted only on the WebSocket and event-stream routes; this route needs Authorization: Bearer <key>';
  }
  return 'missing API key: send Authorization: Bearer <key> (WebSocket and event streams: or ?token=<key>)';
}

/** Whether a Host header names this machine's loopback interface (with or without a port). */
export function loopbackHost(host: string | undefined, allowed: readonly string[] = []): boolean {
  if (!host) return false;
  let hostname: string;
  try {
    hostname = new URL(`http://${host}`).hostname;
  } catch {
    return false;
  }
  if (allowed.includes(hostname)) return true;
  return isLoopbackHostname(hostname);
}

/**
 * Tenancy: without keys every request is tenant `default`; with keys every request but `GET /healthz`
 * must present one, and is scoped to that key's tenant.
 */
export const authPlugin = fp(
  async (app: FastifyInstance, opts: { apiKeys: ApiKey[]; allowedHosts?: string[] }) => {
    app.decorateRequest('tenant', DEFAULT_TENANT);
    app.decorate('tenantForKey', (key: string | undefined): string | null => {
      if (opts.apiKeys.length === 0) return DEFAULT_TENANT;
      return (key ? opts.apiKeys.find((k) => sameKey(k.key, key)) : undefined)?.tenant ?? null;
    });
    if (opts.apiKeys.length === 0) {
      // Without keys Parley listens on loopback only (config.ts), and every request acts in the one
      // tenant. A web page on another site can still reach it by DNS rebinding (its own hostname
      // resolving to 127.0.0.1): the browser then sends that hostname as Host. Answer only requests
      // addressed to a loopback name or address, or to a name the operator listed.
      app.addHook('onRequest', async (request) => {
        if (!loopbackHost(request.headers.host, opts.allowedHosts)) {
          throw new ParleyError(
            'PARLEY_ERR_FORBIDDEN',
            `Host ${JSON.stringify(request.headers.host ?? '')} is not loopback: without PARLEY_API_KEYS Parley answers only requests addressed to localhost, 127.0.0.1, [::1] or a name in PARLEY_ALLOWED_HOSTS`,
          );
        }
      });
      return;
    }
    app.addHook('onRequest', async (request) => {
      // Liveness probes cannot send a key; `/healthz` says only that the process is up.
      if ((request.method === 'GET' || request.method === 'HEAD') && request.routeOptions.url === '/healthz') return;
      if (SELF_AUTHENTICATED_ROUTES.has(request.routeOptions.url ?? '')) return;
      // The console's static files (routes/console.ts) hold no tenant data: the page asks for the key itself.
      if (/^\/console(?:[/?]|$)/.test(request.url) && !request.url.includes('..')) return;
      const key = presentedKey(request);
      const match = key ? opts.apiKeys.find((k) => sameKey(k.key, key)) : undefined;
      if (!match) {
        throw new ParleyError('PARLEY_ERR_UNAUTHORIZED', key ? 'unknown API key' : missingKeyMessage(request));
      }
      request.tenant = match.tenant;
    });
  },
  { name: 'parley-auth' },
);
