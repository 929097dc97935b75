import {
  layerOfKind,
  type ErasedMemory, splitRecorded,
  type Fact,
  type FactFilter,
  type FactPatch,
  type ForgottenPersona,
  type MemoryStore,
  type NewFact,
  type PersonaEvidence,
  type PersonaNode,
  type ProcessedBy,
  type RestoreHow,
} from '../memory-store.js';
import type { TenantId } from '../types.js';
import { addMissingColumns, fromJson, toJson, type SqliteDatabase } from './database.js';
import { newId } from '../core/ids.js';
import { addresseesWithout, erasableNames, erasesFact, erasesPersona, personaTargetNames } from '../erased-facts.js';
import { toFact, toPersona, type FactRow, type PersonaRow } from './sqlite-memory-rows.js';
import { withoutForgotten } from '../forgotten-evidence.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS memory_facts (
  tenant TEXT NOT NULL, id TEXT NOT NULL, content TEXT NOT NULL, speaker_id TEXT NOT NULL,
  addressee_ids TEXT NOT NULL DEFAULT '[]', subject_id TEXT NOT NULL, kind TEXT NOT NULL,
  layer TEXT NOT NULL, slot TEXT, value TEXT, time TEXT NOT NULL, refer_ids TEXT NOT NULL DEFAULT '[]',
  valid_from TEXT NOT NULL, valid_to TEXT, supersedes TEXT, superseded_by TEXT,
  confidence REAL NOT NULL, session_id TEXT NOT NULL, source TEXT NOT NULL, created_at TEXT NOT NULL,
  event_time TEXT, valid_until TEXT, plan_object TEXT, PRIMARY KEY (tenant, id));
CREATE INDEX IF NOT EXISTS memory_facts_subject_time ON memory_facts (tenant, subject_id, valid_to, time);
CREATE INDEX IF NOT EXISTS memory_facts_subject_slot ON memory_facts (tenant, subject_id, slot, valid_to);
CREATE INDEX IF NOT EXISTS memory_facts_speaker ON memory_facts (tenant, speaker_id, valid_to);
CREATE INDEX IF NOT EXISTS memory_facts_session ON memory_facts (tenant, session_id);
CREATE INDEX IF NOT EXISTS memory_facts_session_time ON memory_facts (tenant, session_id, valid_to, time);
CREATE TABLE IF NOT EXISTS memory_processed (
  tenant TEXT NOT NULL, utterance_id TEXT NOT NULL, fact_ids TEXT NOT NULL, processed_at TEXT NOT NULL,
  PRIMARY KEY (tenant, utterance_id));
CREATE TABLE IF NOT EXISTS memory_extractions (
  tenant TEXT NOT NULL, utterance_id TEXT NOT NULL, extraction TEXT NOT NULL, kept_at TEXT NOT NULL,
  PRIMARY KEY (tenant, utterance_id));
CREATE TABLE IF NOT EXISTS memory_persona (
  tenant TEXT NOT NULL, id TEXT NOT NULL, participant_id TEXT NOT NULL, kind TEXT NOT NULL,
  target TEXT NOT NULL, valence REAL NOT NULL, label TEXT, strength REAL NOT NULL,
  evidence_count INTEGER NOT NULL, evidence_ids TEXT NOT NULL, session_ids TEXT NOT NULL,
  first_seen TEXT NOT NULL, last_seen TEXT NOT NULL, stable INTEGER NOT NULL DEFAULT 0,
  labels TEXT NOT NULL DEFAULT '{}',
  PRIMARY KEY (tenant, id), UNIQUE (tenant, participant_id, kind, target));
CREATE TABLE IF NOT EXISTS memory_migrations (
  tenant TEXT NOT NULL, name TEXT NOT NULL, done_at TEXT NOT NULL, PRIMARY KEY (tenant, name));
