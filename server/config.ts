import os from 'node:os';
import path from 'node:path';

/** A tenant bound to an API key. */
export interface ApiKey {
  key: string;
  tenant: string;
}

/** Parley's whole configuration, read once at start-up from the environment. */
export interface Config {
  /** TCP port (`PORT`). */
  port: number;
  /** Bind address (`HOST`); loopback unless API keys are configured. */
  host: string;
  /** Where the embedded stores and audio spans live (`DATA_DIR`). */
  dataDir: string;
  /** `PARLEY_API_KEYS`; empty means single tenant `default`, loopback only. */
  apiKeys: ApiKey[];
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** `PARLEY_GRAPH_STORE`: `sqlite` (embedded) or `neo4j`. */
  graphStore: 'sqlite' | 'neo4j';
  /** `PARLEY_VECTOR_STORE`: `sqlite` (embedded) or `qdrant`. */
  vectorStore: 'sqlite' | 'qdrant';
  /** `QDRANT_URL`, `QDRANT_API_KEY`. */
  qdrantUrl: string;
  qdrantApiKey: string | null;
  /** `NEO4J_URI`, `NEO4J_USER`, `NEO4J_PASSWORD`, `NEO4J_DATABASE`. */
  neo4jUri: string;
  neo4jUser: string;
  neo4jPassword: string;
  neo4jDatabase: string;
  /** `PARLEY_QUEUE`: `embedded` (SQLite, in-process) or `redis` (BullMQ). */
  queue: 'embedded' | 'redis';
  /** `REDIS_URL`, used when `queue` is `redis`. */
  redisUrl: string;
  /** `PARLEY_REDIS_PREFIX`: key prefix for every Redis key Parley writes. */
  redisPrefix: string;
  /** Where `npm run models` puts model files (`MODELS_DIR`). */
  modelsDir: string;
  /** How long a disconnected session stays live for a resume, ms (`PARLEY_SESSION_RESUME_MS`). */
  sessionResumeMs: number;
  /** Most live WebSocket sessions at once (`PARLEY_MAX_SESSIONS`). */
  maxSessions: number;
  /** Most text frames waiting per session before new ones are shed (`PARLEY_SESSION_QUEUE`). */
  sessionQueueLimit: number;
  /** How long shutdown waits for sessions and jobs to finish, ms (`PARLEY_SHUTDOWN_GRACE_MS`). */
  shutdownGraceMs: number;
}

/** Raised for invalid environment values; the message lists every problem. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** Reads typed values from the environment, collecting every problem instead of stopping at the first. */
class EnvReader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  string(name: string, fallback: string): string {
    const raw = this.env[name];
    return raw === undefined || raw.trim() === '' ? fallback : raw.trim();
  }

  int(name: string, fallback: number, min: number, max: number): number {
    const raw = this.env[name];
    if (raw === undefined || raw.trim() === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      this.problems.push(`${name}=${JSON.stringify(raw)} must be an integer from ${min} to ${max}`);
      return fallback;
    }
    return value;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.string(name, fallback);
    if (!(allowed as readonly string[]).includes(value)) {
      this.problems.push(`${name}=${JSON.stringify(value)} must be one of: ${allowed.join(', ')}`);
      return fallback;
    }
    return value as T;
  }

  url(name: string, fallback: string, protocols: string[]): string {
    const value = this.string(name, fallback);
    try {
      const parsed = new URL(value);
      if (!protocols.includes(parsed.protocol)) throw new Error('protocol');
    } catch {
      this.problems.push(`${name}=${JSON.stringify(value)} must be a URL starting with ${protocols.join(' or ')}//`);
    }
    return value;
  }
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

/** Build the typed config from `env`; throws `ConfigError` naming every bad value. */
export function loadConfig(env: Env = process.env): Config {
  const r = new EnvReader(env);
  const apiKeys = parseApiKeys(env.PARLEY_API_KEYS, r.problems);
  const host = r.string('HOST', '127.0.0.1');
  if (apiKeys.length === 0 && !LOOPBACK.has(host)) {
    r.problems.push(`HOST=${host} is not loopback: without PARLEY_API_KEYS Parley only listens on 127.0.0.1 or ::1`);
  }
  const config: Config = {
    port: r.int('PORT', 8080, 0, 65535),
    host,
    dataDir: path.resolve(r.string('DATA_DIR', './data')),
    apiKeys,
    logLevel: r.oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    graphStore: r.oneOf('PARLEY_GRAPH_STORE', ['sqlite', 'neo4j'] as const, 'sqlite'),
    vectorStore: r.oneOf('PARLEY_VECTOR_STORE', ['sqlite', 'qdrant'] as const, 'sqlite'),
    qdrantUrl: r.url('QDRANT_URL', 'http://127.0.0.1:6333', ['http:', 'https:']),
    qdrantApiKey: env.QDRANT_API_KEY?.trim() || null,
    neo4jUri: r.url('NEO4J_URI', 'bolt://127.0.0.1:7687', ['bolt:', 'bolt+s:', 'neo4j:', 'neo4j+s:']),
    neo4jUser: r.string('NEO4J_USER', 'neo4j'),
    neo4jPassword: r.string('NEO4J_PASSWORD', ''),
    neo4jDatabase: r.string('NEO4J_DATABASE', 'neo4j'),
    queue: r.oneOf('PARLEY_QUEUE', ['embedded', 'redis'] as const, 'embedded'),
    redisUrl: r.url('REDIS_URL', 'redis://127.0.0.1:6379/0', ['redis:', 'rediss:']),
    redisPrefix: r.string('PARLEY_REDIS_PREFIX', 'parley'),
    modelsDir: path.resolve(r.string('MODELS_DIR', './models')),
    sessionResumeMs: r.int('PARLEY_SESSION_RESUME_MS', 5 * 60_000, 0, 24 * 3600_000),
    maxSessions: r.int('PARLEY_MAX_SESSIONS', Math.max(8, os.availableParallelism() * 16), 1, 100_000),
    sessionQueueLimit: r.int('PARLEY_SESSION_QUEUE', 256, 1, 100_000),
    shutdownGraceMs: r.int('PARLEY_SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
  };
  if (r.problems.length > 0) throw new ConfigError(r.problems);
  return config;
}
