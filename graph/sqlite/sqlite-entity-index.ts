import type {
  EntityIndex, EntityInput, EntityMemories, EntityMemoryWrite, EntityName, EntityNeighbour, EntityRecord, EntityWrites,
  LinkStrength, SchemaRecord,
} from '../entity-index.js';
import { linkNotes } from '../entity-index.js';
import type { TenantId } from '../types.js';
import type Database from 'better-sqlite3';
import { addMissingColumns, columnStep, createStep, fromJson, migrateSchema, toJson, type SchemaStep, type SqliteDatabase } from './database.js';

type Statement = Database.Statement<unknown[]>;
import { entityKey, newId } from '../core/ids.js';
import { mergeAliases, mergeMemoryLists, upsertKeys, type RankedMemory } from '../entity-merge.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS lb_schemas (
  tenant TEXT NOT NULL, id TEXT NOT NULL, name TEXT NOT NULL, description TEXT NOT NULL,
  origin TEXT NOT NULL, created_at TEXT NOT NULL, PRIMARY KEY (tenant, id));
CREATE TABLE IF NOT EXISTS lb_entities (
  tenant TEXT NOT NULL, id TEXT NOT NULL, key TEXT NOT NULL, name TEXT NOT NULL,
  aliases TEXT NOT NULL DEFAULT '[]', description TEXT NOT NULL, schema_id TEXT NOT NULL,
  memory_count INTEGER NOT NULL DEFAULT 0, updated_at TEXT NOT NULL,
  PRIMARY KEY (tenant, id), UNIQUE (tenant, key));
CREATE INDEX IF NOT EXISTS lb_entities_schema ON lb_entities (tenant, schema_id, memory_count);
CREATE TABLE IF NOT EXISTS lb_aliases (
  tenant TEXT NOT NULL, alias TEXT NOT NULL, entity_id TEXT NOT NULL, PRIMARY KEY (tenant, alias, entity_id));
CREATE TABLE IF NOT EXISTS lb_memories (
  tenant TEXT NOT NULL, entity_id TEXT NOT NULL, memory_id TEXT NOT NULL, kind TEXT NOT NULL,
  rank INTEGER NOT NULL, PRIMARY KEY (tenant, entity_id, memory_id));
CREATE INDEX IF NOT EXISTS lb_memories_memory ON lb_memories (tenant, memory_id);
CREATE INDEX IF NOT EXISTS lb_memories_rank ON lb_memories (tenant, entity_id, rank);
CREATE TABLE IF NOT EXISTS lb_links (
  tenant TEXT NOT NULL, a TEXT NOT NULL, b TEXT NOT NULL, strength TEXT NOT NULL, weight REAL NOT NULL,
  PRIMARY KEY (tenant, a, b, strength));
CREATE TABLE IF NOT EXISTS lb_link_notes (
  tenant TEXT NOT NULL, source TEXT NOT NULL, note TEXT NOT NULL, PRIMARY KEY (tenant, source, note));
