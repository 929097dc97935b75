import {
  layerOfKind, type ErasedMemory, type Fact, type FactFilter, type FactPatch, type MemoryStore,
  type ForgottenPersona, type NewFact, type PersonaEvidence, type PersonaNode, type ProcessedBy, type RestoreHow,
} from '../memory-store.js';
import type { TenantId } from '../types.js';
import { backfillAddressees, int, toNum, type Neo4jOptions } from './neo4j-connection.js';
import { addEvidence, firstEvidence, personaState, stateProps, toPersona } from './neo4j-persona.js';
import { withoutForgotten } from '../forgotten-evidence.js';
import { erasedFactIds, erasedPersonaIds, eraseMemories, FACTS_OF_PARTICIPANT, relabelMemories, RELINK_FACTS } from './neo4j-participant-memories.js';
import { Neo4jStoreBase, propRows, stringList } from './neo4j-store-base.js';
import { newId } from '../core/ids.js';
import { MEMORY_SCHEMA, toFact } from './neo4j-memory-rows.js';

let lastOrd = 0;

/**
 * `n` insertion numbers for new facts: microseconds since the epoch (the clock's ms times 1000),
 * strictly increasing within this process. No shared counter node, so concurrent writers of one
 * tenant never wait on each other for an id; across processes, facts written in the same
 * millisecond order arbitrarily but stably. Older stores' small counter values sort before these.
 */
function nextOrds(n: number): number[] {
  const base = Math.max(Date.now() * 1000, lastOrd + 1);
  lastOrd = base + n - 1;
  return Array.from({ length: n }, (_, i) => base + i);
}

/**
 * `MemoryStore` in Neo4j: `(:Fact)` nodes with `[:SUPERSEDES]` (newer to older) and
 * `[:SAID_BY]` / `[:ABOUT]` / `[:ADDRESSED_TO]` edges to `(:Participant)` nodes of the graph store;
 * `(:Participant)-[:HAS_PERSONA]->(:PersonaNode)`; `(:ProcessedUtterance)` bookkeeping. Ids stay
 * properties too (the record of truth), so facts about participants not created yet still work;
 * edges exist where both ends do. Every node carries `tenant`; every MATCH names it. Facts get a
 * insertion number `ord` (see `nextOrds`) to break ordering ties as SQLite's rowid does. Same semantics as `SqliteMemoryStore`.
 */
export class Neo4jMemoryStore extends Neo4jStoreBase implements MemoryStore {
  private migrated: Promise<void> | undefined;

  constructor(options: Neo4jOptions) {
    super(options, MEMORY_SCHEMA);
  }

  /** The schema, then ADDRESSED edges for facts stored before them (once per database). */
  override async init(): Promise<void> {
    await super.init();
    this.migrated ??= this.migrateOnce('fact-addressees', backfillAddressees('Fact')).catch((err: unknown) => {
      this.migrated = undefined;
      throw err;
    });
    await this.migrated;
  }

