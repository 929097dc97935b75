import type { ManagedTransaction } from 'neo4j-driver';
import type {
  EntityIndex, EntityInput, EntityMemories, EntityName, EntityNeighbour, EntityRecord, LinkStrength, SchemaRecord, EntityWrites,
} from '../entity-index.js';
import type { TenantId } from '../types.js';
import { int, toNum, type Neo4jOptions } from './neo4j-connection.js';
import { Neo4jStoreBase, propRows, stringList, type Props } from './neo4j-store-base.js';
import { entityKey, newId } from '../core/ids.js';
import { linkNotes } from '../entity-index.js';
import { mergeMemoryLists, upsertKeys, type RankedMemory } from '../entity-merge.js';

/** Schema statements run once at start-up; each is idempotent. */
export const ENTITY_SCHEMA = [
  'CREATE CONSTRAINT parley_schema_key IF NOT EXISTS FOR (n:Schema) REQUIRE (n.tenant, n.id) IS UNIQUE',
  // Emergent schemas by name key (`entityKey`): two promotions of one subgraph at once (two processes) make one schema.
  'CREATE CONSTRAINT parley_schema_name_key IF NOT EXISTS FOR (n:Schema) REQUIRE (n.tenant, n.key) IS UNIQUE',
  'CREATE CONSTRAINT parley_entity_key IF NOT EXISTS FOR (n:Entity) REQUIRE (n.tenant, n.id) IS UNIQUE',
  'CREATE CONSTRAINT parley_entity_name_key IF NOT EXISTS FOR (n:Entity) REQUIRE (n.tenant, n.key) IS UNIQUE',
  'CREATE CONSTRAINT parley_entity_alias_key IF NOT EXISTS FOR (n:EntityAlias) REQUIRE (n.tenant, n.alias, n.entityId) IS UNIQUE',
  'CREATE CONSTRAINT parley_memory_ref_key IF NOT EXISTS FOR (n:MemoryRef) REQUIRE (n.tenant, n.id) IS UNIQUE',
  'CREATE CONSTRAINT parley_link_source_key IF NOT EXISTS FOR (n:EntityLinkSource) REQUIRE (n.tenant, n.id) IS UNIQUE',
  // One version node per tenant serialised every writer; now VERSION_SHARDS nodes share the count.
  'DROP CONSTRAINT parley_entity_version_key IF EXISTS',
  'CREATE CONSTRAINT parley_entity_version_shard_key IF NOT EXISTS FOR (n:EntityIndexVersion) REQUIRE (n.tenant, n.shard) IS UNIQUE',
  'CREATE INDEX parley_entity_schema IF NOT EXISTS FOR (n:Entity) ON (n.tenant, n.schemaId)',
  'CREATE INDEX parley_entity_alias IF NOT EXISTS FOR (n:EntityAlias) ON (n.tenant, n.alias)',
];

function toEntity(e: Props): EntityRecord {
  return {
    id: String(e.id), key: String(e.key), name: String(e.name), aliases: stringList(e.aliases),
    description: String(e.description ?? ''), schemaId: String(e.schemaId), memoryCount: toNum(e.memoryCount ?? 0),
    updatedAt: String(e.updatedAt),
    ...(typeof e.descriptionOrder === 'string' && e.descriptionOrder !== '' ? { descriptionOrder: e.descriptionOrder } : {}),
  };
}

function toSchema(s: Props): SchemaRecord {
  return {
    id: String(s.id), name: String(s.name), description: String(s.description ?? ''),
    origin: String(s.origin) as SchemaRecord['origin'], createdAt: String(s.createdAt),
  };
}

/**
 * How many `(:EntityIndexVersion)` nodes a tenant's write count is spread over: a write locks one,
 * chosen at random, so concurrent writers of one tenant rarely wait for each other on it.
 */
export const VERSION_SHARDS = 16;

/** Add one to the tenant's write count (one shard of it), inside the caller's transaction. */
async function bump(tx: ManagedTransaction, tenant: string): Promise<void> {
  await tx.run(`
    MERGE (v:EntityIndexVersion {tenant: $tenant, shard: $shard}) ON CREATE SET v.version = 0
    SET v.version = v.version + 1`, { tenant, shard: int(Math.floor(Math.random() * VERSION_SHARDS)) });
}

/** Index `aliases` of an entity (idempotent). */
async function writeAliases(tx: ManagedTransaction, tenant: string, entityId: string, aliases: string[]): Promise<void> {
  if (aliases.length === 0) return;
  await tx.run(`
    UNWIND $aliases AS alias
    MERGE (:EntityAlias {tenant: $tenant, alias: alias, entityId: $entityId})`, { tenant, entityId, aliases });
}

