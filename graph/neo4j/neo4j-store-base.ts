import type { Driver, ManagedTransaction } from 'neo4j-driver';
import { acquireDriver, Neo4jRunner, toNum, toParleyError, type Neo4jOptions, type SharedDriver } from './neo4j-connection.js';

/** A node's properties as returned by `RETURN n {.*}`. */
export type Props = Record<string, unknown>;

/** Run `cypher` and return the map in column `key` of every record. */
export async function propRows(tx: ManagedTransaction, cypher: string, params: Props, key = 'n'): Promise<Props[]> {
  const result = await tx.run(cypher, params);
  return result.records.map((r) => r.get(key) as Props);
}

/** Delete participant `$id`'s addressee key node of tenant `$tenant` once nothing is ADDRESSED to it. */
export const DROP_ORPHAN_ADDRESSEE = 'MATCH (k:Addressee {tenant: $tenant, id: $id}) WHERE NOT (k)<-[:ADDRESSED]-() DELETE k';

/** A string property that may be absent (Neo4j drops properties set to null). */
export function optString(value: unknown): string | null {
  return value === undefined || value === null ? null : String(value);
}

/** A list-of-strings property that may be absent. */
export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

/**
 * Set `e.utteranceIds` (a pending erasure's or merge's) to its ids and `$ids`, each once, in time linear in both: `collect(DISTINCT)`
 * keeps a hashed set, where testing each new id against the stored list (`NOT x IN e.utteranceIds`) was quadratic in
 * the person's history. With no ids at all the row ends here and nothing is set (the list stays as it was).
 */
export const ADD_IDS = `WITH e
    UNWIND e.utteranceIds + $ids AS x
    WITH e, collect(DISTINCT x) AS ids
    SET e.utteranceIds = ids`;

/**
 * What the Neo4j graph store, memory store and entity index share: one driver per process (with
 * one bookmark manager, so a read sees the writes before it), a managed-transaction runner,
 * tenant prefix and idempotent schema statements run once before the first query (and again after
 * a failed attempt).
 */
export abstract class Neo4jStoreBase {
  protected readonly driver: Driver;
  protected readonly db: Neo4jRunner;
  protected readonly prefix: string;
  private readonly shared: SharedDriver;
  private schema: Promise<void> | undefined;
  private marks: Promise<void> | undefined;

  protected constructor(protected readonly options: Neo4jOptions, private readonly statements: readonly string[]) {
    this.shared = acquireDriver(options);
    this.driver = this.shared.driver;
    this.db = new Neo4jRunner(this.driver, options.database ?? 'neo4j', this.shared.bookmarks, options.queryTimeoutMs);
    this.prefix = options.tenantPrefix ?? '';
  }

  /** Create constraints and indexes (idempotent); called before the first query. */
  init(): Promise<void> {
    this.schema ??= (async () => {
      for (const statement of this.statements) await this.schemaQuery(statement);
    })().catch((err: unknown) => {
      this.schema = undefined;
      throw err;
    });
    return this.schema;
  }

  /**
   * One schema statement (or `db.awaitIndex`) in its own auto-commit transaction: Neo4j refuses schema
   * changes inside a transaction that also reads or writes data.
   */
  protected async schemaQuery(statement: string, params: Props = {}): Promise<void> {
    await this.driver.executeQuery(statement, params, { database: this.options.database ?? 'neo4j', bookmarkManager: this.shared.bookmarks }).catch((err: unknown) => {
      // `IF NOT EXISTS` does not hold against a twin statement committed meanwhile (two stores or processes
      // creating the schema of a fresh database at once): Neo4j then refuses the second as "an equivalent
      // index already exists". The index or constraint is there, which is all the statement asks.
      if (isSchemaAlreadyThere(err)) return;
      throw toParleyError(err, 'creating the Neo4j schema');
    });
  }

