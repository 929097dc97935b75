import path from 'node:path';
import type { Logger } from 'pino';
import { ParleyError } from './core/errors.js';
import type { EntityIndex } from './entity-index.js';
import type { GraphStore } from './graph-store.js';
import type { JobQueue } from './job-queue.js';
import type { KeyedLock } from './keyed-lock.js';
import type { LexicalIndex } from './lexical-index.js';
import type { MemoryStore } from './memory-store.js';
import type { Neo4jOptions } from './neo4j/neo4j-connection.js';
import { Neo4jEntityIndex } from './neo4j/neo4j-entity-index.js';
import { Neo4jGraphStore } from './neo4j/neo4j-graph-store.js';
import { Neo4jLexicalIndex } from './neo4j/neo4j-lexical-index.js';
import { Neo4jMemoryStore } from './neo4j/neo4j-memory-store.js';
import { Neo4jStoreBase } from './neo4j/neo4j-store-base.js';
import { Neo4jVectorStore } from './neo4j/neo4j-vector-store.js';
import { Neo4jVoiceprintStore } from './neo4j/neo4j-voiceprint-store.js';
import { OutboxForwarder } from './outbox/outbox-forwarder.js';
import { OutboxJobQueue, QUEUE_TARGET, queueOutboxHandler } from './outbox/outbox-job-queue.js';
import {
  LEXICAL_TARGET, lexicalOutboxHandler, OutboxLexicalIndex, OutboxVectorStore, vectorOutboxHandler, VECTORS_TARGET,
} from './outbox/outbox-stores.js';
import { Outbox } from './outbox/outbox.js';
import { QdrantLexicalIndex } from './qdrant/qdrant-lexical-index.js';
import { QdrantVectorStore } from './qdrant/qdrant-vector-store.js';
import { QdrantVoiceprintStore } from './qdrant/qdrant-voiceprint-store.js';
import { BullmqJobQueue } from './redis/bullmq-job-queue.js';
import { RedisKeyedLock } from './redis/redis-keyed-lock.js';
import { checkRedisAppendOnly } from './redis/redis-persistence.js';
import { ConnectionGate } from './sqlite/connection-gate.js';
import { openDatabase, sqliteAtomically } from './sqlite/database.js';
import { SqliteEntityIndex } from './sqlite/sqlite-entity-index.js';
import { SqliteGraphStore } from './sqlite/sqlite-graph-store.js';
import { SqliteJobQueue } from './sqlite/sqlite-job-queue.js';
import { SqliteKeyedLock } from './sqlite/sqlite-keyed-lock.js';
import { SqliteLexicalIndex } from './sqlite/sqlite-lexical-index.js';
import { SqliteMemoryStore } from './sqlite/sqlite-memory-store.js';
import { SqliteVectorStore } from './sqlite/sqlite-vector-store.js';
import { SqliteVoiceprintStore } from './sqlite/sqlite-voiceprint-store.js';
import type { Stores } from './stores.js';
import type { VectorStore } from './vector-store.js';
import type { VoiceprintStore } from './voiceprint-store.js';

/** The settings the stores read (the server's `Config` satisfies it). */
export interface StoreConfig {
  dataDir: string;
  queue: 'embedded' | 'redis';
  redisUrl: string;
  redisPrefix: string;
  vectorStore: 'sqlite' | 'qdrant' | 'neo4j';
  qdrantUrl: string;
  qdrantApiKey: string | null;
  graphStore: 'sqlite' | 'neo4j';
  neo4jUri: string;
  neo4jUser: string;
  neo4jPassword: string;
  neo4jDatabase: string;
  /** The longest one Neo4j transaction may take, ms (`NEO4J_QUERY_TIMEOUT_MS`); absent: the default. */
  neo4jQueryTimeoutMs?: number;
  /** The longest a job waits out a store outage before it is a dead letter, ms; 0 or absent: for as long as it lasts. */
  jobMaxOutageWaitMs?: number;
  /** The longest one try of a job runs before it fails, ms; 0: no limit; absent: `DEFAULT_JOB_MAX_RUN_MS`. */
  jobMaxRunMs?: number;
}