/**
 * The left brain's schema–entity index in Neo4j: `(:Schema)`, `(:Entity)` (its one schema as the
 * `schemaId` property, its aliases both as a list and as `(:EntityAlias)` lookup nodes),
 * `(:Entity)-[:LINK {strength, weight}]->(:Entity)` in both directions, and
 * `(:Entity)-[:ABOUT_MEMORY {kind, rank}]->(:MemoryRef {id})` holding only memory ids. An
 * `(:EntityIndexVersion)` nodes count writes per tenant (`VERSION_SHARDS` of them, summed). Every node carries `tenant`; every MATCH
 * names it. Same semantics as `SqliteEntityIndex`, except that memories and links of an entity id
 * that does not exist are not recorded.
 */
export class Neo4jEntityIndex extends Neo4jStoreBase implements EntityIndex {
  constructor(options: Neo4jOptions) {
    super(options, ENTITY_SCHEMA);
  }

  async ensureSchemas(tenant: TenantId, schemas: Omit<SchemaRecord, 'createdAt'>[]): Promise<void> {
    if (schemas.length === 0) return;
    await this.init();
    await this.db.write('ensureSchemas', (tx) => tx.run(`
      UNWIND $schemas AS s
      MERGE (n:Schema {tenant: $tenant, id: s.id})
      ON CREATE SET n.name = s.name, n.description = s.description, n.origin = s.origin, n.createdAt = $now`, {
      tenant: this.t(tenant), now: new Date().toISOString(),
      schemas: schemas.map((s) => ({ id: s.id, name: s.name, description: s.description, origin: s.origin })),
    }));
  }

  async listSchemas(tenant: TenantId): Promise<SchemaRecord[]> {
    await this.init();
    const found = await this.db.read('listSchemas', (tx) => propRows(tx,
      'MATCH (n:Schema {tenant: $tenant}) RETURN n {.*} AS n ORDER BY n.createdAt, n.id', { tenant: this.t(tenant) }));
    return found.map(toSchema);
  }

  async addSchema(tenant: TenantId, s: Omit<SchemaRecord, 'createdAt' | 'id'> & { id?: string }): Promise<SchemaRecord> {
    await this.init();
    const record: SchemaRecord = { id: s.id ?? newId('sch'), name: s.name, description: s.description, origin: s.origin, createdAt: new Date().toISOString() };
    const t = this.t(tenant);
    return this.db.write('addSchema', async (tx) => {
      if (s.origin === 'emergent') {
        // MERGE on the name key (unique): a twin promotion's schema is found and returned, never a second one made.
        const [n] = await propRows(tx, `
          MERGE (n:Schema {tenant: $tenant, key: $key})
          ON CREATE SET n.id = $id, n.name = $name, n.description = $description, n.origin = $origin, n.createdAt = $createdAt
          RETURN n {.*} AS n`, { tenant: t, key: entityKey(s.name), ...record });
        if (n?.id === record.id) await bump(tx, t);
        return toSchema(n!);
      }
      // The uniqueness constraint turns a duplicate id into PARLEY_ERR_CONFLICT, as SQLite's primary key does.
      await tx.run('CREATE (:Schema {tenant: $tenant, id: $id, name: $name, description: $description, origin: $origin, createdAt: $createdAt})', { tenant: t, ...record });
      await bump(tx, t);
      return record;
    });
  }

