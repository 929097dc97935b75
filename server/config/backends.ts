/** The graph, vector and queue backends, and how background jobs run. */
import type { Env, EnvReader } from './env-reader.js';
import { DEFAULT_JOB_MAX_RUN_MS } from '../../graph/job-queue.js';

/** Which stores and queue Parley uses, where they are, and how background jobs run. */
export interface BackendSettings {
  /** `PARLEY_GRAPH_STORE`: `sqlite` (embedded) or `neo4j`. */
  graphStore: 'sqlite' | 'neo4j';
  /**
   * `PARLEY_VECTOR_STORE`: where vectors, the keyword (BM25) index and voiceprints live: `sqlite`
   * (embedded), `qdrant` or `neo4j` (native vector and full-text indexes). Default: `sqlite`, or with
   * `PARLEY_GRAPH_STORE=neo4j` `qdrant` when `QDRANT_URL` is set and `neo4j` when it is not.
   */
  vectorStore: 'sqlite' | 'qdrant' | 'neo4j';
  /** `QDRANT_URL`, `QDRANT_API_KEY`. */
  qdrantUrl: string;
  qdrantApiKey: string | null;
  /** `NEO4J_URI`, `NEO4J_USER`, `NEO4J_PASSWORD`, `NEO4J_DATABASE`. */
  neo4jUri: string;
  neo4jUser: string;
  neo4jPassword: string;
  neo4jDatabase: string;
  /**
   * `NEO4J_QUERY_TIMEOUT_MS`: the longest one Neo4j transaction of a request or job may take (a hung or
   * unreachable server included) before it fails with `PARLEY_ERR_STORE_UNAVAILABLE` (503), ms; default 20,000.
   */
  neo4jQueryTimeoutMs: number;
  /** `PARLEY_QUEUE`: `embedded` (SQLite, in-process) or `redis` (BullMQ). */
  queue: 'embedded' | 'redis';
  /**
   * `PARLEY_RUN_JOBS`: whether this server process also runs the background jobs (consolidation);
   * set `false` when separate `npm run worker` processes take them from Redis.
   */
  runJobs: boolean;
  /**
   * `PARLEY_JOBS_UNCLAIMED_MS`: a due background job waiting this long to start is reported as
   * unclaimed (`/readyz` `jobs.status`, `parley_queue_unclaimed`, one log warning): no worker takes
   * jobs, or they fall behind. Default 60,000.
   */
  jobsUnclaimedMs: number;
  /** `REDIS_URL`, used when `queue` is `redis`. */
  redisUrl: string;
  /** `PARLEY_REDIS_PREFIX`: key prefix for every Redis key Parley writes. */
  redisPrefix: string;
  /**
   * `PARLEY_JOB_MAX_OUTAGE_WAIT_MS`: the longest a background job waits out a store outage, from its
   * first try that met it, before it is failed into the dead letters with its data kept (replayable:
   * `npm run jobs -- retry`), ms; `0` waits for as long as the outage lasts. Default one day.
   */
  jobMaxOutageWaitMs: number;
  /**
   * `PARLEY_JOB_MAX_RUN_MS`: the longest one try of a background job runs before it is failed (its lease no longer
   * renewed; retried, or dead-lettered once out of attempts), ms; `0`: no limit. Default ten minutes.
   */
  jobMaxRunMs: number;
  /**
   * `PARLEY_KEPT_EXTRACTION_DAYS`: how long an extraction kept for the re-run of an unfinished
   * consolidation job is kept before it is dropped (its job crashed and never ran again, or is a dead
   * letter nobody replayed); default 7.
   */
  keptExtractionDays: number;
}

/** The store, queue and job settings. */
export function readBackendSettings(r: EnvReader, env: Env): BackendSettings {
  return {
    graphStore: r.oneOf('PARLEY_GRAPH_STORE', ['sqlite', 'neo4j'] as const, 'sqlite'),
    vectorStore: r.oneOf('PARLEY_VECTOR_STORE', ['sqlite', 'qdrant', 'neo4j'] as const, defaultVectorStore(env)),
    qdrantUrl: r.url('QDRANT_URL', 'http://127.0.0.1:6333', ['http:', 'https:']),
    qdrantApiKey: env.QDRANT_API_KEY?.trim() || null,
    neo4jUri: r.url('NEO4J_URI', 'bolt://127.0.0.1:7687', ['bolt:', 'bolt+s:', 'neo4j:', 'neo4j+s:']),
    neo4jUser: r.string('NEO4J_USER', 'neo4j'),
    neo4jPassword: r.string('NEO4J_PASSWORD', ''),
    neo4jDatabase: r.string('NEO4J_DATABASE', 'neo4j'),
    neo4jQueryTimeoutMs: r.int('NEO4J_QUERY_TIMEOUT_MS', 20_000, 1000, 3_600_000),
    queue: r.oneOf('PARLEY_QUEUE', ['embedded', 'redis'] as const, 'embedded'),
    runJobs: r.oneOf('PARLEY_RUN_JOBS', ['true', 'false'] as const, 'true') === 'true',
    jobsUnclaimedMs: r.int('PARLEY_JOBS_UNCLAIMED_MS', 60_000, 1000, 30 * 86_400_000),
    redisUrl: r.url('REDIS_URL', 'redis://127.0.0.1:6379/0', ['redis:', 'rediss:']),
    redisPrefix: r.string('PARLEY_REDIS_PREFIX', 'parley'),
    jobMaxOutageWaitMs: r.int('PARLEY_JOB_MAX_OUTAGE_WAIT_MS', 86_400_000, 0, 30 * 86_400_000),
    jobMaxRunMs: r.int('PARLEY_JOB_MAX_RUN_MS', DEFAULT_JOB_MAX_RUN_MS, 0, 86_400_000),
    keptExtractionDays: r.int('PARLEY_KEPT_EXTRACTION_DAYS', 7, 1, 3650),
  };
}

/**
 * `PARLEY_VECTOR_STORE` when unset: a networked graph brings networked search with it, in Qdrant when
 * `QDRANT_URL` names one, else in Neo4j itself (Neo4j + Redis is a complete networked deployment).
 */
function defaultVectorStore(env: Env): BackendSettings['vectorStore'] {
  if (env.PARLEY_GRAPH_STORE?.trim() !== 'neo4j') return 'sqlite';
  return env.QDRANT_URL?.trim() ? 'qdrant' : 'neo4j';
}