CREATE TABLE IF NOT EXISTS lb_versions (tenant TEXT PRIMARY KEY, version INTEGER NOT NULL);
`;

interface EntityRow {
  id: string; key: string; name: string; aliases: string; description: string; schema_id: string;
  memory_count: number; updated_at: string; description_order: string | null;
}
interface SchemaRow { id: string; name: string; description: string; origin: string; created_at: string }


function toEntity(r: EntityRow): EntityRecord {
  return {
    id: r.id, key: r.key, name: r.name, aliases: fromJson<string[]>(r.aliases, []), description: r.description,
    schemaId: r.schema_id, memoryCount: r.memory_count, updatedAt: r.updated_at,
    ...(r.description_order ? { descriptionOrder: r.description_order } : {}),
  };
}

function toSchema(r: SchemaRow): SchemaRecord {
  return { id: r.id, name: r.name, description: r.description, origin: r.origin as SchemaRecord['origin'], createdAt: r.created_at };
}

/**
 * Emergent schemas carry `key` (their name as `entityKey` makes it), unique per tenant, so a promotion made twice is
 * one schema; seeds have none. Added to a file of an older build on open, in one transaction (a crash part-way leaves
 * the file as it was; a file that has them takes no write lock: `migrateSchema`): its emergent schemas get their keys,
 * and those whose names make one key are merged into the oldest, their entities moved to it (`mergeUnkeyedSchemas`).
 */
const SCHEMA_KEY_STEPS: SchemaStep[] = [
  columnStep('lb_schemas', 'key', 'TEXT'),
  {
    done: (db) => db.prepare("SELECT 1 FROM lb_schemas WHERE origin = 'emergent' AND key IS NULL LIMIT 1").get() === undefined,
    apply: mergeUnkeyedSchemas,
  },
  createStep('CREATE UNIQUE INDEX IF NOT EXISTS lb_schemas_key ON lb_schemas (tenant, key) WHERE key IS NOT NULL'),
];

/**
 * Give every emergent schema without a key its key; one whose key the tenant already holds (by another schema, keyed
 * or not: the oldest unkeyed one takes it first) is merged into the holder: entities shelved under it move there, then
 * it goes.
 */
function mergeUnkeyedSchemas(db: SqliteDatabase): void {
  const unkeyed = db.prepare(`SELECT tenant, id, name, created_at FROM lb_schemas WHERE origin = 'emergent' AND key IS NULL
    ORDER BY tenant, created_at, id`).all() as { tenant: string; id: string; name: string; created_at: string }[];
  const holder = db.prepare('SELECT id FROM lb_schemas WHERE tenant = ? AND key = ?');
  const setKey = db.prepare('UPDATE lb_schemas SET key = ? WHERE tenant = ? AND id = ?');
  const moveEntities = db.prepare('UPDATE lb_entities SET schema_id = ? WHERE tenant = ? AND schema_id = ?');
  const drop = db.prepare('DELETE FROM lb_schemas WHERE tenant = ? AND id = ?');
  const bump = db.prepare('INSERT INTO lb_versions (tenant, version) VALUES (?, 1) ON CONFLICT (tenant) DO UPDATE SET version = version + 1');
  for (const s of unkeyed) {
    const key = entityKey(s.name);
    const held = holder.get(s.tenant, key) as { id: string } | undefined;
    if (!held) {
      setKey.run(key, s.tenant, s.id);
      continue;
    }
    moveEntities.run(held.id, s.tenant, s.id);
    drop.run(s.tenant, s.id);
    bump.run(s.tenant);
  }
}

/**
 * `lb_entities.description_order` (`EntityInput.descriptionOrder`), added to a file of an older build on open (once,
 * when two processes open it at once: `addMissingColumns`); its entities keep theirs.
 */
function addDescriptionOrder(db: SqliteDatabase): void {
  addMissingColumns(db, 'lb_entities', [{ column: 'description_order', decl: 'TEXT' }]);
}

/** `describesEarlier` in SQL: an upsert's turn (`@order`) precedes the one the row's description is from. */
const EARLIER = "(description_order IS NOT NULL AND description_order <> '' AND @order IS NOT NULL AND @order < description_order)";

/** The left brain in the embedded SQLite file (tables `lb_*`, every row tenant-scoped). */
export class SqliteEntityIndex implements EntityIndex {
  readonly #db: SqliteDatabase;

  /** The writes `record` repeats many times per utterance, prepared once. */
  readonly #stmts: { addMemory: Statement; countMemories: Statement; link: Statement; bump: Statement; linkNote: Statement };

  constructor(db: SqliteDatabase) {
    this.#db = db;
    db.exec(SCHEMA);
    migrateSchema(db, SCHEMA_KEY_STEPS);
    addDescriptionOrder(db);
    this.#stmts = {
      addMemory: db.prepare(`INSERT OR IGNORE INTO lb_memories (tenant, entity_id, memory_id, kind, rank)
        VALUES (?, ?, ?, ?, (SELECT COALESCE(MAX(rank), 0) + 1 FROM lb_memories WHERE tenant = ? AND entity_id = ?))`),
      countMemories: db.prepare('UPDATE lb_entities SET memory_count = memory_count + ? WHERE tenant = ? AND id = ?'),
      link: db.prepare(`INSERT INTO lb_links (tenant, a, b, strength, weight) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (tenant, a, b, strength) DO UPDATE SET weight = weight + excluded.weight`),
      linkNote: db.prepare('INSERT OR IGNORE INTO lb_link_notes (tenant, source, note) VALUES (?, ?, ?)'),
      bump: db.prepare(`INSERT INTO lb_versions (tenant, version) VALUES (?, 1)
        ON CONFLICT (tenant) DO UPDATE SET version = version + 1`),
    };
  }

  async ensureSchemas(tenant: TenantId, schemas: Omit<SchemaRecord, 'createdAt'>[]): Promise<void> {
    const insert = this.#db.prepare(`INSERT OR IGNORE INTO lb_schemas (tenant, id, name, description, origin, created_at)
      VALUES (?, ?, ?, ?, ?, ?)`);
    const now = new Date().toISOString();
    this.#db.transaction(() => {
      for (const s of schemas) insert.run(tenant, s.id, s.name, s.description, s.origin, now);
    })();
  }

  async listSchemas(tenant: TenantId): Promise<SchemaRecord[]> {
    const rows = this.#db.prepare('SELECT * FROM lb_schemas WHERE tenant = ? ORDER BY created_at, id').all(tenant) as SchemaRow[];
    return rows.map(toSchema);
  }

  async addSchema(tenant: TenantId, s: Omit<SchemaRecord, 'createdAt' | 'id'> & { id?: string }): Promise<SchemaRecord> {
    const record: SchemaRecord = { id: s.id ?? newId('sch'), name: s.name, description: s.description, origin: s.origin, createdAt: new Date().toISOString() };
    const key = s.origin === 'emergent' ? entityKey(s.name) : null;
    const add = this.#db.transaction((): SchemaRecord => {
      // An emergent schema of that name promoted already (by a twin promotion): that one, not a second.
      const held = key === null ? undefined
        : this.#db.prepare('SELECT * FROM lb_schemas WHERE tenant = ? AND key = ?').get(tenant, key) as SchemaRow | undefined;
      if (held) return toSchema(held);
      this.#db.prepare(`INSERT INTO lb_schemas (tenant, id, name, description, origin, created_at, key) VALUES (?, ?, ?, ?, ?, ?, ?)`)
        .run(tenant, record.id, record.name, record.description, record.origin, record.createdAt, key);
      this.#bump(tenant);
      return record;
    });
    return add();
  }

  async upsertEntity(tenant: TenantId, input: EntityInput): Promise<EntityRecord> {
    const { key, aliases } = upsertKeys(input);
    const now = new Date().toISOString();
    const run = this.#db.transaction((): EntityRow => {
      const existing = (this.#db.prepare('SELECT * FROM lb_entities WHERE tenant = ? AND key = ?').get(tenant, key) as EntityRow | undefined)
        ?? (this.#db.prepare(`SELECT e.* FROM lb_aliases a JOIN lb_entities e ON e.tenant = a.tenant AND e.id = a.entity_id
            WHERE a.tenant = ? AND a.alias = ? LIMIT 1`).get(tenant, key) as EntityRow | undefined);
      if (existing) {
        const merged = mergeAliases({ key: existing.key, aliases: fromJson<string[]>(existing.aliases, []) }, aliases);
        // One conditional write: the description moves only to an earlier turn than the one the row holds as written
        // (`describesEarlier`, said in SQL), whatever was read above.
        const row = this.#db.prepare(`UPDATE lb_entities SET aliases = @aliases, updated_at = @updated_at,
            name = CASE WHEN ${EARLIER} THEN @name ELSE name END, description = CASE WHEN ${EARLIER} THEN @description ELSE description END,
            schema_id = CASE WHEN ${EARLIER} THEN @schema_id ELSE schema_id END,
            description_order = CASE WHEN ${EARLIER} THEN @order ELSE description_order END
          WHERE tenant = @tenant AND id = @id RETURNING *`).get({
          tenant, id: existing.id, aliases: toJson(merged), updated_at: now, name: input.name.trim(), description: input.description,
          schema_id: input.schemaId, order: input.descriptionOrder ?? null,
        }) as EntityRow;
        this.#writeAliases(tenant, existing.id, merged);
        this.#bump(tenant);
        return row;
      }
      const row: EntityRow = {
        id: newId('ent'), key, name: input.name.trim(), aliases: toJson(aliases), description: input.description,
        schema_id: input.schemaId, memory_count: 0, updated_at: now, description_order: input.descriptionOrder ?? null,
      };
      this.#db.prepare(`INSERT INTO lb_entities (tenant, id, key, name, aliases, description, schema_id, memory_count, updated_at, description_order)
        VALUES (@tenant, @id, @key, @name, @aliases, @description, @schema_id, @memory_count, @updated_at, @description_order)`).run({ tenant, ...row });
      this.#writeAliases(tenant, row.id, aliases);
      this.#bump(tenant);
      return row;
    });
    const row = run();
    return toEntity(row);
  }

  async getEntities(tenant: TenantId, ids: string[]): Promise<EntityRecord[]> {
    if (ids.length === 0) return [];
    const rows = this.#db.prepare('SELECT * FROM lb_entities WHERE tenant = ? AND id IN (SELECT value FROM json_each(?))')
      .all(tenant, toJson(ids)) as EntityRow[];
    return rows.map(toEntity);
  }

  async findByNames(tenant: TenantId, names: string[]): Promise<EntityRecord[]> {
    if (names.length === 0) return [];
    const keys = toJson([...new Set(names.map(entityKey))]);
    // The names drive the lookups (CROSS JOIN keeps json_each outside): without it SQLite scans every
    // entity of the tenant against a bloom filter, a cost that grows with the conversation.
    const rows = this.#db.prepare(`SELECT e.* FROM lb_entities e WHERE e.tenant = @tenant AND e.id IN (
        SELECT x.id FROM json_each(@keys) j CROSS JOIN lb_entities x WHERE x.tenant = @tenant AND x.key = j.value
        UNION SELECT a.entity_id FROM json_each(@keys) j CROSS JOIN lb_aliases a WHERE a.tenant = @tenant AND a.alias = j.value)
      ORDER BY e.id`).all({ tenant, keys }) as EntityRow[];
    return rows.map(toEntity);
  }

  async listNames(tenant: TenantId): Promise<EntityName[]> {
    const rows = this.#db.prepare('SELECT id, key, aliases, schema_id FROM lb_entities WHERE tenant = ? ORDER BY id')
      .all(tenant) as Pick<EntityRow, 'id' | 'key' | 'aliases' | 'schema_id'>[];
    return rows.map((r) => ({ id: r.id, key: r.key, aliases: fromJson<string[]>(r.aliases, []), schemaId: r.schema_id }));
  }

  async entitiesOfSchemas(tenant: TenantId, schemaIds: string[], limit: number): Promise<EntityRecord[]> {
    if (schemaIds.length === 0 || limit <= 0) return [];
    const rows = this.#db.prepare(`SELECT * FROM lb_entities WHERE tenant = ? AND schema_id IN (SELECT value FROM json_each(?))
      ORDER BY memory_count DESC, id LIMIT ?`).all(tenant, toJson(schemaIds), limit) as EntityRow[];
    return rows.map(toEntity);
  }

  async setSchema(tenant: TenantId, entityIds: string[], schemaId: string): Promise<void> {
    this.#db.prepare('UPDATE lb_entities SET schema_id = ? WHERE tenant = ? AND id IN (SELECT value FROM json_each(?))')
      .run(schemaId, tenant, toJson(entityIds));
    this.#bump(tenant);
  }

  async addMemories(tenant: TenantId, entityId: string, memories: Partial<EntityMemories>): Promise<void> {
    this.#db.transaction(() => this.#addMemories(tenant, { entityId, ...memories }))();
  }

  async record(tenant: TenantId, writes: EntityWrites): Promise<void> {
    this.#db.transaction(() => {
      for (const m of writes.memories) this.#addMemories(tenant, m);
      // One transaction: a link's note is kept exactly when its weight is added.
      const notes = writes.source === undefined ? null : linkNotes(writes.links);
      writes.links.forEach((l, i) => {
        if (notes && this.#stmts.linkNote.run(tenant, writes.source, notes[i]).changes === 0) return;
        this.#link(tenant, l.a, l.b, l.strength, l.by ?? 1);
      });
    })();
  }

  async memoriesOf(tenant: TenantId, entityIds: string[], limit: number): Promise<EntityMemories> {
    if (entityIds.length === 0 || limit <= 0) return { factIds: [], utteranceIds: [] };
    // One indexed range scan per entity (newest first), merged round-robin so every entity contributes.
    const stmt = this.#db.prepare(`SELECT memory_id AS id, kind FROM lb_memories INDEXED BY lb_memories_rank
      WHERE tenant = ? AND entity_id = ? ORDER BY rank DESC LIMIT ?`);
    const lists = [...new Set(entityIds)].map((id) => stmt.all(tenant, id, limit) as RankedMemory[]);
    return mergeMemoryLists(lists, limit);
  }

  async entitiesOfMemories(tenant: TenantId, memoryIds: string[]): Promise<string[]> {
    if (memoryIds.length === 0) return [];
    // By memory id through its index: left to itself SQLite scans the tenant's every memory row.
    const rows = this.#db.prepare(`SELECT DISTINCT entity_id FROM lb_memories INDEXED BY lb_memories_memory
      WHERE tenant = ? AND memory_id IN (SELECT value FROM json_each(?)) ORDER BY entity_id`).all(tenant, toJson(memoryIds)) as { entity_id: string }[];
    return rows.map((r) => r.entity_id);
  }

  async removeMemories(tenant: TenantId, memoryIds: string[]): Promise<void> {
    if (memoryIds.length === 0) return;
    const ids = toJson(memoryIds);
    this.#db.transaction(() => {
      const counts = this.#db.prepare(`SELECT entity_id, COUNT(*) AS n FROM lb_memories WHERE tenant = ? AND memory_id IN (SELECT value FROM json_each(?))
        GROUP BY entity_id`).all(tenant, ids) as { entity_id: string; n: number }[];
      const dec = this.#db.prepare('UPDATE lb_entities SET memory_count = MAX(0, memory_count - ?) WHERE tenant = ? AND id = ?');
      for (const c of counts) dec.run(c.n, tenant, c.entity_id);
      this.#db.prepare('DELETE FROM lb_memories WHERE tenant = ? AND memory_id IN (SELECT value FROM json_each(?))').run(tenant, ids);
    })();
    this.#bump(tenant);
  }

  async eraseMemories(tenant: TenantId, memoryIds: string[]): Promise<string[]> {
    if (memoryIds.length === 0) return [];
    const touched = this.#db.prepare(`SELECT DISTINCT entity_id FROM lb_memories WHERE tenant = ?
      AND memory_id IN (SELECT value FROM json_each(?))`).all(tenant, toJson(memoryIds)) as { entity_id: string }[];
    await this.removeMemories(tenant, memoryIds);
    this.#db.prepare('DELETE FROM lb_link_notes WHERE tenant = ? AND source IN (SELECT value FROM json_each(?))').run(tenant, toJson(memoryIds));
    const empty = touched.map((r) => r.entity_id).filter((id) =>
      this.#db.prepare('SELECT 1 FROM lb_memories WHERE tenant = ? AND entity_id = ? LIMIT 1').get(tenant, id) === undefined);
    await this.deleteEntities(tenant, empty);
    return empty;
  }

  async entitiesDescribedBy(tenant: TenantId, texts: string[]): Promise<EntityRecord[]> {
    const wanted = texts.filter((t) => t.length > 0);
    if (wanted.length === 0) return [];
    const rows = this.#db.prepare(`SELECT * FROM lb_entities e WHERE e.tenant = ?
      AND EXISTS (SELECT 1 FROM json_each(?) j WHERE instr(e.description, j.value) > 0) ORDER BY e.id`).all(tenant, toJson(wanted)) as EntityRow[];
    return rows.map(toEntity);
  }

  async describe(tenant: TenantId, entityId: string, description: string): Promise<void> {
    // Rewritten (erasure): no upsert takes it back to a turn's words.
    this.#db.prepare('UPDATE lb_entities SET description = ?, description_order = NULL, updated_at = ? WHERE tenant = ? AND id = ?')
      .run(description, new Date().toISOString(), tenant, entityId);
    this.#bump(tenant);
  }

  async deleteEntities(tenant: TenantId, entityIds: string[]): Promise<void> {
    if (entityIds.length === 0) return;
    this.#db.transaction(() => {
      for (const id of entityIds) {
        this.#db.prepare('DELETE FROM lb_aliases WHERE tenant = ? AND entity_id = ?').run(tenant, id);
        this.#db.prepare('DELETE FROM lb_memories WHERE tenant = ? AND entity_id = ?').run(tenant, id);
        this.#db.prepare('DELETE FROM lb_links WHERE tenant = ? AND (a = ? OR b = ?)').run(tenant, id, id);
        this.#db.prepare('DELETE FROM lb_entities WHERE tenant = ? AND id = ?').run(tenant, id);
      }
      this.#bump(tenant);
    })();
  }

  async deleteSchema(tenant: TenantId, schemaId: string, moveTo: string): Promise<void> {
    this.#db.transaction(() => {
      this.#db.prepare('UPDATE lb_entities SET schema_id = ? WHERE tenant = ? AND schema_id = ?').run(moveTo, tenant, schemaId);
      this.#db.prepare('DELETE FROM lb_schemas WHERE tenant = ? AND id = ?').run(tenant, schemaId);
      this.#bump(tenant);
    })();
  }

  async link(tenant: TenantId, a: string, b: string, strength: LinkStrength, by = 1): Promise<void> {
    this.#db.transaction(() => this.#link(tenant, a, b, strength, by))();
  }

  async neighbours(tenant: TenantId, ids: string[], limitPerEntity: number): Promise<EntityNeighbour[]> {
    if (ids.length === 0 || limitPerEntity <= 0) return [];
    const rows = this.#db.prepare(`SELECT a, b, strength, weight FROM (
        SELECT a, b, strength, weight, ROW_NUMBER() OVER (PARTITION BY a, strength ORDER BY weight DESC, b) AS n
        FROM lb_links WHERE tenant = ? AND a IN (SELECT value FROM json_each(?)))
      WHERE n <= ? ORDER BY strength, weight DESC, a, b`).all(tenant, toJson(ids), limitPerEntity) as
      { a: string; b: string; strength: LinkStrength; weight: number }[];
    return rows.map((r) => ({ entityId: r.a, neighbourId: r.b, strength: r.strength, weight: r.weight }));
  }

  async version(tenant: TenantId): Promise<number> {
    // Read every time: another process (a worker) may have written since.
    const row = this.#db.prepare('SELECT version FROM lb_versions WHERE tenant = ?').get(tenant) as { version: number } | undefined;
    return row?.version ?? 0;
  }

  async ready(): Promise<boolean> {
    return this.#db.open;
  }

  /** The database handle belongs to the caller. */
  async close(): Promise<void> {}

  // Writers called inside a transaction; each bumps the version as its public call always did.

  #addMemories(tenant: TenantId, m: EntityMemoryWrite): void {
    const insert = this.#stmts.addMemory;
    let added = 0;
    for (const id of m.factIds ?? []) added += insert.run(tenant, m.entityId, id, 'fact', tenant, m.entityId).changes;
    for (const id of m.utteranceIds ?? []) added += insert.run(tenant, m.entityId, id, 'utterance', tenant, m.entityId).changes;
    if (added > 0) {
      this.#stmts.countMemories.run(added, tenant, m.entityId);
    }
    this.#bump(tenant);
  }

  #link(tenant: TenantId, a: string, b: string, strength: LinkStrength, by: number): void {
    if (a === b) return;
    const upsert = this.#stmts.link;
    upsert.run(tenant, a, b, strength, by);
    upsert.run(tenant, b, a, strength, by);
    this.#bump(tenant);
  }

  #writeAliases(tenant: TenantId, entityId: string, aliases: string[]): void {
    const insert = this.#db.prepare('INSERT OR IGNORE INTO lb_aliases (tenant, alias, entity_id) VALUES (?, ?, ?)');
    for (const a of aliases) insert.run(tenant, a, entityId);
  }

  #bump(tenant: TenantId): void {
    this.#stmts.bump.run(tenant);
  }
}
