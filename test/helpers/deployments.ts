/**
 * The deployments an end-to-end server test can run under: the embedded default, and the networked
 * one CI runs for real (every store in Neo4j, the queue on Redis), which skips only without
 * `NEO4J_URI`. The networked one uses a tenant of its own per run (through an API key), so runs
 * sharing one Neo4j never see each other, and erases it afterwards.
 */
import neo4j from 'neo4j-driver';
import { deleteKeys, TEST_REDIS_URL } from './redis.js';
import { NEO4J_SKIP, neo4jTestQueryTimeoutMs } from './stores.js';

export interface Deployment {
  name: string;
  networked: boolean;
  skip?: string;
  /** The tenant the test's requests act as. */
  tenant: string;
  /** Headers every request (and WebSocket) needs. */
  headers: Record<string, string>;
  /** Settings besides DATA_DIR. */
  env: Record<string, string>;
  /** Every node of the tenant in Neo4j, as JSON (networked only; '' otherwise). */
  dumpNeo4j(): Promise<string>;
  cleanup(): Promise<void>;
}

const neo4jDatabase = () => process.env.NEO4J_DATABASE ?? 'neo4j';
const neo4jDriver = () => neo4j.driver(process.env.NEO4J_URI!, neo4j.auth.basic(process.env.NEO4J_USER ?? 'neo4j', process.env.NEO4J_PASSWORD ?? ''));

/** The two deployments, with names unique to this run and `label`. */
export function deployments(label: string): Deployment[] {
  const run = `${label}-${process.pid}-${Date.now()}`;
  const key = `${run}-key`;
  const tenant = `tenant-${run}`;
  const redisPrefix = `parley-test-${run}`;
  return [
    {
      name: 'embedded (SQLite, in-process queue)', networked: false, tenant: 'default', headers: {}, env: {},
      dumpNeo4j: async () => '', cleanup: async () => {},
    },
    {
      // No QDRANT_URL, so PARLEY_VECTOR_STORE defaults to neo4j: vectors, keywords and voiceprints too.
      name: 'networked (Neo4j for every store, Redis queue)', networked: true, skip: NEO4J_SKIP, tenant,
      headers: { authorization: `Bearer ${key}` },
      env: {
        PARLEY_API_KEYS: `${key}:${tenant}`, PARLEY_GRAPH_STORE: 'neo4j', NEO4J_URI: process.env.NEO4J_URI ?? '',
        NEO4J_USER: process.env.NEO4J_USER ?? 'neo4j', NEO4J_PASSWORD: process.env.NEO4J_PASSWORD ?? '',
        NEO4J_DATABASE: neo4jDatabase(), PARLEY_QUEUE: 'redis', REDIS_URL: TEST_REDIS_URL, PARLEY_REDIS_PREFIX: redisPrefix,
        ...(neo4jTestQueryTimeoutMs() === undefined ? {} : { NEO4J_QUERY_TIMEOUT_MS: String(neo4jTestQueryTimeoutMs()) }),
      },
      dumpNeo4j: async () => {
        const driver = neo4jDriver();
        try {
          const { records } = await driver.executeQuery('MATCH (n {tenant: $tenant}) RETURN labels(n) AS l, properties(n) AS p', { tenant }, { database: neo4jDatabase() });
          return JSON.stringify(records.map((r) => [r.get('l'), r.get('p')]));
        } finally {
          await driver.close();
        }
      },
      cleanup: async () => {
        await deleteKeys(redisPrefix);
        // Every node Parley writes carries its tenant; an auto-commit session allows IN TRANSACTIONS.
        const driver = neo4jDriver();
        const session = driver.session({ database: neo4jDatabase() });
        try {
          await session.run('MATCH (n {tenant: $tenant}) CALL { WITH n DETACH DELETE n } IN TRANSACTIONS OF 1000 ROWS', { tenant });
        } finally {
          await session.close();
          await driver.close();
        }
      },
    },
  ];
}