  /**
   * Run a data migration `cypher` (an auto-commit query, so it may batch with `IN TRANSACTIONS`)
   * unless a `(:ParleyMigration {name})` node says it ran; then record it. Idempotent, so two
   * processes starting at once may both run it.
   */
  protected async migrateOnce(name: string, cypher: string): Promise<void> {
    if (await this.marked(name)) return;
    await this.db.autoCommit(`migration ${name}`, cypher, {});
    await this.mark(name);
  }

  /**
   * Whether a data migration the pipelines run (`MemoryStore.migrationDone`) is recorded for `tenant`: a
   * `(:ParleyMigration)` mark as `migrateOnce` leaves, named `name` and the tenant, and carrying the tenant (prefixed, as
   * its nodes are, so erasing the tenant's nodes erases it).
   */
  async migrationDone(tenant: string, name: string): Promise<boolean> {
    await this.init();
    return this.marked(`${name}@${this.t(tenant)}`);
  }

  /** Record a data migration the pipelines ran for `tenant` (`MemoryStore.recordMigration`); idempotent. */
  async recordMigration(tenant: string, name: string): Promise<void> {
    await this.init();
    await this.mark(`${name}@${this.t(tenant)}`, this.t(tenant));
  }

  /** Whether a `(:ParleyMigration {name})` mark exists. */
  private async marked(name: string): Promise<boolean> {
    await this.oneMarkPerMigration();
    const done = await this.db.read(`checking migration ${name}`, async (tx) =>
      toNum((await tx.run('MATCH (m:ParleyMigration {name: $name}) RETURN count(m) AS n', { name })).records[0]?.get('n') ?? 0));
    return done > 0;
  }

  /** Record the `(:ParleyMigration {name})` mark, of `tenant` when the migration is one tenant's. */
  private async mark(name: string, tenant: string | null = null): Promise<void> {
    await this.db.write(`recording migration ${name}`, (tx) => tx.run(
      'MERGE (m:ParleyMigration {name: $name}) ON CREATE SET m.at = $now, m.tenant = $tenant', { name, tenant, now: new Date().toISOString() }));
  }

  /**
   * A uniqueness constraint on the migration marks, so that processes starting together (a server and its
   * workers) cannot MERGE two marks of one migration; duplicates left before it existed are folded first
   * (the constraint cannot be created over them). Best effort, once per store: a duplicate mark is harmless
   * (only "is there one" is read), so a failure here never stops a start.
   */
  private oneMarkPerMigration(): Promise<void> {
    this.marks ??= (async () => {
      await this.db.autoCommit('folding duplicate migration marks', `
        MATCH (m:ParleyMigration) WITH m.name AS name, collect(m) AS marks WHERE size(marks) > 1
        UNWIND tail(marks) AS extra DELETE extra`, {});
      await this.schemaQuery('CREATE CONSTRAINT parley_migration_name IF NOT EXISTS FOR (m:ParleyMigration) REQUIRE m.name IS UNIQUE');
    })().catch(() => undefined);
    return this.marks;
  }

  /** True when the server answers within `readyTimeoutMs`. */
  async ready(): Promise<boolean> {
    return this.db.ping(this.options.readyTimeoutMs ?? 2000);
  }

  /** Release this store's hold on the shared driver (the last store closes it). */
  async close(): Promise<void> {
    await this.shared.release();
  }

  /** Remove every node of the stored tenants under this store's prefix (tests), 1000 nodes per transaction. */
  async eraseAll(): Promise<void> {
    if (!this.prefix) throw new Error('eraseAll needs a tenantPrefix');
    await this.db.autoCommit('eraseAll', `
      MATCH (n) WHERE n.tenant STARTS WITH $prefix
      CALL { WITH n DETACH DELETE n } IN TRANSACTIONS OF 1000 ROWS`, { prefix: this.prefix });
  }

  /** The stored tenant id. */
  protected t(tenant: string): string {
    return `${this.prefix}${tenant}`;
  }
}

/** A schema statement refused because the same index or constraint exists (created by a concurrent twin). */
export function isSchemaAlreadyThere(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists'
    || code === 'Neo.ClientError.Schema.IndexAlreadyExists'
    || code === 'Neo.ClientError.Schema.ConstraintAlreadyExists';
}