`;

/** Most evidence utterance ids kept per persona node. */
const MAX_EVIDENCE_IDS = 50;

/** The label seen most often, given per-label counts. */
function dominantLabel(counts: Record<string, number>): string | null {
  let best: string | null = null;
  for (const [label, n] of Object.entries(counts)) if (best === null || n > (counts[best] ?? 0)) best = label;
  return best;
}

/**
 * Embedded `MemoryStore` on SQLite. Takes an open database (see `openDatabase`) and creates its
 * own `memory_*` tables; every query filters by tenant.
 */
export class SqliteMemoryStore implements MemoryStore {
  readonly #db: SqliteDatabase;

  constructor(db: SqliteDatabase) {
    this.#db = db;
    this.#db.exec(SCHEMA);
    // Databases created before `event_time` existed get the column (null: undated), `valid_until` (null: no end of its
    // own) and `plan_object` (null: not read; consolidation falls back to the shared-word rule); processed records
    // written before the speaker was recorded keep null (unknown: the facts tell a revision). A second process opening
    // the same old file at once waits for this one's (`addMissingColumns`).
    addMissingColumns(this.#db, 'memory_facts', ['event_time', 'valid_until', 'plan_object'].map((column) => ({ column, decl: 'TEXT' })));
    addMissingColumns(this.#db, 'memory_processed', ['speaker_id', 'deleted_ids'].map((column) => ({ column, decl: 'TEXT' })));
    this.#db.exec('CREATE INDEX IF NOT EXISTS memory_processed_speaker ON memory_processed (tenant, speaker_id)');
    // The open facts with an end of their own, by that end (the sweep of ended states reads a window of them).
    this.#db.exec(`CREATE INDEX IF NOT EXISTS memory_facts_open_until ON memory_facts (tenant, valid_until)
      WHERE valid_until IS NOT NULL AND valid_to IS NULL`);
    // A prefix of memory_facts_subject_time: while it existed SQLite chose it for a subject's newest
    // facts and sorted all of them (a cost growing with the conversation) instead of reading in time order.
    this.#db.exec('DROP INDEX IF EXISTS memory_facts_subject');
  }

  async addFacts(tenant: TenantId, facts: NewFact[]): Promise<Fact[]> {
    const insert = this.#db.prepare(`INSERT INTO memory_facts (tenant, id, content, speaker_id,
      addressee_ids, subject_id, kind, layer, slot, value, time, refer_ids, valid_from, valid_to,
      supersedes, superseded_by, confidence, session_id, source, created_at, event_time, valid_until, plan_object)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, NULL, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (tenant, id) DO NOTHING`);
    const now = new Date().toISOString();
    const ids: string[] = [];
    this.#db.transaction(() => {
      for (const f of facts) {
        const id = f.id ?? newId('f');
        ids.push(id);
        insert.run(tenant, id, f.content, f.speakerId, toJson(f.addresseeIds), f.subjectId, f.kind,
          layerOfKind(f.kind), f.slot, f.value, f.time, toJson(f.referIds), f.validFrom,
          f.supersedes, f.confidence, f.sessionId, f.source, now, f.eventTime ?? null, f.validUntil ?? null,
          f.planObject ? toJson(f.planObject) : null);
      }
    })();
    const byId = new Map((await this.listFacts(tenant, { ids, includeHistory: true, limit: 1000 })).map((f) => [f.id, f]));
    return ids.map((id) => byId.get(id)).filter((f): f is Fact => f !== undefined);
  }

  async getFact(tenant: TenantId, id: string): Promise<Fact | null> {
    const row = this.#db.prepare('SELECT * FROM memory_facts WHERE tenant = ? AND id = ?')
      .get(tenant, id) as FactRow | undefined;
    return row ? toFact(row) : null;
  }

  async factsFromUtterances(tenant: TenantId, utteranceIds: string[]): Promise<Fact[]> {
    if (utteranceIds.length === 0) return [];
    const rows = this.#db.prepare(`SELECT * FROM memory_facts f WHERE tenant = ?
      AND EXISTS (SELECT 1 FROM json_each(f.refer_ids) j WHERE j.value IN (SELECT value FROM json_each(?)))`)
      .all(tenant, toJson(utteranceIds)) as FactRow[];
    return rows.map(toFact);
  }

  async listFacts(tenant: TenantId, filter: FactFilter = {}): Promise<Fact[]> {
    const where = ['f.tenant = ?'];
    const args: unknown[] = [tenant];
    if (!filter.includeHistory) where.push('f.valid_to IS NULL');
    if (filter.participantId !== undefined) {
      const p = filter.participantId;
      const addressee = 'EXISTS (SELECT 1 FROM json_each(f.addressee_ids) j WHERE j.value = ?)';
      const role = filter.role ?? 'any';
      if (role === 'speaker') { where.push('f.speaker_id = ?'); args.push(p); }
      else if (role === 'subject') { where.push('f.subject_id = ?'); args.push(p); }
      else if (role === 'addressee') { where.push(addressee); args.push(p); }
      else { where.push(`(f.speaker_id = ? OR f.subject_id = ? OR ${addressee})`); args.push(p, p, p); }
    }
    const eq: Array<[string, string | undefined]> = [
      ['session_id', filter.sessionId], ['layer', filter.layer], ['kind', filter.kind],
      ['slot', filter.slot], ['subject_id', filter.subjectId],
    ];
    for (const [col, v] of eq) if (v !== undefined) { where.push(`f.${col} = ?`); args.push(v); }
    if (filter.slotFamily !== undefined) {
      // One range of the slot index ("kind" up to "kind;", ';' following ':'), less the slots that only begin like it.
      const kind = filter.slotFamily;
      where.push('f.slot >= ? AND f.slot < ? AND (f.slot = ? OR f.slot >= ?)');
      args.push(kind, `${kind};`, kind, `${kind}:`);
    }
    if (filter.endedBy !== undefined) { where.push('f.valid_until IS NOT NULL AND f.valid_until <= ?'); args.push(filter.endedBy); }
    if (filter.endedAfter !== undefined) { where.push('f.valid_until > ?'); args.push(filter.endedAfter); }
    if (filter.ids !== undefined) {
      if (filter.ids.length === 0) return [];
      where.push(`f.id IN (SELECT value FROM json_each(?))`);
      args.push(toJson(filter.ids));
    }
    const limit = Math.min(Math.max(filter.limit ?? 100, 1), 1000);
    const rows = this.#db.prepare(`SELECT f.* FROM memory_facts f WHERE ${where.join(' AND ')}
      ORDER BY f.time DESC, f.created_at DESC, f.rowid DESC LIMIT ${limit} OFFSET ${Math.max(0, Math.floor(filter.offset ?? 0))}`).all(...args) as FactRow[];
    return rows.map(toFact);
  }

  async closeFact(tenant: TenantId, id: string, validTo: string, supersededBy: string | null): Promise<Fact | null> {
    // Replaced before it began: closed where it began, never before (`MemoryStore.closeFact`).
    const res = this.#db.prepare(`UPDATE memory_facts
      SET valid_to = CASE WHEN @by IS NOT NULL AND @to < valid_from THEN valid_from ELSE @to END, superseded_by = @by
      WHERE tenant = @tenant AND id = @id AND valid_to IS NULL`).run({ to: validTo, by: supersededBy, tenant, id });
    return res.changes === 0 ? null : this.getFact(tenant, id);
  }

  async reopenFact(tenant: TenantId, id: string, replacedBy: string): Promise<Fact | null> {
    const res = this.#db.prepare(`UPDATE memory_facts SET valid_to = NULL, superseded_by = NULL
      WHERE tenant = ? AND id = ? AND valid_to IS NOT NULL AND superseded_by = ?`).run(tenant, id, replacedBy);
    return res.changes === 0 ? null : this.getFact(tenant, id);
  }

  async restoreWithdrawn(tenant: TenantId, id: string, supersedes: string | null, how: RestoreHow = {}): Promise<Fact | null> {
    const f = how.fresh;
    const res = this.#db.prepare(`UPDATE memory_facts SET supersedes = @supersedes, valid_to = @closedAt, superseded_by = @closedBy,
        content = coalesce(@content, content), confidence = coalesce(@confidence, confidence), source = coalesce(@source, source),
        valid_until = CASE WHEN @fresh THEN @validUntil ELSE valid_until END, event_time = CASE WHEN @fresh THEN @eventTime ELSE event_time END,
        plan_object = CASE WHEN @fresh THEN @planObject ELSE plan_object END
      WHERE tenant = @tenant AND id = @id AND valid_to IS NOT NULL AND valid_to = valid_from AND superseded_by IS NULL`).run({
      supersedes, tenant, id, closedAt: how.closedBy?.at ?? null, closedBy: how.closedBy?.id ?? null, fresh: f ? 1 : 0,
      content: f?.content ?? null, confidence: f?.confidence ?? null, source: f?.source ?? null, validUntil: f?.validUntil ?? null,
      eventTime: f?.eventTime ?? null, planObject: f?.planObject ? toJson(f.planObject) : null,
    });
    return res.changes === 0 ? null : this.getFact(tenant, id);
  }

  async reopenDeleted(tenant: TenantId, id: string, closedAt: string): Promise<Fact | null> {
    const res = this.#db.prepare(`UPDATE memory_facts SET valid_to = NULL
      WHERE tenant = ? AND id = ? AND valid_to = ? AND valid_to <> valid_from AND superseded_by IS NULL`).run(tenant, id, closedAt);
    return res.changes === 0 ? null : this.getFact(tenant, id);
  }

  async patchFact(tenant: TenantId, id: string, patch: FactPatch): Promise<Fact | null> {
    const sets: string[] = [];
    const args: unknown[] = [];
    if (patch.content !== undefined) { sets.push('content = ?'); args.push(patch.content); }
    if (patch.confidence !== undefined) { sets.push('confidence = ?'); args.push(patch.confidence); }
    if (patch.kind !== undefined) {
      sets.push('kind = ?', 'layer = ?');
      args.push(patch.kind, layerOfKind(patch.kind));
    }
    if (patch.slot !== undefined) { sets.push('slot = ?'); args.push(patch.slot); }
    if (patch.value !== undefined) { sets.push('value = ?'); args.push(patch.value); }
    if (patch.referIds !== undefined) { sets.push('refer_ids = ?'); args.push(toJson(patch.referIds)); }
    if (sets.length > 0) {
      this.#db.prepare(`UPDATE memory_facts SET ${sets.join(', ')} WHERE tenant = ? AND id = ?`)
        .run(...args, tenant, id);
    }
    return this.getFact(tenant, id);
  }

  async deleteFact(tenant: TenantId, id: string): Promise<boolean> {
    return this.#db.transaction(() => {
      const res = this.#db.prepare('DELETE FROM memory_facts WHERE tenant = ? AND id = ?').run(tenant, id);
      // Links to an erased fact would dangle: clear them.
      this.#db.prepare('UPDATE memory_facts SET supersedes = NULL WHERE tenant = ? AND supersedes = ?').run(tenant, id);
      this.#db.prepare('UPDATE memory_facts SET superseded_by = NULL WHERE tenant = ? AND superseded_by = ?').run(tenant, id);
      return res.changes > 0;
    })();
  }

  async relabelParticipant(tenant: TenantId, fromId: string, intoId: string, onBatch?: () => Promise<void>): Promise<void> {
    if (fromId === intoId) return;
    const db = this.#db;
    db.transaction(() => {
      db.prepare('UPDATE memory_facts SET speaker_id = ? WHERE tenant = ? AND speaker_id = ?').run(intoId, tenant, fromId);
      db.prepare('UPDATE memory_facts SET subject_id = ? WHERE tenant = ? AND subject_id = ?').run(intoId, tenant, fromId);
      const rows = db.prepare(`SELECT id, addressee_ids FROM memory_facts f WHERE tenant = ?
        AND EXISTS (SELECT 1 FROM json_each(f.addressee_ids) j WHERE j.value = ?)`)
        .all(tenant, fromId) as Array<{ id: string; addressee_ids: string }>;
      const setAddr = db.prepare('UPDATE memory_facts SET addressee_ids = ? WHERE tenant = ? AND id = ?');
      for (const r of rows) {
        const ids = fromJson<string[]>(r.addressee_ids, []).map((a) => (a === fromId ? intoId : a));
        setAddr.run(toJson([...new Set(ids)]), tenant, r.id);
      }
      this.#relabelPersona(tenant, fromId, intoId);
      // A turn consolidated under the merged-away id counts as consolidated under the survivor (no revision).
      db.prepare('UPDATE memory_processed SET speaker_id = ? WHERE tenant = ? AND speaker_id = ?').run(intoId, tenant, fromId);
    })();
    // One transaction: one batch.
    await onBatch?.();
  }

  #relabelPersona(tenant: TenantId, fromId: string, intoId: string): void {
    const db = this.#db;
    const from = db.prepare('SELECT * FROM memory_persona WHERE tenant = ? AND participant_id = ?')
      .all(tenant, fromId) as PersonaRow[];
    for (const node of from) {
      const into = db.prepare(`SELECT * FROM memory_persona WHERE tenant = ? AND participant_id = ?
        AND kind = ? AND target = ?`).get(tenant, intoId, node.kind, node.target) as PersonaRow | undefined;
      if (!into) {
        db.prepare('UPDATE memory_persona SET participant_id = ? WHERE tenant = ? AND id = ?').run(intoId, tenant, node.id);
        continue;
      }
      const n = into.evidence_count + node.evidence_count;
      const labels: Record<string, number> = fromJson(into.labels, {});
      for (const [l, c] of Object.entries(fromJson<Record<string, number>>(node.labels, {}))) labels[l] = (labels[l] ?? 0) + c;
      const merged = [...fromJson<string[]>(into.evidence_ids, []), ...fromJson<string[]>(node.evidence_ids, [])];
      const sessions = new Set([...fromJson<string[]>(into.session_ids, []), ...fromJson<string[]>(node.session_ids, [])]);
      db.prepare(`UPDATE memory_persona SET valence = ?, strength = ?, evidence_count = ?, evidence_ids = ?,
        session_ids = ?, first_seen = ?, last_seen = ?, labels = ?, label = ?, stable = ? WHERE tenant = ? AND id = ?`).run(
        (into.valence * into.evidence_count + node.valence * node.evidence_count) / n,
        (into.strength * into.evidence_count + node.strength * node.evidence_count) / n, n,
        toJson(merged.slice(-MAX_EVIDENCE_IDS)), toJson([...sessions]),
        into.first_seen < node.first_seen ? into.first_seen : node.first_seen,
        into.last_seen > node.last_seen ? into.last_seen : node.last_seen, toJson(labels),
        dominantLabel(labels), into.stable || node.stable ? 1 : 0, tenant, into.id);
      db.prepare('DELETE FROM memory_persona WHERE tenant = ? AND id = ?').run(tenant, node.id);
    }
  }

  async deleteParticipant(tenant: TenantId, participantId: string, recorded?: { factIds: string[]; personaIds: string[] }, names: readonly string[] = []): Promise<ErasedMemory> {
    const db = this.#db;
    return db.transaction(() => {
      const { factIds, kept } = this.#factsOfErased(tenant, participantId, names);
      // Another person's facts they were only addressed in stay, without them (not an erasure of anything of theirs).
      const setAddr = db.prepare('UPDATE memory_facts SET addressee_ids = ? WHERE tenant = ? AND id = ?');
      for (const f of kept) setAddr.run(toJson(addresseesWithout(f.addresseeIds, participantId)), tenant, f.id);
      const split = splitRecorded(factIds, this.#personaOfErased(tenant, participantId, names), recorded);
      const del = db.prepare('DELETE FROM memory_facts WHERE tenant = ? AND id = ?');
      for (const id of split.factIds) del.run(tenant, id);
      const delPersona = db.prepare('DELETE FROM memory_persona WHERE tenant = ? AND id = ?');
      for (const id of split.personaIds) delPersona.run(tenant, id);
      // An unfinished consolidation's kept extraction may quote them (as speaker, subject or addressee).
      db.prepare('DELETE FROM memory_extractions WHERE tenant = ? AND instr(extraction, ?) > 0').run(tenant, participantId);
      return split;
    })();
  }

  async erasedFactIds(tenant: TenantId, participantId: string, names: readonly string[]): Promise<string[]> {
    return this.#factsOfErased(tenant, participantId, names).factIds;
  }

  async erasedPersonaIds(tenant: TenantId, participantId: string, names: readonly string[]): Promise<string[]> {
    return this.#personaOfErased(tenant, participantId, names);
  }

  /** The persona nodes erasing `participantId` takes (`erasesPersona`): candidates are theirs and those whose target holds a name. */
  #personaOfErased(tenant: TenantId, participantId: string, names: readonly string[]): string[] {
    const rows = this.#db.prepare(`SELECT id, participant_id, target FROM memory_persona p WHERE tenant = ?
      AND (participant_id = ? OR EXISTS (SELECT 1 FROM json_each(?) n WHERE instr(p.target, n.value) > 0)) ORDER BY id`)
      .all(tenant, participantId, toJson(personaTargetNames(names))) as Array<{ id: string; participant_id: string; target: string }>;
    return rows.filter((r) => erasesPersona({ participantId: r.participant_id, target: r.target }, participantId, names)).map((r) => r.id);
  }

  /**
   * The facts (history included) erasing `participantId` takes (`erasesFact`), and the others where they are only an
   * addressee, kept without them: candidates are those where the id takes a role or whose text holds one of `names`.
   */
  #factsOfErased(tenant: TenantId, participantId: string, names: readonly string[]): { factIds: string[]; kept: Array<{ id: string; addresseeIds: string[] }> } {
    const named = erasableNames(names);
    const rows = this.#db.prepare(`SELECT id, speaker_id, subject_id, content, addressee_ids FROM memory_facts f WHERE tenant = ?
      AND (speaker_id = ? OR subject_id = ? OR EXISTS (SELECT 1 FROM json_each(f.addressee_ids) j WHERE j.value = ?)
      OR EXISTS (SELECT 1 FROM json_each(?) n WHERE instr(f.content, n.value) > 0))`)
      .all(tenant, participantId, participantId, participantId, toJson(named)) as Array<{
        id: string; speaker_id: string; subject_id: string; content: string; addressee_ids: string }>;
    const factIds: string[] = [];
    const kept: Array<{ id: string; addresseeIds: string[] }> = [];
    for (const r of rows) {
      const addresseeIds = fromJson<string[]>(r.addressee_ids, []);
      if (erasesFact({ speakerId: r.speaker_id, subjectId: r.subject_id, content: r.content }, participantId, named)) factIds.push(r.id);
      else if (addresseeIds.includes(participantId)) kept.push({ id: r.id, addresseeIds });
    }
    return { factIds, kept };
  }

  async markProcessed(tenant: TenantId, utteranceId: string, factIds: string[], by?: ProcessedBy): Promise<void> {
    const db = this.#db;
    db.transaction(() => {
      db.prepare(`INSERT INTO memory_processed (tenant, utterance_id, fact_ids, processed_at, speaker_id, deleted_ids)
        VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (tenant, utterance_id) DO UPDATE SET fact_ids = excluded.fact_ids,
        processed_at = excluded.processed_at, speaker_id = COALESCE(excluded.speaker_id, memory_processed.speaker_id),
        deleted_ids = COALESCE(excluded.deleted_ids, memory_processed.deleted_ids)`)
        .run(tenant, utteranceId, toJson(factIds), new Date().toISOString(), by?.speakerId ?? null, by ? toJson(by.deletedIds) : null);
      db.prepare('DELETE FROM memory_extractions WHERE tenant = ? AND utterance_id = ?').run(tenant, utteranceId);
    })();
  }

  async keepExtraction(tenant: TenantId, utteranceId: string, extraction: string): Promise<string> {
    const db = this.#db;
    return db.transaction(() => {
      db.prepare(`INSERT INTO memory_extractions (tenant, utterance_id, extraction, kept_at) VALUES (?, ?, ?, ?)
        ON CONFLICT (tenant, utterance_id) DO NOTHING`).run(tenant, utteranceId, extraction, new Date().toISOString());
      return (db.prepare('SELECT extraction FROM memory_extractions WHERE tenant = ? AND utterance_id = ?')
        .get(tenant, utteranceId) as { extraction: string }).extraction;
    })();
  }

  async keptExtraction(tenant: TenantId, utteranceId: string): Promise<string | null> {
    const row = this.#db.prepare('SELECT extraction FROM memory_extractions WHERE tenant = ? AND utterance_id = ?')
      .get(tenant, utteranceId) as { extraction: string } | undefined;
    return row?.extraction ?? null;
  }

  async dropKeptExtractions(keptBefore: string): Promise<number> {
    return this.#db.prepare('DELETE FROM memory_extractions WHERE kept_at < ?').run(keptBefore).changes;
  }

  async forgetUtterances(tenant: TenantId, utteranceIds: string[]): Promise<void> {
    const db = this.#db;
    db.transaction(() => {
      for (const table of ['memory_processed', 'memory_extractions']) {
        db.prepare(`DELETE FROM ${table} WHERE tenant = ? AND utterance_id IN (SELECT value FROM json_each(?))`).run(tenant, toJson(utteranceIds));
      }
    })();
  }

  async processedFacts(tenant: TenantId, utteranceId: string): Promise<string[] | null> {
    const row = this.#db.prepare('SELECT fact_ids FROM memory_processed WHERE tenant = ? AND utterance_id = ?')
      .get(tenant, utteranceId) as { fact_ids: string } | undefined;
    return row ? fromJson<string[]>(row.fact_ids, []) : null;
  }

  async processedBy(tenant: TenantId, utteranceId: string): Promise<ProcessedBy | null> {
    const row = this.#db.prepare('SELECT speaker_id, deleted_ids FROM memory_processed WHERE tenant = ? AND utterance_id = ?')
      .get(tenant, utteranceId) as { speaker_id: string | null; deleted_ids: string | null } | undefined;
    return row?.speaker_id ? { speakerId: row.speaker_id, deletedIds: fromJson<string[]>(row.deleted_ids ?? '[]', []) } : null;
  }

  async processedFactsOf(tenant: TenantId, utteranceIds: string[]): Promise<Map<string, string[]>> {
    if (utteranceIds.length === 0) return new Map();
    const rows = this.#db.prepare(`SELECT utterance_id, fact_ids FROM memory_processed
      WHERE tenant = ? AND utterance_id IN (SELECT value FROM json_each(?))`)
      .all(tenant, toJson(utteranceIds)) as { utterance_id: string; fact_ids: string }[];
    return new Map(rows.map((r) => [r.utterance_id, fromJson<string[]>(r.fact_ids, [])]));
  }

  async addPersonaEvidence(tenant: TenantId, e: PersonaEvidence): Promise<PersonaNode> {
    const db = this.#db;
    const target = e.target.toLowerCase();
    return db.transaction(() => {
      const row = db.prepare(`SELECT * FROM memory_persona WHERE tenant = ? AND participant_id = ?
        AND kind = ? AND target = ?`).get(tenant, e.participantId, e.kind, target) as PersonaRow | undefined;
      if (!row) {
        const id = newId('pn');
        const labels = e.label ? { [e.label]: 1 } : {};
        db.prepare(`INSERT INTO memory_persona (tenant, id, participant_id, kind, target, valence, label,
          strength, evidence_count, evidence_ids, session_ids, first_seen, last_seen, stable, labels)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, 0, ?)`).run(tenant, id, e.participantId, e.kind,
          target, e.valence, e.label, e.strength, toJson([e.utteranceId]), toJson([e.sessionId]), e.time,
          e.time, toJson(labels));
        return this.#persona(tenant, id);
      }
      const ids = fromJson<string[]>(row.evidence_ids, []);
      if (ids.includes(e.utteranceId)) return toPersona(row); // same evidence twice: no double count
      const n = row.evidence_count + 1;
      const labels: Record<string, number> = fromJson(row.labels, {});
      if (e.label) labels[e.label] = (labels[e.label] ?? 0) + 1;
      const sessions = new Set(fromJson<string[]>(row.session_ids, []));
      sessions.add(e.sessionId);
      db.prepare(`UPDATE memory_persona SET valence = ?, strength = ?, evidence_count = ?, evidence_ids = ?,
        session_ids = ?, first_seen = ?, last_seen = ?, labels = ?, label = ? WHERE tenant = ? AND id = ?`).run(
        (row.valence * row.evidence_count + e.valence) / n, (row.strength * row.evidence_count + e.strength) / n,
        n, toJson([...ids, e.utteranceId].slice(-MAX_EVIDENCE_IDS)), toJson([...sessions]),
        e.time < row.first_seen ? e.time : row.first_seen, e.time > row.last_seen ? e.time : row.last_seen,
        toJson(labels), dominantLabel(labels), tenant, row.id);
      return this.#persona(tenant, row.id);
    })();
  }

  #persona(tenant: TenantId, id: string): PersonaNode {
    const row = this.#db.prepare('SELECT * FROM memory_persona WHERE tenant = ? AND id = ?').get(tenant, id) as PersonaRow;
    return toPersona(row);
  }

  async listPersona(tenant: TenantId, participantId: string, options: { stableOnly?: boolean } = {}): Promise<PersonaNode[]> {
    const rows = this.#db.prepare(`SELECT * FROM memory_persona WHERE tenant = ? AND participant_id = ?
      ${options.stableOnly ? 'AND stable = 1' : ''} ORDER BY evidence_count DESC, last_seen DESC`)
      .all(tenant, participantId) as PersonaRow[];
    return rows.map(toPersona);
  }

  async setPersonaStable(tenant: TenantId, id: string, stable: boolean): Promise<void> {
    this.#db.prepare('UPDATE memory_persona SET stable = ? WHERE tenant = ? AND id = ?').run(stable ? 1 : 0, tenant, id);
  }

  async forgetPersonaEvidence(tenant: TenantId, utteranceIds: string[], sessionIds: string[]): Promise<ForgottenPersona> {
    const db = this.#db;
    const [utterances, sessions] = [new Set(utteranceIds), new Set(sessionIds)];
    return db.transaction(() => {
      const rows = db.prepare(`SELECT * FROM memory_persona p WHERE tenant = ?
        AND (EXISTS (SELECT 1 FROM json_each(p.evidence_ids) j WHERE j.value IN (SELECT value FROM json_each(?)))
          OR EXISTS (SELECT 1 FROM json_each(p.session_ids) j WHERE j.value IN (SELECT value FROM json_each(?))))`)
        .all(tenant, toJson(utteranceIds), toJson(sessionIds)) as PersonaRow[];
      const out: ForgottenPersona = { deletedIds: [], keptIds: [] };
      for (const row of rows) {
        const next = withoutForgotten(toPersona(row), utterances, sessions);
        if (next === 'gone') {
          db.prepare('DELETE FROM memory_persona WHERE tenant = ? AND id = ?').run(tenant, row.id);
          out.deletedIds.push(row.id);
        } else if (next) {
          db.prepare('UPDATE memory_persona SET evidence_count = ?, evidence_ids = ?, session_ids = ? WHERE tenant = ? AND id = ?')
            .run(next.evidenceCount, toJson(next.evidenceIds), toJson(next.sessionIds), tenant, row.id);
          out.keptIds.push(row.id);
        }
      }
      return out;
    })();
  }

  async migrationDone(tenant: TenantId, name: string): Promise<boolean> {
    return this.#db.prepare('SELECT 1 FROM memory_migrations WHERE tenant = ? AND name = ?').get(tenant, name) !== undefined;
  }

  async recordMigration(tenant: TenantId, name: string): Promise<void> {
    this.#db.prepare('INSERT OR IGNORE INTO memory_migrations (tenant, name, done_at) VALUES (?, ?, ?)').run(tenant, name, new Date().toISOString());
  }

  async ready(): Promise<boolean> {
    try {
      this.#db.prepare('SELECT 1').get();
      return true;
    } catch {
      return false;
    }
  }

  /** The database belongs to the caller; nothing to release here. */
  async close(): Promise<void> {}
}