  async upsertEntity(tenant: TenantId, input: EntityInput): Promise<EntityRecord> {
    await this.init();
    const t = this.t(tenant);
    const { key, aliases } = upsertKeys(input);
    const now = new Date().toISOString();
    const order = input.descriptionOrder ?? null;
    const props = await this.db.write('upsertEntity', async (tx) => {
      let [existing] = await propRows(tx, 'MATCH (e:Entity {tenant: $tenant, key: $key}) RETURN e {.*} AS n', { tenant: t, key });
      existing ??= (await propRows(tx, `
        MATCH (a:EntityAlias {tenant: $tenant, alias: $key})
        MATCH (e:Entity {tenant: $tenant, id: a.entityId})
        RETURN e {.*} AS n ORDER BY n.id LIMIT 1`, { tenant: t, key }))[0];
      if (!existing) {
        // MERGE on the unique key: a concurrent writer's entity is found, not duplicated.
        const id = newId('ent');
        [existing] = await propRows(tx, `
          MERGE (e:Entity {tenant: $tenant, key: $key})
          ON CREATE SET e.id = $id, e.name = $name, e.aliases = $aliases, e.description = $description,
                        e.schemaId = $schemaId, e.memoryCount = 0, e.updatedAt = $now, e.memorySeq = 0, e.descriptionOrder = $order
          RETURN e {.*} AS n`, { tenant: t, key, id, name: input.name.trim(), aliases, description: input.description, schemaId: input.schemaId, now, order });
        if (existing?.id === id) {
          await writeAliases(tx, t, id, aliases);
          await bump(tx, t);
          return existing;
        }
      }
      const found = toEntity(existing!);
      // One conditional write, decided after the node's write lock is taken (the first SET): a concurrent upsert from
      // an earlier turn committed meanwhile keeps its description, whatever was read above (`describesEarlier`).
      const [updated] = await propRows(tx, `
        MATCH (e:Entity {tenant: $tenant, id: $id}) SET e.updatedAt = $now
        WITH e, e.descriptionOrder IS NOT NULL AND e.descriptionOrder <> '' AND $order IS NOT NULL AND $order < e.descriptionOrder AS earlier
        SET e.aliases = reduce(acc = coalesce(e.aliases, []), a IN $aliases | CASE WHEN a IN acc OR a = e.key THEN acc ELSE acc + a END)
        SET e += CASE WHEN earlier THEN $described ELSE {} END
        RETURN e {.*} AS n`,
      { tenant: t, id: found.id, aliases, now, order, described: { name: input.name.trim(), description: input.description, schemaId: input.schemaId, descriptionOrder: order } });
      await writeAliases(tx, t, found.id, toEntity(updated!).aliases);
      await bump(tx, t);
      return updated!;
    });
    return toEntity(props);
  }

  async getEntities(tenant: TenantId, ids: string[]): Promise<EntityRecord[]> {
    if (ids.length === 0) return [];
    await this.init();
    const found = await this.db.read('getEntities', (tx) => propRows(tx,
      'MATCH (e:Entity {tenant: $tenant}) WHERE e.id IN $ids RETURN e {.*} AS n ORDER BY n.id', { tenant: this.t(tenant), ids }));
    return found.map(toEntity);
  }

  async findByNames(tenant: TenantId, names: string[]): Promise<EntityRecord[]> {
    if (names.length === 0) return [];
    await this.init();
    const keys = [...new Set(names.map(entityKey))];
    const found = await this.db.read('findByNames', (tx) => propRows(tx, `
      CALL {
        MATCH (e:Entity {tenant: $tenant}) WHERE e.key IN $keys RETURN e
        UNION
        MATCH (a:EntityAlias {tenant: $tenant}) WHERE a.alias IN $keys
        MATCH (e:Entity {tenant: $tenant, id: a.entityId}) RETURN e
      }
      RETURN e {.*} AS n ORDER BY n.id`, { tenant: this.t(tenant), keys }));
    return found.map(toEntity);
  }

  async listNames(tenant: TenantId): Promise<EntityName[]> {
    await this.init();
    const found = await this.db.read('listNames', (tx) => propRows(tx,
      'MATCH (e:Entity {tenant: $tenant}) RETURN e {.id, .key, .aliases, .schemaId} AS n ORDER BY n.id', { tenant: this.t(tenant) }));
    return found.map((e) => ({ id: String(e.id), key: String(e.key), aliases: stringList(e.aliases), schemaId: String(e.schemaId) }));
  }

  async entitiesOfSchemas(tenant: TenantId, schemaIds: string[], limit: number): Promise<EntityRecord[]> {
    if (schemaIds.length === 0 || limit <= 0) return [];
    await this.init();
    const found = await this.db.read('entitiesOfSchemas', (tx) => propRows(tx, `
      MATCH (e:Entity {tenant: $tenant}) WHERE e.schemaId IN $schemaIds
      RETURN e {.*} AS n ORDER BY n.memoryCount DESC, n.id LIMIT $limit`, { tenant: this.t(tenant), schemaIds, limit: int(limit) }));
    return found.map(toEntity);
  }

  async setSchema(tenant: TenantId, entityIds: string[], schemaId: string): Promise<void> {
    await this.init();
    const t = this.t(tenant);
    await this.db.write('setSchema', async (tx) => {
      await tx.run('MATCH (e:Entity {tenant: $tenant}) WHERE e.id IN $ids SET e.schemaId = $schemaId', { tenant: t, ids: entityIds, schemaId });
      await bump(tx, t);
    });
  }

