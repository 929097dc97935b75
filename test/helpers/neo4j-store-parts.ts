import type { Driver } from 'neo4j-driver';
import { Neo4jGraphStore } from '../../graph/neo4j/neo4j-graph-store.js';
import { neo4jTestOptions } from './stores.js';

/**
 * A Neo4j graph store for `label` with the parts a test writes through to lay out what an older version left: its
 * driver, tenant `t1` as stored (prefixed), and the database to run queries on.
 */
export function neo4jStoreParts(label: string): {
  options: ReturnType<typeof neo4jTestOptions>; store: Neo4jGraphStore; driver: Driver; tenant: string; db: { database: string | undefined };
} {
  const options = neo4jTestOptions(label);
  const store = new Neo4jGraphStore(options);
  const driver = (store as unknown as { driver: Driver }).driver;
  const tenant = (store as unknown as { t(x: string): string }).t('t1');
  return { options, store, driver, tenant, db: { database: options.database } };
}