/**
 * Open the stores the config asks for. The embedded SQLite file (`DATA_DIR/parley.db`) is always
 * open: embedded stores live in it, and so does the outbox through which writes to networked
 * backends go (the Redis queue's `enqueue`, Qdrant vector and lexical writes), so a backend outage
 * delays those writes but loses none. With `PARLEY_GRAPH_STORE=neo4j` the interaction graph, the
 * memory store (facts, persona) and the entity index all live in Neo4j; their writes are not
 * deferred: they fail with `PARLEY_ERR_STORE_UNAVAILABLE` naming `NEO4J_URI` (after the driver's
 * retries) and the caller reports it. With `PARLEY_VECTOR_STORE=neo4j` vectors, the keyword index and
 * voiceprints live in Neo4j too (native vector and full-text indexes), written directly like the
 * graph: Neo4j + Redis is then a complete networked deployment, no Qdrant needed.
 * Makes no network call; use `openStoresChecked` to fail fast when a backend is unreachable.
 */
export function openStores(config: StoreConfig, logger: Logger): Stores {
  const sqlite = openDatabase(path.join(config.dataDir, 'parley.db'));
  const outbox = new Outbox(sqlite);
  const handlers: ConstructorParameters<typeof OutboxForwarder>[1] = {};
  const forwarder = new OutboxForwarder(outbox, handlers, { logger: logger.child({ component: 'outbox' }) });

  let queue: JobQueue;
  let locks: KeyedLock;
  if (config.queue === 'redis') {
    locks = new RedisKeyedLock({ url: config.redisUrl, prefix: config.redisPrefix, logger: logger.child({ component: 'locks' }) });
    const bull = new BullmqJobQueue({
      url: config.redisUrl, prefix: config.redisPrefix, maxOutageWaitMs: config.jobMaxOutageWaitMs, maxRunMs: config.jobMaxRunMs, logger: logger.child({ component: 'queue' }),
    });
    handlers[QUEUE_TARGET] = queueOutboxHandler(bull);
    queue = new OutboxJobQueue(bull, outbox, forwarder);
  } else {
    queue = new SqliteJobQueue(sqlite, { maxOutageWaitMs: config.jobMaxOutageWaitMs, maxRunMs: config.jobMaxRunMs, logger: logger.child({ component: 'queue' }) });
    // The server and `npm run worker` may share the file (and so the queue): the lock lives there too.
    locks = SqliteKeyedLock.open(path.join(config.dataDir, 'parley.db'), { logger: logger.child({ component: 'locks' }) });
  }

  let vectors: VectorStore = new SqliteVectorStore(sqlite);
  let lexical: LexicalIndex = new SqliteLexicalIndex(sqlite);
  let voiceprints: VoiceprintStore = new SqliteVoiceprintStore(sqlite);
  if (config.vectorStore === 'qdrant') {
    const options = { url: config.qdrantUrl, apiKey: config.qdrantApiKey, collectionPrefix: 'parley_' };
    const qdrantVectors = new QdrantVectorStore(options);
    const qdrantLexical = new QdrantLexicalIndex(options);
    handlers[VECTORS_TARGET] = vectorOutboxHandler(qdrantVectors);
    handlers[LEXICAL_TARGET] = lexicalOutboxHandler(qdrantLexical);
    vectors = new OutboxVectorStore(qdrantVectors, outbox, forwarder);
    lexical = new OutboxLexicalIndex(qdrantLexical, outbox, forwarder);
    voiceprints = new QdrantVoiceprintStore(options);
  } else if (config.vectorStore === 'neo4j') {
    const options = neo4jOptions(config);
    vectors = new Neo4jVectorStore(options);
    lexical = new Neo4jLexicalIndex(options);
    voiceprints = new Neo4jVoiceprintStore(options);
  }

  let graph: GraphStore = new SqliteGraphStore(sqlite);
  let memory: MemoryStore = new SqliteMemoryStore(sqlite);
  let entities: EntityIndex = new SqliteEntityIndex(sqlite);
  if (config.graphStore === 'neo4j') {
    const options = neo4jOptions(config);
    graph = new Neo4jGraphStore(options);
    memory = new Neo4jMemoryStore(options);
    entities = new Neo4jEntityIndex(options);
  }

  // Writes left over from before a restart or an outage go out as soon as their backend answers.
  if (Object.keys(handlers).length > 0) forwarder.start();
  // Utterance, keyword entry and consolidation job commit together when all three are written to the
  // file: the embedded stores, or the outbox in front of Redis (jobs) and Qdrant (keyword entries),
  // which forwards them once the transaction has committed. A crash then leaves both or neither.
  const oneFile = config.graphStore === 'sqlite' && config.vectorStore !== 'neo4j';
  const atomically = oneFile ? sqliteAtomically(sqlite) : <T>(work: () => Promise<T>) => work();
  if (oneFile) {
    // While a section awaits, another request's call on the file would join its transaction (and its
    // rollback): every store on the file waits for it instead. Voiceprints on Qdrant are not on the file.
    const gate = ConnectionGate.of(sqlite);
    graph = gate.wrap(graph);
    memory = gate.wrap(memory);
    entities = gate.wrap(entities);
    // Only stores whose every call is on the file: an outbox in front of Qdrant or Redis gates its own rows
    // (`Outbox.gated`), never the networked call, so a slow backend never holds up the file.
    if (vectors instanceof SqliteVectorStore) vectors = gate.wrap(vectors);
    if (lexical instanceof SqliteLexicalIndex) lexical = gate.wrap(lexical);
    if (queue instanceof SqliteJobQueue) queue = gate.wrap(queue);
    if (voiceprints instanceof SqliteVoiceprintStore) voiceprints = gate.wrap(voiceprints);
  }
  const stores: Stores = {
    sqlite, graph, memory, entities, voiceprints, vectors, lexical, queue, locks, atomically,
    async close(timeoutMs = 10_000) {
      await queue.close(timeoutMs);
      await locks.close();
      await forwarder.stop();
      await Promise.all([
        stores.graph.close(), stores.memory.close(), stores.entities.close(), stores.voiceprints.close(),
        stores.vectors.close(), stores.lexical.close(),
      ]);
      if (sqlite.open) sqlite.close();
    },
  };
  return stores;
}

