/** Where Parley listens, who may call it, and its session, MCP, metrics and rate limits. */
import os from 'node:os';
import path from 'node:path';
import type { Env, EnvReader } from './env-reader.js';

/** A tenant bound to an API key. */
export interface ApiKey {
  key: string;
  tenant: string;
}

/** Where Parley listens, who may call it, and what it logs. */
export interface ServerSettings {
  /** TCP port (`PORT`). */
  port: number;
  /** Bind address (`HOST`); loopback unless API keys are configured. */
  host: string;
  /** Where the embedded stores and audio spans live (`DATA_DIR`). */
  dataDir: string;
  /** `PARLEY_API_KEYS`; empty means single tenant `default`, loopback only. */
  apiKeys: ApiKey[];
  /**
   * `PARLEY_ALLOWED_HOSTS`: without API keys, the Host names (besides loopback ones) that requests may
   * be addressed to, e.g. a local tunnel's name; any other Host is refused (DNS rebinding protection).
   */
  allowedHosts: string[];
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
}

/** Session limits, shutdown, the MCP server, the metrics listener and rate limiting. */
export interface SessionSettings {
  /** How long a disconnected session stays live for a resume, ms (`PARLEY_SESSION_RESUME_MS`). */
  sessionResumeMs: number;
  /**
   * How long a streamed session may go with no client connected before it is ended as
   * `POST /v1/sessions/{id}/end` would, ms (`PARLEY_SESSION_IDLE_END_MS`); 0: never.
   */
  sessionIdleEndMs: number;
  /** Most live WebSocket sessions at once (`PARLEY_MAX_SESSIONS`). */
  maxSessions: number;
  /**
   * Most connected sessions of one tenant (`PARLEY_MAX_SESSIONS_PER_TENANT`); default: all of
   * `maxSessions` with one tenant, half of it with several, so one tenant cannot starve the others.
   */
  maxSessionsPerTenant: number;
  /**
   * Most disconnected sessions kept for a resume (`PARLEY_MAX_RESUMABLE_SESSIONS`, default
   * 2 × `maxSessions`; per tenant at most `maxSessionsPerTenant`): past it the oldest is finished early.
   * They hold no live slot.
   */
  maxResumableSessions: number;
  /**
   * How long `session.end` waits for the session's utterances to be consolidated, so their
   * `memory.updated` precedes `session.ended`, ms (`PARLEY_SESSION_END_WAIT_MS`). Not waited when no
   * process takes the jobs (`ConsolidationWorkers`).
   */
  sessionEndWaitMs: number;
  /** Most text frames waiting per session before new ones are shed (`PARLEY_SESSION_QUEUE`). */
  sessionQueueLimit: number;
  /** How long shutdown waits for sessions and jobs to finish, ms (`PARLEY_SHUTDOWN_GRACE_MS`). */
  shutdownGraceMs: number;
  /** `PARLEY_MCP_ALLOW_ERASE`: whether the MCP server offers `erase_participant` (default false). */
  mcpAllowErase: boolean;
  /** `PARLEY_MCP_TENANT`: the tenant `npm run mcp` (stdio) reads and writes; default `default`. */
  mcpTenant: string;
  /**
   * `PARLEY_MCP_ALLOWED_ORIGINS`: browser origins (`https://agent.example.com`) whose pages may call
   * `POST /mcp`, besides loopback ones; `*` allows any. A request without an `Origin` header (a
   * non-browser client) is always let through.
   */
  mcpAllowedOrigins: string[];
  /**
   * `PARLEY_METRICS_PORT`, `PARLEY_METRICS_HOST`: a separate listener serving only `GET /metrics`
   * without an API key (for a scraper on a private network); null serves metrics on the main port only.
   */
  metricsPort: number | null;
  metricsHost: string;
  /**
   * `PARLEY_RATE_LIMIT_PER_MIN`: most HTTP requests per minute per tenant (API key's tenant) and server
   * process before 429 `PARLEY_ERR_RATE_LIMITED`; 0 turns rate limiting off. Default 6000.
   */
  rateLimitPerMin: number;
  /**
   * `PARLEY_RATE_LIMIT_WINDOW_MS`: the counting window, ms (1000–60 000, default 60 000); each window
   * allows `rateLimitPerMin × window / 60 000` requests (at least 1), and `Retry-After` is at most one window.
   */
  rateLimitWindowMs: number;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** The API keys, host and allowed hosts: read first, as the session limits' defaults depend on the keys. */
export type Access = Pick<ServerSettings, 'apiKeys' | 'host' | 'allowedHosts'>;

/** `PARLEY_API_KEYS`, `HOST` (loopback unless keys are set) and `PARLEY_ALLOWED_HOSTS`. */
export function readAccess(r: EnvReader, env: Env): Access {
  const apiKeys = parseApiKeys(env.PARLEY_API_KEYS, r.problems);
  const host = r.string('HOST', '127.0.0.1');
  if (apiKeys.length === 0 && !LOOPBACK.has(host)) {
    r.problems.push(`HOST=${host} is not loopback: without PARLEY_API_KEYS Parley only listens on 127.0.0.1 or ::1`);
  }
  const allowedHosts = (env.PARLEY_ALLOWED_HOSTS ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean);
  for (const h of allowedHosts) {
    if (!/^[a-z0-9.-]+$/.test(h)) r.problems.push(`PARLEY_ALLOWED_HOSTS entries must be host names without scheme or port: ${JSON.stringify(h)}`);
  }
  return { apiKeys, host, allowedHosts };
}

/** `PARLEY_MAX_SESSIONS`, and the default per-tenant cap that follows from it and the number of tenants. */
export interface SessionLimits {
  maxSessions: number;
  perTenantDefault: number;
}

/** Reads {@link SessionLimits}. */
export function readSessionLimits(r: EnvReader, apiKeys: ApiKey[]): SessionLimits {
  const maxSessions = r.int('PARLEY_MAX_SESSIONS', Math.max(8, os.availableParallelism() * 16), 1, 100_000);
  const tenants = new Set(apiKeys.map((k) => k.tenant)).size;
  const perTenantDefault = tenants > 1 ? Math.ceil(maxSessions / 2) : maxSessions;
  return { maxSessions, perTenantDefault };
}

/** The server's own settings, from what {@link readAccess} read. */
export function readServerSettings(r: EnvReader, access: Access): ServerSettings {
  const { apiKeys, host, allowedHosts } = access;
  return {
    port: r.int('PORT', 8080, 0, 65535),
    host,
    dataDir: path.resolve(r.string('DATA_DIR', './data')),
    apiKeys,
    allowedHosts,
    logLevel: r.oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
  };
}

/** Session, shutdown, MCP, metrics and rate-limit settings. */
export function readSessionSettings(
  r: EnvReader,
  env: Env,
  limits: SessionLimits,
): SessionSettings {
  const { maxSessions, perTenantDefault } = limits;
  const sessionResumeMs = r.int('PARLEY_SESSION_RESUME_MS', 5 * 60_000, 0, 24 * 3600_000);
  // Never shorter than the resume window: a session still waiting for its client to come back is not idle.
  const sessionIdleEndMs = r.int('PARLEY_SESSION_IDLE_END_MS', Math.max(30 * 60_000, sessionResumeMs), 0, 30 * 24 * 3600_000);
  if (sessionIdleEndMs > 0 && sessionIdleEndMs < sessionResumeMs) {
    r.problems.push(`PARLEY_SESSION_IDLE_END_MS (${sessionIdleEndMs}) must be 0 or at least PARLEY_SESSION_RESUME_MS `
      + `(${sessionResumeMs}): a session would be ended while it still waits for its client to resume`);
  }
  return {
    sessionResumeMs,
    sessionIdleEndMs,
    maxSessions,
    sessionEndWaitMs: r.int('PARLEY_SESSION_END_WAIT_MS', 10_000, 0, 600_000),
    maxSessionsPerTenant: r.int('PARLEY_MAX_SESSIONS_PER_TENANT', perTenantDefault, 1, 100_000),
    maxResumableSessions: r.int('PARLEY_MAX_RESUMABLE_SESSIONS', maxSessions * 2, 0, 1_000_000),
    sessionQueueLimit: r.int('PARLEY_SESSION_QUEUE', 256, 1, 100_000),
    shutdownGraceMs: r.int('PARLEY_SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    mcpAllowErase: r.oneOf('PARLEY_MCP_ALLOW_ERASE', ['true', 'false'] as const, 'false') === 'true',
    mcpTenant: r.string('PARLEY_MCP_TENANT', 'default'),
    mcpAllowedOrigins: parseOrigins(env.PARLEY_MCP_ALLOWED_ORIGINS, r.problems),
    metricsPort: env.PARLEY_METRICS_PORT?.trim() ? r.int('PARLEY_METRICS_PORT', 0, 0, 65535) : null,
    metricsHost: r.string('PARLEY_METRICS_HOST', '127.0.0.1'),
    rateLimitPerMin: r.int('PARLEY_RATE_LIMIT_PER_MIN', 6000, 0, 10_000_000),
    rateLimitWindowMs: r.int('PARLEY_RATE_LIMIT_WINDOW_MS', 60_000, 1000, 60_000),
  };
}

/** Parse `https://a.example,http://localhost:5173` (or `*`) into normalised origins. */
function parseOrigins(raw: string | undefined, problems: string[]): string[] {
  const origins: string[] = [];
  for (const entry of (raw ?? '').split(',').map((e) => e.trim()).filter(Boolean)) {
    if (entry === '*') {
      origins.push('*');
      continue;
    }
    let url: URL | undefined;
    try {
      url = new URL(entry);
    } catch {
      url = undefined;
    }
    if (!url || !/^https?:$/.test(url.protocol) || url.pathname !== '/' || url.search || url.hash || url.username || entry.endsWith('/')) {
      problems.push(`PARLEY_MCP_ALLOWED_ORIGINS entries must be origins such as https://agent.example.com (scheme, host, optional port; no path), or *: ${JSON.stringify(entry)}`);
      continue;
    }
    origins.push(url.origin);
  }
  return origins;
}

/** Parse `key1:tenantA,key2:tenantB`. */
function parseApiKeys(raw: string | undefined, problems: string[]): ApiKey[] {
  if (raw === undefined || raw.trim() === '') return [];
  const keys: ApiKey[] = [];
  for (const entry of raw.split(',').map((e) => e.trim()).filter(Boolean)) {
    const at = entry.lastIndexOf(':');
    const key = at > 0 ? entry.slice(0, at) : '';
    const tenant = at > 0 ? entry.slice(at + 1) : '';
    if (key.length < 8 || !/^[A-Za-z0-9_.~-]+$/.test(key) || !/^[A-Za-z0-9_-]{1,64}$/.test(tenant)) {
      problems.push(
        'PARLEY_API_KEYS entries must be key:tenant, keys at least 8 characters of [A-Za-z0-9_.~-], ' +
          `tenants 1-64 characters of [A-Za-z0-9_-] (bad entry #${keys.length + 1})`,
      );
      continue;
    }
    if (keys.some((k) => k.key === key)) problems.push(`PARLEY_API_KEYS lists a key twice (entry #${keys.length + 1})`);
    keys.push({ key, tenant });
  }
  return keys;
}