  async addMemories(tenant: TenantId, entityId: string, memories: Partial<EntityMemories>): Promise<void> {
    await this.init();
    const t = this.t(tenant);
    const wanted = new Map<string, 'fact' | 'utterance'>();
    for (const id of memories.factIds ?? []) if (!wanted.has(id)) wanted.set(id, 'fact');
    for (const id of memories.utteranceIds ?? []) if (!wanted.has(id)) wanted.set(id, 'utterance');
    await this.db.write('addMemories', async (tx) => {
      if (wanted.size > 0) {
        // Setting memorySeq takes the entity's write lock, so ranks stay unique under concurrent writers.
        const head = await tx.run(`
          MATCH (e:Entity {tenant: $tenant, id: $entityId})
          SET e.memorySeq = coalesce(e.memorySeq, 0)
          WITH e
          OPTIONAL MATCH (e)-[:ABOUT_MEMORY]->(m:MemoryRef {tenant: $tenant}) WHERE m.id IN $ids
          RETURN e.memorySeq AS seq, collect(m.id) AS known`, { tenant: t, entityId, ids: [...wanted.keys()] });
        const record = head.records[0];
        if (record) {
          const known = new Set((record.get('known') as unknown[]).map(String));
          const seq = toNum(record.get('seq'));
          const rows = [...wanted].filter(([id]) => !known.has(id)).map(([id, kind], i) => ({ id, kind, rank: int(seq + i + 1) }));
          if (rows.length > 0) {
            await tx.run(`
              MATCH (e:Entity {tenant: $tenant, id: $entityId})
              UNWIND $rows AS row
              MERGE (m:MemoryRef {tenant: $tenant, id: row.id})
              CREATE (e)-[:ABOUT_MEMORY {kind: row.kind, rank: row.rank}]->(m)
              WITH e, count(*) AS added
              SET e.memorySeq = e.memorySeq + added, e.memoryCount = coalesce(e.memoryCount, 0) + added`, { tenant: t, entityId, rows });
          }
        }
      }
      await bump(tx, t);
    });
  }

  async memoriesOf(tenant: TenantId, entityIds: string[], limit: number): Promise<EntityMemories> {
    if (entityIds.length === 0 || limit <= 0) return { factIds: [], utteranceIds: [] };
    await this.init();
    const ids = [...new Set(entityIds)];
    const result = await this.db.read('memoriesOf', (tx) => tx.run(`
      UNWIND $ids AS eid
      MATCH (e:Entity {tenant: $tenant, id: eid})-[r:ABOUT_MEMORY]->(m:MemoryRef {tenant: $tenant})
      WITH eid, r.rank AS rank, r.kind AS kind, m.id AS mid ORDER BY rank DESC
      WITH eid, collect({id: mid, kind: kind})[0..$limit] AS mems
      RETURN eid, mems`, { tenant: this.t(tenant), ids, limit: int(limit) }));
    const byEntity = new Map(result.records.map((r) => [String(r.get('eid')), r.get('mems') as RankedMemory[]]));
    return mergeMemoryLists(ids.map((id) => byEntity.get(id) ?? []), limit);
  }

  async entitiesOfMemories(tenant: TenantId, memoryIds: string[]): Promise<string[]> {
    if (memoryIds.length === 0) return [];
    await this.init();
    const result = await this.db.read('entitiesOfMemories', (tx) => tx.run(`
      MATCH (m:MemoryRef {tenant: $tenant}) WHERE m.id IN $ids
      MATCH (e:Entity {tenant: $tenant})-[:ABOUT_MEMORY]->(m)
      RETURN DISTINCT e.id AS id ORDER BY id`, { tenant: this.t(tenant), ids: memoryIds }));
    return result.records.map((r) => String(r.get('id')));
  }

  async removeMemories(tenant: TenantId, memoryIds: string[]): Promise<void> {
    if (memoryIds.length === 0) return;
    await this.init();
    const t = this.t(tenant);
    await this.db.write('removeMemories', async (tx) => {
      await tx.run(`
        MATCH (e:Entity {tenant: $tenant})-[r:ABOUT_MEMORY]->(m:MemoryRef {tenant: $tenant}) WHERE m.id IN $ids
        WITH e, collect(r) AS rs
        SET e.memoryCount = CASE WHEN e.memoryCount > size(rs) THEN e.memoryCount - size(rs) ELSE 0 END
        FOREACH (r IN rs | DELETE r)`, { tenant: t, ids: memoryIds });
      await tx.run('MATCH (m:MemoryRef {tenant: $tenant}) WHERE m.id IN $ids DETACH DELETE m', { tenant: t, ids: memoryIds });
      await bump(tx, t);
    });
  }