/** The Neo4j connection settings (every Neo4j store of the process shares one driver for them). */
function neo4jOptions(config: StoreConfig): Neo4jOptions {
  return {
    uri: config.neo4jUri, user: config.neo4jUser, password: config.neo4jPassword, database: config.neo4jDatabase,
    ...(config.neo4jQueryTimeoutMs === undefined ? {} : { queryTimeoutMs: config.neo4jQueryTimeoutMs }),
  };
}

/** The networked backends a config uses, each with the env var that points at it and a ping. */
function networkedChecks(config: StoreConfig, stores: Stores): { name: string; envVar: string; target: string; ping: () => Promise<boolean> }[] {
  const checks = [];
  if (config.queue === 'redis') checks.push({ name: 'Redis', envVar: 'REDIS_URL', target: config.redisUrl, ping: () => stores.queue.ready() });
  if (config.vectorStore === 'qdrant') checks.push({ name: 'Qdrant', envVar: 'QDRANT_URL', target: config.qdrantUrl, ping: () => stores.vectors.ready() });
  if (config.graphStore === 'neo4j' || config.vectorStore === 'neo4j') {
    checks.push({ name: 'Neo4j', envVar: 'NEO4J_URI', target: config.neo4jUri, ping: () => initNeo4j(stores) });
  }
  return checks;
}

/** Ping every Neo4j-backed store and create its constraints and indexes; false while any does not answer. */
async function initNeo4j(stores: Stores): Promise<boolean> {
  const neo4jStores = ([stores.graph, stores.memory, stores.entities, stores.vectors, stores.lexical, stores.voiceprints] as unknown[])
    .filter((s): s is Neo4jStoreBase => s instanceof Neo4jStoreBase);
  for (const store of neo4jStores) {
    if (!(await store.ready())) return false;
    await store.init();
  }
  return true;
}

/**
 * `openStores`, then make sure every configured networked backend answers (and Neo4j's constraints
 * exist) within `timeoutMs`; otherwise close everything and throw an error naming the env var to fix.
 */
export async function openStoresChecked(config: StoreConfig, logger: Logger, timeoutMs = 10_000): Promise<Stores> {
  const stores = openStores(config, logger);
  const failures: string[] = [];
  await Promise.all(networkedChecks(config, stores).map(async (check) => {
    const deadline = Date.now() + timeoutMs;
    let lastError = 'no answer';
    for (;;) {
      try {
        if (await check.ping()) return;
      } catch (err) {
        lastError = err instanceof Error ? err.message : String(err);
      }
      if (Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    failures.push(`${check.name} is unreachable at ${check.envVar}=${redact(check.target)} (${lastError}); start it or fix ${check.envVar}`);
  }));
  if (failures.length > 0) {
    await stores.close(1000).catch(() => undefined);
    throw new ParleyError('PARLEY_ERR_STORE_UNAVAILABLE', failures.join('; '));
  }
  if (config.queue === 'redis') await checkRedisAppendOnly(config.redisUrl, logger.child({ component: 'queue' }), redact(config.redisUrl));
  return stores;
}

/** A URL without its password, for messages. */
function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}
