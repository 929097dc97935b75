/**
 * Shared set-up for the networked-backend tests: a port nothing listens on (an outage), the Neo4j
 * test server's options, and the check every outage test makes of the error it gets.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import type { Neo4jOptions } from '../../graph/neo4j/neo4j-connection.js';
import { missingService } from './services.js';

/** A local TCP port that nothing listens on (taken, then released). */
export async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * Why the Neo4j suites skip, or undefined when `NEO4J_URI` names a server. When the run demands its services
 * (`PARLEY_TEST_REQUIRE_SERVICES=1`) and `NEO4J_URI` is not set, loading this module throws the reason instead: every
 * test file that uses these helpers fails with it.
 */
export const NEO4J_SKIP = process.env.NEO4J_URI
  ? undefined
  : missingService('NEO4J_URI is not set: no Neo4j server to run the networked contract against');

/**
 * The Neo4j query deadline a test run asks for, ms (`PARLEY_TEST_NEO4J_QUERY_TIMEOUT_MS`; `.ci/run` sets it, since a
 * busy CI machine ran past the default 20 s), or undefined for the stores' default. A variable of the tests' own, not
 * `NEO4J_QUERY_TIMEOUT_MS`: server processes the tests start inherit the environment, and the outage tests count on
 * their deadline.
 */
export function neo4jTestQueryTimeoutMs(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env.PARLEY_TEST_NEO4J_QUERY_TIMEOUT_MS;
  if (raw === undefined || raw === '') return undefined;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 1000) throw new Error(`PARLEY_TEST_NEO4J_QUERY_TIMEOUT_MS must be a whole number of ms, at least 1000 (got ${raw})`);
  return ms;
}

/** The app settings that put the graph and memory stores in the Neo4j test server (`NEO4J_URI` and its credentials). */
export function neo4jGraphEnv(): Record<string, string> {
  const timeout = neo4jTestQueryTimeoutMs();
  return {
    PARLEY_GRAPH_STORE: 'neo4j', NEO4J_URI: process.env.NEO4J_URI ?? '', NEO4J_USER: process.env.NEO4J_USER ?? 'neo4j',
    NEO4J_PASSWORD: process.env.NEO4J_PASSWORD ?? '', ...(process.env.NEO4J_DATABASE ? { NEO4J_DATABASE: process.env.NEO4J_DATABASE } : {}),
    ...(timeout === undefined ? {} : { NEO4J_QUERY_TIMEOUT_MS: String(timeout) }),
  };
}

let fixtures = 0;

/**
 * Options for the Neo4j test server (`NEO4J_URI`, `NEO4J_USER`, `NEO4J_PASSWORD`, `NEO4J_DATABASE`)
 * with a tenant prefix unique to this fixture, so runs stay apart in one database.
 */
export function neo4jTestOptions(label: string): Neo4jOptions {
  const timeout = neo4jTestQueryTimeoutMs();
  return {
    ...(timeout === undefined ? {} : { queryTimeoutMs: timeout }),
    uri: process.env.NEO4J_URI ?? '', user: process.env.NEO4J_USER ?? 'neo4j', password: process.env.NEO4J_PASSWORD ?? '',
    database: process.env.NEO4J_DATABASE ?? 'neo4j', tenantPrefix: `${label}-${process.pid}-${Date.now()}-${fixtures++}:`,
  };
}

/**
 * For `assert.rejects`: the error of a store that cannot be reached, `PARLEY_ERR_STORE_UNAVAILABLE`,
 * naming the environment variable to fix (`envVar`), and retryable unless `retryable` is undefined.
 */
export function storeUnavailable(envVar: string, retryable: boolean | undefined = true): (err: Error & { code?: string; retryable?: boolean }) => boolean {
  return (err) => {
    assert.equal(err.code, 'PARLEY_ERR_STORE_UNAVAILABLE');
    if (retryable !== undefined) assert.equal(err.retryable, retryable);
    assert.match(err.message, new RegExp(envVar));
    return true;
  };
}