  async eraseMemories(tenant: TenantId, memoryIds: string[]): Promise<string[]> {
    if (memoryIds.length === 0) return [];
    await this.init();
    const t = this.t(tenant);
    const touched = await this.db.read('eraseMemories.touched', async (tx) => (await tx.run(`
      MATCH (e:Entity {tenant: $tenant})-[:ABOUT_MEMORY]->(m:MemoryRef {tenant: $tenant}) WHERE m.id IN $ids
      RETURN DISTINCT e.id AS id`, { tenant: t, ids: memoryIds })).records.map((r) => String(r.get('id'))));
    await this.removeMemories(tenant, memoryIds);
    await this.db.write('eraseMemories.sources', (tx) => tx.run(`
      MATCH (s:EntityLinkSource {tenant: $tenant}) WHERE s.id IN $ids DELETE s`, { tenant: t, ids: memoryIds }));
    if (touched.length === 0) return [];
    return this.db.write('eraseMemories.prune', async (tx) => {
      const res = await tx.run(`
        MATCH (e:Entity {tenant: $tenant}) WHERE e.id IN $ids AND NOT (e)-[:ABOUT_MEMORY]->()
        WITH e, e.id AS id DETACH DELETE e RETURN id`, { tenant: t, ids: touched });
      const pruned = res.records.map((r) => String(r.get('id')));
      // Their alias lookup nodes name them too.
      await tx.run('MATCH (a:EntityAlias {tenant: $tenant}) WHERE a.entityId IN $ids DELETE a', { tenant: t, ids: pruned });
      await bump(tx, t);
      return pruned;
    });
  }

  async entitiesDescribedBy(tenant: TenantId, texts: string[]): Promise<EntityRecord[]> {
    const wanted = texts.filter((x) => x.length > 0);
    if (wanted.length === 0) return [];
    await this.init();
    const found = await this.db.read('entitiesDescribedBy', (tx) => propRows(tx, `
      MATCH (e:Entity {tenant: $tenant}) WHERE any(x IN $texts WHERE e.description CONTAINS x)
      RETURN e {.*} AS n ORDER BY e.id`, { tenant: this.t(tenant), texts: wanted }));
    return found.map(toEntity);
  }

  async describe(tenant: TenantId, entityId: string, description: string): Promise<void> {
    await this.init();
    const t = this.t(tenant);
    await this.db.write('describe', async (tx) => {
      // Rewritten (erasure): no upsert takes it back to a turn's words.
      await tx.run('MATCH (e:Entity {tenant: $tenant, id: $id}) SET e.description = $description, e.descriptionOrder = null, e.updatedAt = $now',
        { tenant: t, id: entityId, description, now: new Date().toISOString() });
      await bump(tx, t);
    });
  }

  async deleteEntities(tenant: TenantId, entityIds: string[]): Promise<void> {
    if (entityIds.length === 0) return;
    await this.init();
    const t = this.t(tenant);
    await this.db.write('deleteEntities', async (tx) => {
      await tx.run('MATCH (a:EntityAlias {tenant: $tenant}) WHERE a.entityId IN $ids DELETE a', { tenant: t, ids: entityIds });
      // Their memory references go with them where no other entity holds one (a node of ids only, but an erased person's).
      const refs = await tx.run(`MATCH (e:Entity {tenant: $tenant})-[:ABOUT_MEMORY]->(m:MemoryRef {tenant: $tenant}) WHERE e.id IN $ids
        RETURN collect(DISTINCT m.id) AS ids`, { tenant: t, ids: entityIds });
      await tx.run('MATCH (e:Entity {tenant: $tenant}) WHERE e.id IN $ids DETACH DELETE e', { tenant: t, ids: entityIds });
      await tx.run('MATCH (m:MemoryRef {tenant: $tenant}) WHERE m.id IN $refs AND NOT (m)--() DELETE m',
        { tenant: t, refs: stringList(refs.records[0]?.get('ids')) });
      await bump(tx, t);
    });
  }