  async addFacts(tenant: TenantId, facts: NewFact[]): Promise<Fact[]> {
    if (facts.length === 0) return [];
    await this.init();
    const t = this.t(tenant);
    const now = new Date().toISOString();
    const ids = facts.map((f) => f.id ?? newId('f'));
    const ords = nextOrds(facts.length);
    await this.db.write('addFacts', async (tx) => {
      const rows = facts.map((f, i) => ({
        id: ids[i]!, ord: int(ords[i]!), content: f.content, speakerId: f.speakerId, addresseeIds: f.addresseeIds,
        subjectId: f.subjectId, kind: f.kind, layer: layerOfKind(f.kind), slot: f.slot, value: f.value, time: f.time,
        referIds: f.referIds, validFrom: f.validFrom, supersedes: f.supersedes, confidence: f.confidence,
        sessionId: f.sessionId, source: f.source, createdAt: now, eventTime: f.eventTime ?? null, validUntil: f.validUntil ?? null,
        planObject: f.planObject ? JSON.stringify(f.planObject) : null,
      }));
      await tx.run(`
        UNWIND $rows AS row
        MERGE (f:Fact {tenant: $tenant, id: row.id})
        ON CREATE SET f.ord = row.ord, f.content = row.content, f.speakerId = row.speakerId,
          f.addresseeIds = row.addresseeIds, f.subjectId = row.subjectId, f.kind = row.kind, f.layer = row.layer,
          f.slot = row.slot, f.value = row.value, f.time = row.time, f.referIds = row.referIds, f.validFrom = row.validFrom,
          f.supersedes = row.supersedes, f.confidence = row.confidence, f.sessionId = row.sessionId, f.source = row.source,
          f.createdAt = row.createdAt, f.eventTime = row.eventTime, f.validUntil = row.validUntil,
          f.planObject = row.planObject
        WITH f
        OPTIONAL MATCH (old:Fact {tenant: $tenant, id: f.supersedes})
        FOREACH (o IN CASE WHEN old IS NULL THEN [] ELSE [old] END | MERGE (f)-[:SUPERSEDES]->(o))`, { tenant: t, rows });
      await tx.run(RELINK_FACTS, { tenant: t, ids });
    });
    const byId = new Map((await this.factsById(t, ids)).map((f) => [f.id, f]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async getFact(tenant: TenantId, id: string): Promise<Fact | null> {
    await this.init();
    return (await this.factsById(this.t(tenant), [id]))[0] ?? null;
  }

  async factsFromUtterances(tenant: TenantId, utteranceIds: string[]): Promise<Fact[]> {
    if (utteranceIds.length === 0) return [];
    await this.init();
    const found = await this.db.read('factsFromUtterances', (tx) => propRows(tx,
      'MATCH (f:Fact {tenant: $tenant}) WHERE any(r IN f.referIds WHERE r IN $ids) RETURN f {.*} AS n', { tenant: this.t(tenant), ids: utteranceIds }));
    return found.map(toFact);
  }

  async listFacts(tenant: TenantId, filter: FactFilter = {}): Promise<Fact[]> {
    if (filter.ids !== undefined && filter.ids.length === 0) return [];
    await this.init();
    // Only fixed clauses are spliced in; every value travels as a parameter.
    const where: string[] = [];
    let match = 'MATCH (f:Fact {tenant: $tenant})';
    if (!filter.includeHistory) where.push('f.validTo IS NULL');
    if (filter.participantId !== undefined) {
      const role = filter.role ?? 'any';
      if (role === 'speaker') where.push('f.speakerId = $participantId');
      else if (role === 'subject') where.push('f.subjectId = $participantId');
      else if (role === 'addressee') match = 'MATCH (:Addressee {tenant: $tenant, id: $participantId})<-[:ADDRESSED]-(f:Fact)';
      else match = `${FACTS_OF_PARTICIPANT.replaceAll('$pid', '$participantId')} WITH f`;
    }
    if (filter.sessionId !== undefined) where.push('f.sessionId = $sessionId');
    if (filter.layer !== undefined) where.push('f.layer = $layer');
    if (filter.kind !== undefined) where.push('f.kind = $kind');
    if (filter.slot !== undefined) where.push('f.slot = $slot');
    if (filter.slotFamily !== undefined) {
      // A prefix seek of the (tenant, slot) index, less the slots that only begin like the kind ("order_numbers").
      where.push('f.slot STARTS WITH $slotFamily AND (f.slot = $slotFamily OR f.slot STARTS WITH $slotFamilyKeyed)');
      // Else the planner seeks the subject's facts, every one of them, and filters (the slot index is the narrower).
      if (filter.participantId === undefined) match += ' USING INDEX f:Fact(tenant, slot)';
    }
    if (filter.subjectId !== undefined) where.push('f.subjectId = $subjectId');
    if (filter.endedBy !== undefined) where.push('f.validUntil IS NOT NULL AND f.validUntil <= $endedBy');
    if (filter.endedAfter !== undefined) where.push('f.validUntil > $endedAfter');
    if (filter.ids !== undefined) where.push('f.id IN $ids');
    const limit = Math.min(Math.max(filter.limit ?? 100, 1), 1000);
    const offset = Math.max(0, Math.floor(filter.offset ?? 0));
    const found = await this.db.read('listFacts', (tx) => propRows(tx, `
      ${match} ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
      RETURN f {.*} AS n ORDER BY n.time DESC, n.createdAt DESC, n.ord DESC, n.id DESC SKIP $offset LIMIT $limit`, {
      tenant: this.t(tenant), participantId: filter.participantId ?? null, sessionId: filter.sessionId ?? null,
      layer: filter.layer ?? null, kind: filter.kind ?? null, slot: filter.slot ?? null,
      slotFamily: filter.slotFamily ?? null, slotFamilyKeyed: filter.slotFamily === undefined ? null : `${filter.slotFamily}:`,
      subjectId: filter.subjectId ?? null, ids: filter.ids ?? null, endedBy: filter.endedBy ?? null, endedAfter: filter.endedAfter ?? null,
      offset: int(offset), limit: int(limit),
    }));
    return found.map(toFact);
  }

  async closeFact(tenant: TenantId, id: string, validTo: string, supersededBy: string | null): Promise<Fact | null> {
    await this.init();
    const [f] = await this.db.write('closeFact', (tx) => propRows(tx, `
      MATCH (f:Fact {tenant: $tenant, id: $id}) WHERE f.validTo IS NULL
      SET f.validTo = CASE WHEN $supersededBy IS NOT NULL AND $validTo < f.validFrom THEN f.validFrom ELSE $validTo END,
          f.supersededBy = $supersededBy
      WITH f
      OPTIONAL MATCH (r:Fact {tenant: $tenant, id: $supersededBy})
      FOREACH (x IN CASE WHEN r IS NULL THEN [] ELSE [r] END | MERGE (x)-[:SUPERSEDES]->(f))
      RETURN f {.*} AS n`, { tenant: this.t(tenant), id, validTo, supersededBy }));
    return f ? toFact(f) : null;
  }

  async reopenFact(tenant: TenantId, id: string, replacedBy: string): Promise<Fact | null> {
    await this.init();
    const [f] = await this.db.write('reopenFact', (tx) => propRows(tx, `
      MATCH (f:Fact {tenant: $tenant, id: $id}) WHERE f.validTo IS NOT NULL AND f.supersededBy = $replacedBy
      SET f.validTo = null, f.supersededBy = null
      WITH f
      OPTIONAL MATCH (:Fact {tenant: $tenant, id: $replacedBy})-[s:SUPERSEDES]->(f)
      DELETE s
      RETURN f {.*} AS n`, { tenant: this.t(tenant), id, replacedBy }));
    return f ? toFact(f) : null;
  }

  async restoreWithdrawn(tenant: TenantId, id: string, supersedes: string | null, how: RestoreHow = {}): Promise<Fact | null> {
    await this.init();
    const f = how.fresh;
    const [n] = await this.db.write('restoreWithdrawn', (tx) => propRows(tx, `
      MATCH (f:Fact {tenant: $tenant, id: $id})
      WHERE f.validTo IS NOT NULL AND f.supersededBy IS NULL AND f.validTo = f.validFrom
      SET f.validTo = $closedAt, f.supersededBy = $closedBy, f.supersedes = $supersedes,
          f.content = coalesce($content, f.content), f.confidence = coalesce($confidence, f.confidence),
          f.source = coalesce($source, f.source),
          f.validUntil = CASE WHEN $fresh THEN $validUntil ELSE f.validUntil END,
          f.eventTime = CASE WHEN $fresh THEN $eventTime ELSE f.eventTime END,
          f.planObject = CASE WHEN $fresh THEN $planObject ELSE f.planObject END
      WITH f
      OPTIONAL MATCH (r:Fact {tenant: $tenant, id: $closedBy})
      FOREACH (x IN CASE WHEN r IS NULL THEN [] ELSE [r] END | MERGE (x)-[:SUPERSEDES]->(f))
      RETURN f {.*} AS n`, {
      tenant: this.t(tenant), id, supersedes, closedAt: how.closedBy?.at ?? null, closedBy: how.closedBy?.id ?? null, fresh: f !== undefined,
      content: f?.content ?? null, confidence: f?.confidence ?? null, source: f?.source ?? null, validUntil: f?.validUntil ?? null,
      eventTime: f?.eventTime ?? null, planObject: f?.planObject ? JSON.stringify(f.planObject) : null,
    }));
    return n ? toFact(n) : null;
  }

  async reopenDeleted(tenant: TenantId, id: string, closedAt: string): Promise<Fact | null> {
    await this.init();
    const [f] = await this.db.write('reopenDeleted', (tx) => propRows(tx, `
      MATCH (f:Fact {tenant: $tenant, id: $id})
      WHERE f.supersededBy IS NULL AND f.validTo = $closedAt AND f.validTo <> f.validFrom
      SET f.validTo = null
      RETURN f {.*} AS n`, { tenant: this.t(tenant), id, closedAt }));
    return f ? toFact(f) : null;
  }

  async patchFact(tenant: TenantId, id: string, patch: FactPatch): Promise<Fact | null> {
    await this.init();
    const [f] = await this.db.write('patchFact', (tx) => propRows(tx, `
      MATCH (f:Fact {tenant: $tenant, id: $id})
      SET f.content = coalesce($content, f.content), f.confidence = coalesce($confidence, f.confidence),
          f.kind = coalesce($kind, f.kind), f.layer = coalesce($layer, f.layer),
          f.slot = CASE WHEN $setSlot THEN $slot ELSE f.slot END,
          f.value = CASE WHEN $setValue THEN $value ELSE f.value END,
          f.referIds = coalesce($referIds, f.referIds)
      RETURN f {.*} AS n`, {
      tenant: this.t(tenant), id, content: patch.content ?? null, confidence: patch.confidence ?? null,
      kind: patch.kind ?? null, layer: patch.kind === undefined ? null : layerOfKind(patch.kind),
      setSlot: patch.slot !== undefined, slot: patch.slot ?? null, setValue: patch.value !== undefined, value: patch.value ?? null,
      referIds: patch.referIds ?? null,
    }));
    return f ? toFact(f) : null;
  }

  async deleteFact(tenant: TenantId, id: string): Promise<boolean> {
    await this.init();
    const params = { tenant: this.t(tenant), id };
    return this.db.write('deleteFact', async (tx) => {
      const gone = await tx.run('MATCH (f:Fact {tenant: $tenant, id: $id}) DETACH DELETE f RETURN count(*) AS n', params);
      // Links to an erased fact would dangle: clear them.
      await tx.run('MATCH (f:Fact {tenant: $tenant, supersedes: $id}) SET f.supersedes = null', params);
      await tx.run('MATCH (f:Fact {tenant: $tenant, supersededBy: $id}) SET f.supersededBy = null', params);
      return toNum(gone.records[0]?.get('n') ?? 0) > 0;
    });
  }

  async relabelParticipant(tenant: TenantId, fromId: string, intoId: string, onBatch?: () => Promise<void>): Promise<void> {
    if (fromId === intoId) return;
    await this.init();
    await relabelMemories(this.db, this.t(tenant), fromId, intoId, onBatch);
  }

  async erasedFactIds(tenant: TenantId, participantId: string, names: readonly string[]): Promise<string[]> {
    await this.init();
    return erasedFactIds(this.db, this.t(tenant), participantId, names);
  }

  async erasedPersonaIds(tenant: TenantId, participantId: string, names: readonly string[]): Promise<string[]> {
    await this.init();
    return erasedPersonaIds(this.db, this.t(tenant), participantId, names);
  }

  /** Erase the facts and persona of a participant, in batches (see {@link eraseMemories}). */
  async deleteParticipant(tenant: TenantId, participantId: string, recorded?: { factIds: string[]; personaIds: string[] }, names: readonly string[] = []): Promise<ErasedMemory> {
    await this.init();
    return eraseMemories(this.db, this.t(tenant), participantId, recorded, names);
  }

  async markProcessed(tenant: TenantId, utteranceId: string, factIds: string[], by?: ProcessedBy): Promise<void> {
    await this.init();
    await this.db.write('markProcessed', (tx) => tx.run(`
      MERGE (n:ProcessedUtterance {tenant: $tenant, utteranceId: $utteranceId})
      SET n.factIds = $factIds, n.processedAt = $now, n.speakerId = coalesce($speakerId, n.speakerId),
          n.deletedIds = coalesce($deletedIds, n.deletedIds)
      WITH n OPTIONAL MATCH (k:KeptExtraction {tenant: $tenant, utteranceId: $utteranceId}) DELETE k`,
    { tenant: this.t(tenant), utteranceId, factIds, now: new Date().toISOString(), speakerId: by?.speakerId ?? null, deletedIds: by?.deletedIds ?? null }));
  }

  async processedBy(tenant: TenantId, utteranceId: string): Promise<ProcessedBy | null> {
    await this.init();
    const [n] = await this.db.read('processedBy', (tx) => propRows(tx,
      'MATCH (n:ProcessedUtterance {tenant: $tenant, utteranceId: $utteranceId}) RETURN n {.speakerId, .deletedIds} AS n',
      { tenant: this.t(tenant), utteranceId }));
    return n && typeof n.speakerId === 'string' ? { speakerId: n.speakerId, deletedIds: stringList(n.deletedIds ?? []) } : null;
  }

  async keepExtraction(tenant: TenantId, utteranceId: string, extraction: string): Promise<string> {
    await this.init();
    // MERGE on the unique key: of two deliveries at once, one creates the node and both read its text.
    const rows = await this.db.write('keepExtraction', (tx) => tx.run(`
      MERGE (k:KeptExtraction {tenant: $tenant, utteranceId: $utteranceId})
      ON CREATE SET k.extraction = $extraction, k.keptAt = $now
      RETURN k.extraction AS extraction`,
    { tenant: this.t(tenant), utteranceId, extraction, now: new Date().toISOString() }));
    return String(rows.records[0]?.get('extraction') ?? extraction);
  }

  async keptExtraction(tenant: TenantId, utteranceId: string): Promise<string | null> {
    await this.init();
    const rows = await this.db.read('keptExtraction', (tx) => tx.run(`
      MATCH (k:KeptExtraction {tenant: $tenant, utteranceId: $utteranceId}) RETURN k.extraction AS extraction`,
    { tenant: this.t(tenant), utteranceId }));
    const found = rows.records[0]?.get('extraction') as string | undefined;
    return found ?? null;
  }

  async dropKeptExtractions(keptBefore: string): Promise<number> {
    await this.init();
    // Only this deployment's tenants (its prefix): ISO times of one format compare as strings.
    const rows = await this.db.write('dropKeptExtractions', (tx) => tx.run(`
      MATCH (k:KeptExtraction) WHERE k.tenant STARTS WITH $prefix AND k.keptAt < $before
      DELETE k RETURN count(*) AS n`,
    { prefix: this.t(''), before: keptBefore }));
    return Number(rows.records[0]?.get('n') ?? 0);
  }

  async forgetUtterances(tenant: TenantId, utteranceIds: string[]): Promise<void> {
    await this.init();
    const params = { tenant: this.t(tenant), utteranceIds };
    await this.db.write('forgetUtterances', async (tx) => {
      await tx.run('MATCH (n:ProcessedUtterance {tenant: $tenant}) WHERE n.utteranceId IN $utteranceIds DETACH DELETE n', params);
      await tx.run('MATCH (k:KeptExtraction {tenant: $tenant}) WHERE k.utteranceId IN $utteranceIds DELETE k', params);
    });
  }

  async processedFacts(tenant: TenantId, utteranceId: string): Promise<string[] | null> {
    await this.init();
    const [n] = await this.db.read('processedFacts', (tx) => propRows(tx,
      'MATCH (n:ProcessedUtterance {tenant: $tenant, utteranceId: $utteranceId}) RETURN n {.*} AS n',
      { tenant: this.t(tenant), utteranceId }));
    return n ? stringList(n.factIds) : null;
  }

  async processedFactsOf(tenant: TenantId, utteranceIds: string[]): Promise<Map<string, string[]>> {
    if (utteranceIds.length === 0) return new Map();
    await this.init();
    const found = await this.db.read('processedFactsOf', (tx) => propRows(tx, `
      UNWIND $utteranceIds AS uid
      MATCH (n:ProcessedUtterance {tenant: $tenant, utteranceId: uid}) RETURN n {.utteranceId, .factIds} AS n`,
    { tenant: this.t(tenant), utteranceIds: [...new Set(utteranceIds)] }));
    return new Map(found.map((n) => [String(n.utteranceId), stringList(n.factIds)]));
  }

  async addPersonaEvidence(tenant: TenantId, e: PersonaEvidence): Promise<PersonaNode> {
    await this.init();
    const t = this.t(tenant);
    const key = { tenant: t, participantId: e.participantId, kind: e.kind, target: e.target.toLowerCase() };
    const props = await this.db.write('addPersonaEvidence', async (tx) => {
      // MERGE on the unique (participant, kind, target) key creates the node once under concurrency;
      // setting `_lock` takes its write lock so the read-modify-write below cannot lose an update.
      const [node] = await propRows(tx, `
        MERGE (n:PersonaNode {tenant: $tenant, participantId: $participantId, kind: $kind, target: $target})
        ON CREATE SET n.id = $id, n.evidenceCount = 0, n.stable = false
        SET n._lock = true
        RETURN n {.*} AS n`, { ...key, id: newId('pn') });
      const state = personaState(node!);
      const seen = state.evidenceCount > 0 && state.evidenceIds.includes(e.utteranceId); // same evidence twice: no double count
      const next = state.evidenceCount === 0 ? firstEvidence(e) : seen ? state : addEvidence(state, e);
      const [written] = await propRows(tx, `
        MATCH (n:PersonaNode {tenant: $tenant, id: $id}) SET n += $props REMOVE n._lock
        WITH n OPTIONAL MATCH (p:Participant {tenant: $tenant, id: n.participantId})
        FOREACH (x IN CASE WHEN p IS NULL THEN [] ELSE [p] END | MERGE (x)-[:HAS_PERSONA]->(n))
        RETURN n {.*} AS n`, { tenant: t, id: node!.id, props: stateProps(next) });
      return written!;
    });
    return toPersona(props);
  }

  async listPersona(tenant: TenantId, participantId: string, options: { stableOnly?: boolean } = {}): Promise<PersonaNode[]> {
    await this.init();
    const found = await this.db.read('listPersona', (tx) => propRows(tx, `
      MATCH (n:PersonaNode {tenant: $tenant, participantId: $participantId})
      WHERE n.evidenceCount > 0 AND (NOT $stableOnly OR n.stable = true)
      RETURN n {.*} AS n ORDER BY n.evidenceCount DESC, n.lastSeen DESC`,
    { tenant: this.t(tenant), participantId, stableOnly: options.stableOnly === true }));
    return found.map(toPersona);
  }

  async forgetPersonaEvidence(tenant: TenantId, utteranceIds: string[], sessionIds: string[]): Promise<ForgottenPersona> {
    await this.init();
    const t = this.t(tenant);
    const [utterances, sessions] = [new Set(utteranceIds), new Set(sessionIds)];
    return this.db.write('forgetPersonaEvidence', async (tx) => {
      // `_lock` takes the nodes' write locks, so evidence added meanwhile (`addPersonaEvidence`) is never lost.
      const nodes = await propRows(tx, `
        MATCH (n:PersonaNode {tenant: $tenant})
        WHERE any(u IN n.evidenceIds WHERE u IN $utteranceIds) OR any(s IN n.sessionIds WHERE s IN $sessionIds)
        SET n._lock = true RETURN n {.*} AS n`, { tenant: t, utteranceIds, sessionIds });
      const out: ForgottenPersona = { deletedIds: [], keptIds: [] };
      for (const p of nodes) {
        const next = withoutForgotten(toPersona(p), utterances, sessions);
        const id = String(p.id);
        if (next === 'gone') out.deletedIds.push(id);
        else {
          await tx.run('MATCH (n:PersonaNode {tenant: $tenant, id: $id}) SET n += $props REMOVE n._lock', {
            tenant: t, id, props: next ? { ...next, evidenceCount: int(next.evidenceCount) } : {},
          });
          if (next) out.keptIds.push(id);
        }
      }
      await tx.run('MATCH (n:PersonaNode {tenant: $tenant}) WHERE n.id IN $ids DETACH DELETE n', { tenant: t, ids: out.deletedIds });
      return out;
    });
  }

  async setPersonaStable(tenant: TenantId, id: string, stable: boolean): Promise<void> {
    await this.init();
    await this.db.write('setPersonaStable', (tx) => tx.run(
      'MATCH (n:PersonaNode {tenant: $tenant, id: $id}) SET n.stable = $stable', { tenant: this.t(tenant), id, stable }));
  }

  private async factsById(t: string, ids: string[]): Promise<Fact[]> {
    const found = await this.db.read('getFacts', (tx) => propRows(tx,
      'MATCH (f:Fact {tenant: $tenant}) WHERE f.id IN $ids RETURN f {.*} AS n', { tenant: t, ids }));
    return found.map(toFact);
  }
}