  async deleteSchema(tenant: TenantId, schemaId: string, moveTo: string): Promise<void> {
    await this.init();
    const t = this.t(tenant);
    await this.db.write('deleteSchema', async (tx) => {
      await tx.run('MATCH (e:Entity {tenant: $tenant, schemaId: $id}) SET e.schemaId = $moveTo', { tenant: t, id: schemaId, moveTo });
      await tx.run('MATCH (s:Schema {tenant: $tenant, id: $id}) DETACH DELETE s', { tenant: t, id: schemaId });
      await bump(tx, t);
    });
  }

  /**
   * Each write in turn, each its own transaction as `addMemories` and `link` are: one transaction
   * over many entities would take many node locks at once, where the single calls take at most two
   * in a fixed order and cannot deadlock. With a `source`, each link's transaction also notes the
   * link (`linkNotes`) on the source's `(:EntityLinkSource)` node and adds nothing when the note is
   * there.
   */
  async record(tenant: TenantId, writes: EntityWrites): Promise<void> {
    for (const m of writes.memories) await this.addMemories(tenant, m.entityId, { factIds: m.factIds ?? [], utteranceIds: m.utteranceIds ?? [] });
    const notes = linkNotes(writes.links);
    for (const [i, l] of writes.links.entries()) {
      await this.#link(tenant, l.a, l.b, l.strength, l.by ?? 1, writes.source === undefined ? null : { id: writes.source, key: notes[i]! });
    }
  }

  async link(tenant: TenantId, a: string, b: string, strength: LinkStrength, by = 1): Promise<void> {
    await this.#link(tenant, a, b, strength, by, null);
  }

  async #link(tenant: TenantId, a: string, b: string, strength: LinkStrength, by: number, source: { id: string; key: string } | null): Promise<void> {
    if (a === b) return;
    await this.init();
    const t = this.t(tenant);
    // Both directions get the same weight, so the pair is written in one order (smaller id first):
    // link(a, b) and link(b, a) take the two node locks in the same order and cannot deadlock.
    const [lo, hi] = a < b ? [a, b] : [b, a];
    await this.db.write('link', async (tx) => {
      if (source) {
        // The source's note of the links it added; one writer per source, so its lock is never contended.
        const added = await tx.run(`
          MERGE (s:EntityLinkSource {tenant: $tenant, id: $id}) ON CREATE SET s.links = []
          WITH s WHERE NOT $key IN s.links
          SET s.links = s.links + $key
          RETURN 1`, { tenant: t, id: source.id, key: source.key });
        if (added.records.length === 0) return;
      }
      // Locking both ends first keeps concurrent MERGEs from creating the same link twice.
      await tx.run(`
        MATCH (x:Entity {tenant: $tenant, id: $a})
        SET x._lock = true
        WITH x MATCH (y:Entity {tenant: $tenant, id: $b})
        SET y._lock = true
        MERGE (x)-[r1:LINK {strength: $strength}]->(y) ON CREATE SET r1.weight = 0.0
        SET r1.weight = r1.weight + $by
        MERGE (y)-[r2:LINK {strength: $strength}]->(x) ON CREATE SET r2.weight = 0.0
        SET r2.weight = r2.weight + $by
        REMOVE x._lock, y._lock`, { tenant: t, a: lo, b: hi, strength, by: Number(by) });
      await bump(tx, t);
    });
  }

  async neighbours(tenant: TenantId, ids: string[], limitPerEntity: number): Promise<EntityNeighbour[]> {
    if (ids.length === 0 || limitPerEntity <= 0) return [];
    await this.init();
    const result = await this.db.read('neighbours', (tx) => tx.run(`
      MATCH (x:Entity {tenant: $tenant})-[r:LINK]->(y:Entity {tenant: $tenant}) WHERE x.id IN $ids
      WITH x.id AS a, r.strength AS strength, r.weight AS weight, y.id AS b ORDER BY weight DESC, b
      WITH a, strength, collect({b: b, weight: weight})[0..$limit] AS top
      UNWIND top AS n
      RETURN a, strength, n.b AS b, n.weight AS weight ORDER BY strength, weight DESC, a, b`,
    { tenant: this.t(tenant), ids, limit: int(limitPerEntity) }));
    return result.records.map((r) => ({
      entityId: String(r.get('a')), neighbourId: String(r.get('b')), strength: r.get('strength') as LinkStrength, weight: toNum(r.get('weight')),
    }));
  }

  async version(tenant: TenantId): Promise<number> {
    await this.init();
    const result = await this.db.read('version', (tx) => tx.run(
      'MATCH (v:EntityIndexVersion {tenant: $tenant}) RETURN sum(v.version) AS version', { tenant: this.t(tenant) }));
    return toNum(result.records[0]?.get('version') ?? 0);
  }
}
