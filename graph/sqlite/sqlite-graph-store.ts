import type { GraphStore, InteractionFilter, NewUtterance, ParticipantPage, ParticipantPatch, TranscriptPage } from '../graph-store.js';
import type { Participant, SessionRecord, TenantId, Utterance } from '../types.js';
import { fromJson, toJson, type SqliteDatabase } from './database.js';
import { newId } from '../core/ids.js';
import { checkMergeable, externalIdTaken } from '../external-id.js';
import { namedInText, nameWords, participantNameWords, textNameWords } from '../name-words.js';
import { migrateUtteranceSeqs, utteranceSeqCounter } from './sqlite-utterance-seqs.js';
import type { RetiredParticipant } from '../retired-ids.js';
import { lookupRetired, recordErasure, recordMerge, RETIRED_IDS_SCHEMA } from './sqlite-retired-ids.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS sessions (
  tenant TEXT NOT NULL, id TEXT NOT NULL, started_at TEXT NOT NULL, ended_at TEXT,
  metadata TEXT NOT NULL DEFAULT '{}', last_event_seq INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant, id));
CREATE TABLE IF NOT EXISTS participants (
  tenant TEXT NOT NULL, id TEXT NOT NULL, name TEXT, aliases TEXT NOT NULL DEFAULT '[]',
  attributes TEXT NOT NULL DEFAULT '{}', voiceprint_count INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
  PRIMARY KEY (tenant, id));
-- listParticipants reads a tenant's participants in creation order (each ingest does): no sort.
CREATE INDEX IF NOT EXISTS participants_by_age ON participants (tenant, created_at, id);
-- recentNamedParticipants: the newest named participants, in index order, however many are unnamed.
CREATE INDEX IF NOT EXISTS participants_named_by_update ON participants (tenant, updated_at DESC, created_at, id)
  WHERE name IS NOT NULL OR aliases <> '[]';
CREATE TABLE IF NOT EXISTS utterances (
  tenant TEXT NOT NULL, id TEXT NOT NULL, session_id TEXT NOT NULL, seq INTEGER NOT NULL,
  speaker_id TEXT NOT NULL, text TEXT NOT NULL, start_ms REAL, end_ms REAL, time TEXT NOT NULL,
  confidence REAL, audio_ref TEXT,
  PRIMARY KEY (tenant, id));
CREATE INDEX IF NOT EXISTS utterances_by_session ON utterances (tenant, session_id, seq);
CREATE INDEX IF NOT EXISTS utterances_by_speaker ON utterances (tenant, speaker_id, time);
CREATE TABLE IF NOT EXISTS addresses (
  tenant TEXT NOT NULL, utterance_id TEXT NOT NULL, participant_id TEXT NOT NULL,
  PRIMARY KEY (tenant, utterance_id, participant_id));
CREATE INDEX IF NOT EXISTS addresses_by_participant ON addresses (tenant, participant_id);
`;

/**
 * Columns added after the first release, with the statement that adds each one to an existing database
 * (`CREATE TABLE IF NOT EXISTS` leaves an old table as it is).
 */
const PARTICIPANT_MIGRATIONS: Array<{ column: string; add: string }> = [
  { column: 'external_id', add: 'ALTER TABLE participants ADD COLUMN external_id TEXT' },
];
const UTTERANCE_MIGRATIONS: Array<{ column: string; add: string }> = [
  { column: 'turn_id', add: 'ALTER TABLE utterances ADD COLUMN turn_id TEXT' },
];

/**
 * The words of every participant's name and aliases (`nameWords`, folded in JavaScript, which folds
 * all of Unicode where SQLite's lower() folds ASCII only): findParticipantsByWords seeks (tenant, word).
 */
const NAME_WORDS = `
CREATE TABLE participant_words (
  tenant TEXT NOT NULL, word TEXT NOT NULL, participant_id TEXT NOT NULL,
  PRIMARY KEY (tenant, word, participant_id));
CREATE INDEX participant_words_by_owner ON participant_words (tenant, participant_id);
`;

/** Indexes on migrated columns: created once the columns exist. */
const MIGRATED_INDEXES = `
CREATE UNIQUE INDEX IF NOT EXISTS participants_by_external_id ON participants (tenant, external_id)
  WHERE external_id IS NOT NULL;
`;

interface ParticipantRow {
  id: string; name: string | null; external_id: string | null; aliases: string; attributes: string; voiceprint_count: number;
  created_at: string; updated_at: string;
}
interface UtteranceRow {
  id: string; session_id: string; seq: number; speaker_id: string; text: string;
  start_ms: number | null; end_ms: number | null; time: string; confidence: number | null;
  audio_ref: string | null; turn_id: string | null; addressees: string | null;
}
interface SessionRow {
  id: string; started_at: string; ended_at: string | null; metadata: string; last_event_seq: number;
}

const UTTERANCE_COLUMNS = `u.id, u.session_id, u.seq, u.speaker_id, u.text, u.start_ms, u.end_ms, u.time,
  u.confidence, u.audio_ref, u.turn_id,
  (SELECT json_group_array(a.participant_id) FROM addresses a
     WHERE a.tenant = u.tenant AND a.utterance_id = u.id) AS addressees`;

function toParticipant(row: ParticipantRow): Participant {
  return {
    id: row.id,
    name: row.name,
    externalId: row.external_id ?? null,
    aliases: fromJson<string[]>(row.aliases, []),
    attributes: fromJson<Record<string, unknown>>(row.attributes, {}),
    voiceprintCount: row.voiceprint_count,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** GLOB pattern of a string holding a character outside printable ASCII. */
const NON_ASCII = '*[^ -~]*';

function namesOf(p: Participant): string[] {
  return p.name ? [p.name, ...p.aliases] : p.aliases;
}

function toUtterance(row: UtteranceRow): Utterance {
  return {
    id: row.id,
    sessionId: row.session_id,
    seq: row.seq,
    speakerId: row.speaker_id,
    addresseeIds: fromJson<string[]>(row.addressees, []).sort(),
    text: row.text,
    startMs: row.start_ms,
    endMs: row.end_ms,
    time: row.time,
    confidence: row.confidence,
    audioRef: row.audio_ref,
    ...(row.turn_id ? { turnId: row.turn_id } : {}),
  };
}

function toSession(row: SessionRow): SessionRecord {
  return {
    id: row.id,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    metadata: fromJson<Record<string, unknown>>(row.metadata, {}),
    lastEventSeq: row.last_event_seq,
  };
}

/** The interaction graph in the embedded SQLite file: one table per node kind, one per edge set. */
export class SqliteGraphStore implements GraphStore {
  constructor(private readonly db: SqliteDatabase) {
    db.exec(SCHEMA);
    this.migrate();
  }

  /** Bring a database written by an older version up to this schema; existing rows keep their data. */
  private migrate(): void {
    const columns = new Set((this.db.prepare('PRAGMA table_info(participants)').all() as { name: string }[]).map((c) => c.name));
    const utteranceColumns = new Set((this.db.prepare('PRAGMA table_info(utterances)').all() as { name: string }[]).map((c) => c.name));
    const hasWords = this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'participant_words'").get() !== undefined;
    const run = this.db.transaction(() => {
      for (const m of PARTICIPANT_MIGRATIONS) if (!columns.has(m.column)) this.db.exec(m.add);
      for (const m of UTTERANCE_MIGRATIONS) if (!utteranceColumns.has(m.column)) this.db.exec(m.add);
      this.db.exec(MIGRATED_INDEXES);
      migrateUtteranceSeqs(this.db);
      this.db.exec(RETIRED_IDS_SCHEMA);
      if (!hasWords) {
        // Created with the words of the participants already stored, once.
        this.db.exec(NAME_WORDS);
        const all = this.db.prepare('SELECT tenant, id, name, aliases FROM participants').all() as
          Array<{ tenant: string; id: string; name: string | null; aliases: string }>;
        for (const p of all) this.indexWords(p.tenant, p.id, p.name, fromJson<string[]>(p.aliases, []));
      }
    });
    run();
  }

  /** Replace the name words of participant `id` with those of `name` and `aliases`. */
  private indexWords(tenant: TenantId, id: string, name: string | null, aliases: readonly string[]): void {
    this.db.prepare('DELETE FROM participant_words WHERE tenant = ? AND participant_id = ?').run(tenant, id);
    const insert = this.db.prepare('INSERT OR IGNORE INTO participant_words (tenant, word, participant_id) VALUES (?, ?, ?)');
    for (const word of participantNameWords(name, aliases)) insert.run(tenant, word, id);
  }

  /** Run a write; a lost race on the external id (unique index) is the same conflict as the check's. */
  private guardExternalId<T>(externalId: string | null | undefined, write: () => T): T {
    try {
      return write();
    } catch (err) {
      if (externalId && (err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw externalIdTaken(externalId, 'another participant');
      throw err;
    }
  }

  /** Throw `PARLEY_ERR_CONFLICT` when another participant than `selfId` holds `externalId`. */
  private async checkExternalId(tenant: TenantId, externalId: string | null | undefined, selfId: string | null): Promise<void> {
    if (!externalId) return;
    const holder = await this.getParticipantByExternalId(tenant, externalId);
    if (holder && holder.id !== selfId) throw externalIdTaken(externalId, holder.id);
  }

  async openSession(tenant: TenantId, sessionId: string, startedAt: string): Promise<SessionRecord> {
    this.db
      .prepare('INSERT OR IGNORE INTO sessions (tenant, id, started_at) VALUES (?, ?, ?)')
      .run(tenant, sessionId, startedAt);
    return (await this.getSession(tenant, sessionId)) as SessionRecord;
  }

  async getSession(tenant: TenantId, sessionId: string): Promise<SessionRecord | null> {
    const row = this.db
      .prepare('SELECT * FROM sessions WHERE tenant = ? AND id = ?')
      .get(tenant, sessionId) as SessionRow | undefined;
    return row ? toSession(row) : null;
  }

  async updateSession(
    tenant: TenantId,
    sessionId: string,
    patch: Partial<Pick<SessionRecord, 'endedAt' | 'metadata' | 'lastEventSeq'>>,
  ): Promise<void> {
    const stmt = this.db.prepare(`UPDATE sessions SET
      ended_at = CASE WHEN @setEnded THEN @endedAt ELSE ended_at END,
      metadata = COALESCE(@metadata, metadata),
      last_event_seq = MAX(last_event_seq, COALESCE(@lastEventSeq, 0))
      WHERE tenant = @tenant AND id = @id`);
    stmt.run({
      tenant,
      id: sessionId,
      setEnded: patch.endedAt !== undefined ? 1 : 0,
      endedAt: patch.endedAt ?? null,
      metadata: patch.metadata ? toJson(patch.metadata) : null,
      lastEventSeq: patch.lastEventSeq ?? null,
    });
  }

  async releaseEventSeq(tenant: TenantId, sessionId: string, reserved: number, last: number): Promise<void> {
    this.db.prepare('UPDATE sessions SET last_event_seq = ? WHERE tenant = ? AND id = ? AND last_event_seq = ? AND ? < ?')
      .run(last, tenant, sessionId, reserved, last, reserved);
  }

  async endSession(tenant: TenantId, sessionId: string, endedAt: string): Promise<{ endedAt: string; ended: boolean } | null> {
    const { changes } = this.db
      .prepare('UPDATE sessions SET ended_at = ? WHERE tenant = ? AND id = ? AND ended_at IS NULL')
      .run(endedAt, tenant, sessionId);
    const held = (await this.getSession(tenant, sessionId))?.endedAt;
    return held ? { endedAt: held, ended: changes > 0 } : null;
  }

  async createParticipant(tenant: TenantId, init: ParticipantPatch & { id?: string }): Promise<Participant> {
    const now = new Date().toISOString();
    const id = init.id ?? newId('p');
    await this.checkExternalId(tenant, init.externalId, id);
    const create = this.db.transaction(() => {
      const added = this.db
        .prepare(`INSERT INTO participants (tenant, id, name, external_id, aliases, attributes, created_at, updated_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tenant, id) DO NOTHING`)
        .run(tenant, id, init.name ?? null, init.externalId ?? null, toJson(init.aliases ?? []), toJson(init.attributes ?? {}), now, now);
      if (added.changes > 0) this.indexWords(tenant, id, init.name ?? null, init.aliases ?? []);
    });
    this.guardExternalId(init.externalId, () => create());
    return (await this.getParticipant(tenant, id)) as Participant;
  }

  async getParticipant(tenant: TenantId, id: string): Promise<Participant | null> {
    const row = this.db
      .prepare('SELECT * FROM participants WHERE tenant = ? AND id = ?')
      .get(tenant, id) as ParticipantRow | undefined;
    return row ? toParticipant(row) : null;
  }

  async getParticipants(tenant: TenantId, ids: string[]): Promise<Participant[]> {
    if (ids.length === 0) return [];
    const found = this.db
      .prepare('SELECT * FROM participants WHERE tenant = ? AND id IN (SELECT value FROM json_each(?))')
      .all(tenant, toJson([...new Set(ids)])) as ParticipantRow[];
    return found.map(toParticipant);
  }

  async getParticipantByExternalId(tenant: TenantId, externalId: string): Promise<Participant | null> {
    const row = this.db
      .prepare('SELECT * FROM participants WHERE tenant = ? AND external_id = ?')
      .get(tenant, externalId) as ParticipantRow | undefined;
    return row ? toParticipant(row) : null;
  }

  // SQLite's lower() folds ASCII only. Names holding any other character are always passed to the
  // exact Unicode check in JavaScript; for the rest the SQL test is already exact.
  async findParticipantsByName(tenant: TenantId, name: string): Promise<Participant[]> {
    const wanted = name.toLowerCase();
    // Whoever holds the name holds its words: seek those in the index, then check the whole name.
    const words = nameWords(name);
    if (words.length > 0) {
      return (await this.findParticipantsByWords(tenant, words)).filter((p) => namesOf(p).some((n) => n.toLowerCase() === wanted));
    }
    const rows = this.db
      .prepare(`SELECT * FROM participants p WHERE p.tenant = ? AND (lower(p.name) = ? OR p.name GLOB ?
        OR EXISTS (SELECT 1 FROM json_each(p.aliases) WHERE lower(json_each.value) = ? OR json_each.value GLOB ?))
        ORDER BY p.created_at, p.id`)
      .all(tenant, wanted, NON_ASCII, wanted, NON_ASCII) as ParticipantRow[];
    return rows.map(toParticipant).filter((p) => namesOf(p).some((n) => n.toLowerCase() === wanted));
  }

  // The participants holding a word of the text, screened in SQL by a substring test (exact for ASCII
  // names, see findParticipantsByName) so that only names the text holds become objects here; the
  // whole-word check then runs on those.
  async findParticipantsInText(tenant: TenantId, text: string): Promise<Participant[]> {
    const words = textNameWords(text);
    if (words.length === 0) return [];
    const lower = text.toLowerCase();
    const rows = this.db
      .prepare(`SELECT * FROM participants p WHERE p.tenant = ? AND p.id IN (SELECT w.participant_id FROM participant_words w
          WHERE w.tenant = ? AND w.word IN (SELECT value FROM json_each(?)))
        AND ((length(p.name) > 1 AND (instr(?, lower(p.name)) > 0 OR p.name GLOB ?))
          OR EXISTS (SELECT 1 FROM json_each(p.aliases) WHERE length(json_each.value) > 1
            AND (instr(?, lower(json_each.value)) > 0 OR json_each.value GLOB ?)))
        ORDER BY +p.created_at, p.id`)
      .all(tenant, tenant, toJson(words), lower, NON_ASCII, lower, NON_ASCII) as ParticipantRow[];
    return rows.map(toParticipant).filter((p) => namedInText(text, namesOf(p)));
  }

  async findParticipantsByWords(tenant: TenantId, words: readonly string[]): Promise<Participant[]> {
    const wanted = [...new Set(words.map((w) => w.toLowerCase()))];
    if (wanted.length === 0) return [];
    const rows = this.db
      // The unary + keeps the planner off participants_by_age: sorting the few found beats walking the tenant in order.
      .prepare(`SELECT * FROM participants p WHERE p.tenant = ? AND p.id IN (SELECT w.participant_id FROM participant_words w
          WHERE w.tenant = ? AND w.word IN (SELECT value FROM json_each(?)))
        ORDER BY +p.created_at, p.id`)
      .all(tenant, tenant, toJson(wanted)) as ParticipantRow[];
    return rows.map(toParticipant);
  }

  async recentNamedParticipants(tenant: TenantId, limit: number, offset = 0): Promise<Participant[]> {
    const rows = this.db
      .prepare(`SELECT * FROM participants WHERE tenant = ? AND (name IS NOT NULL OR aliases <> '[]')
        ORDER BY updated_at DESC, created_at, id LIMIT ? OFFSET ?`)
      .all(tenant, Math.max(0, Math.floor(limit)), Math.max(0, Math.floor(offset))) as ParticipantRow[];
    return rows.map(toParticipant);
  }

  async listParticipants(tenant: TenantId, page: ParticipantPage = {}): Promise<Participant[]> {
    const after = page.after ?? { createdAt: '', id: '' };
    const rows = this.db
      .prepare(`SELECT * FROM participants WHERE tenant = ? AND (created_at, id) > (?, ?) ORDER BY created_at, id LIMIT ?`)
      .all(tenant, after.createdAt, after.id, page.limit ?? -1) as ParticipantRow[];
    return rows.map(toParticipant);
  }

  async updateParticipant(tenant: TenantId, id: string, patch: ParticipantPatch): Promise<Participant | null> {
    const current = await this.getParticipant(tenant, id);
    if (!current) return null;
    await this.checkExternalId(tenant, patch.externalId, id);
    const name = patch.name !== undefined ? patch.name : current.name;
    const aliases = patch.aliases ?? current.aliases;
    const update = this.db.transaction(() => {
      this.db
        .prepare('UPDATE participants SET name = ?, external_id = ?, aliases = ?, attributes = ?, updated_at = ? WHERE tenant = ? AND id = ?')
        .run(
          name,
          patch.externalId !== undefined ? patch.externalId : current.externalId,
          toJson(aliases),
          toJson(patch.attributes ?? current.attributes),
          new Date().toISOString(),
          tenant,
          id,
        );
      if (patch.name !== undefined || patch.aliases !== undefined) this.indexWords(tenant, id, name, aliases);
    });
    this.guardExternalId(patch.externalId, () => update());
    return this.getParticipant(tenant, id);
  }

  async setVoiceprintCount(tenant: TenantId, id: string, count: number): Promise<void> {
    this.db
      .prepare('UPDATE participants SET voiceprint_count = ? WHERE tenant = ? AND id = ?')
      .run(count, tenant, id);
  }

  async deleteParticipant(tenant: TenantId, id: string): Promise<string[] | null> {
    const erase = this.db.transaction((): string[] | null => {
      const spoken = this.db
        .prepare('SELECT id FROM utterances WHERE tenant = ? AND speaker_id = ?')
        .all(tenant, id) as { id: string }[];
      this.db
        .prepare(`DELETE FROM addresses WHERE tenant = ? AND utterance_id IN
          (SELECT id FROM utterances WHERE tenant = ? AND speaker_id = ?)`)
        .run(tenant, tenant, id);
      this.db.prepare('DELETE FROM utterances WHERE tenant = ? AND speaker_id = ?').run(tenant, id);
      this.db.prepare('DELETE FROM addresses WHERE tenant = ? AND participant_id = ?').run(tenant, id);
      this.db.prepare('DELETE FROM participant_words WHERE tenant = ? AND participant_id = ?').run(tenant, id);
      const removed = this.db.prepare('DELETE FROM participants WHERE tenant = ? AND id = ?').run(tenant, id).changes > 0;
      if (removed) recordErasure(this.db, tenant, id, new Date().toISOString());
      return removed ? spoken.map((r) => r.id) : null;
    });
    return erase();
  }

  async mergeParticipants(tenant: TenantId, fromId: string, intoId: string): Promise<void> {
    if (fromId === intoId) return;
    const from = await this.getParticipant(tenant, fromId);
    const into = await this.getParticipant(tenant, intoId);
    if (!from || !into) return;
    checkMergeable(from, into);
    const aliases = new Set([...into.aliases, ...from.aliases]);
    if (from.name && from.name !== into.name) aliases.add(from.name);
    if (into.name) aliases.delete(into.name);
    const mergedAliases = [...aliases].filter((a) => a !== (into.name ?? from.name));
    const merge = this.db.transaction(() => {
      this.db.prepare('UPDATE utterances SET speaker_id = ? WHERE tenant = ? AND speaker_id = ?').run(intoId, tenant, fromId);
      this.db
        .prepare(`INSERT OR IGNORE INTO addresses (tenant, utterance_id, participant_id)
          SELECT tenant, utterance_id, ? FROM addresses WHERE tenant = ? AND participant_id = ?`)
        .run(intoId, tenant, fromId);
      this.db.prepare('DELETE FROM addresses WHERE tenant = ? AND participant_id = ?').run(tenant, fromId);
      // Fragments of one person that addressed each other: nobody addresses themself.
      this.db
        .prepare(`DELETE FROM addresses WHERE tenant = ? AND participant_id = ?
          AND utterance_id IN (SELECT id FROM utterances WHERE tenant = ? AND speaker_id = ?)`)
        .run(tenant, intoId, tenant, intoId);
      // The merged-away row goes first, so its external id is free for `into` (unique index).
      this.db.prepare('DELETE FROM participants WHERE tenant = ? AND id = ?').run(tenant, fromId);
      this.db.prepare('DELETE FROM participant_words WHERE tenant = ? AND participant_id = ?').run(tenant, fromId);
      this.indexWords(tenant, intoId, into.name ?? from.name, mergedAliases);
      this.db
        .prepare(`UPDATE participants SET name = ?, external_id = ?, aliases = ?, attributes = ?,
          voiceprint_count = voiceprint_count + ?, updated_at = ? WHERE tenant = ? AND id = ?`)
        .run(
          into.name ?? from.name,
          into.externalId ?? from.externalId,
          toJson(mergedAliases),
          toJson({ ...from.attributes, ...into.attributes }),
          from.voiceprintCount,
          new Date().toISOString(),
          tenant,
          intoId,
        );
      recordMerge(this.db, tenant, fromId, intoId, new Date().toISOString());
    });
    merge();
  }

  async retiredParticipant(tenant: TenantId, id: string): Promise<RetiredParticipant | null> {
    return lookupRetired(this.db, tenant, id);
  }

  async addUtterances(tenant: TenantId, utterances: NewUtterance[]): Promise<Utterance[]> {
    const nextSeq = utteranceSeqCounter(this.db);
    const insert = this.db.prepare(`INSERT INTO utterances
      (tenant, id, session_id, seq, speaker_id, text, start_ms, end_ms, time, confidence, audio_ref, turn_id)
      VALUES (@tenant, @id, @sessionId, @seq, @speakerId, @text, @startMs, @endMs, @time, @confidence, @audioRef, @turnId)`);
    const edge = this.db.prepare(
      'INSERT OR IGNORE INTO addresses (tenant, utterance_id, participant_id) VALUES (?, ?, ?)',
    );
    const write = this.db.transaction((items: NewUtterance[]) => {
      const ids: string[] = [];
      for (const u of items) {
        const id = u.id ?? newId('u');
        const seq = nextSeq(tenant, u.sessionId);
        insert.run({
          tenant, id, seq, sessionId: u.sessionId, speakerId: u.speakerId, text: u.text,
          startMs: u.startMs, endMs: u.endMs, time: u.time, confidence: u.confidence, audioRef: u.audioRef, turnId: u.turnId ?? null,
        });
        for (const a of new Set(u.addresseeIds)) if (a !== u.speakerId) edge.run(tenant, id, a);
        ids.push(id);
      }
      return ids;
    });
    return this.getUtterances(tenant, write(utterances));
  }

  async getUtterance(tenant: TenantId, id: string): Promise<Utterance | null> {
    return (await this.getUtterances(tenant, [id]))[0] ?? null;
  }

  async getUtterances(tenant: TenantId, ids: string[]): Promise<Utterance[]> {
    if (ids.length === 0) return [];
    const rows = this.db
      .prepare(`SELECT ${UTTERANCE_COLUMNS} FROM utterances u
        WHERE u.tenant = ? AND u.id IN (SELECT value FROM json_each(?))`)
      .all(tenant, toJson(ids)) as UtteranceRow[];
    const byId = new Map(rows.map((r) => [r.id, toUtterance(r)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async getTranscript(tenant: TenantId, sessionId: string, page: TranscriptPage = {}): Promise<Utterance[]> {
    const rows = this.db
      .prepare(`SELECT ${UTTERANCE_COLUMNS} FROM utterances u WHERE u.tenant = ? AND u.session_id = ? AND u.seq > ?
        ORDER BY u.seq LIMIT ?`)
      .all(tenant, sessionId, page.afterSeq ?? -1, page.limit ?? -1) as UtteranceRow[];
    return rows.map(toUtterance);
  }

  async recentUtterances(tenant: TenantId, sessionId: string, n: number, beforeSeq?: number): Promise<Utterance[]> {
    const rows = this.db
      .prepare(`SELECT ${UTTERANCE_COLUMNS} FROM utterances u WHERE u.tenant = ? AND u.session_id = ? AND u.seq < ?
        ORDER BY u.seq DESC LIMIT ?`)
      .all(tenant, sessionId, beforeSeq ?? Number.MAX_SAFE_INTEGER, n) as UtteranceRow[];
    return rows.map(toUtterance).reverse();
  }

  async queryInteractions(tenant: TenantId, filter: InteractionFilter): Promise<Utterance[]> {
    const where = ['u.tenant = @tenant'];
    if (filter.speakerId) where.push('u.speaker_id = @speakerId');
    if (filter.sessionId) where.push('u.session_id = @sessionId');
    if (filter.since) where.push('u.time >= @since');
    if (filter.until) where.push('u.time < @until');
    if (filter.addresseeId) {
      where.push(`EXISTS (SELECT 1 FROM addresses a WHERE a.tenant = u.tenant AND a.utterance_id = u.id
        AND a.participant_id = @addresseeId)`);
    }
    const limit = Math.min(Math.max(filter.limit ?? 100, 1), 1000);
    const rows = this.db
      .prepare(`SELECT ${UTTERANCE_COLUMNS} FROM utterances u WHERE ${where.join(' AND ')}
        ORDER BY u.time DESC, u.seq DESC LIMIT @limit`)
      .all({
        tenant, limit,
        speakerId: filter.speakerId, sessionId: filter.sessionId, since: filter.since,
        until: filter.until, addresseeId: filter.addresseeId,
      }) as UtteranceRow[];
    return rows.map(toUtterance);
  }

  async ready(): Promise<boolean> {
    return this.db.open;
  }

  async close(): Promise<void> {
    // The database handle is shared by every SQLite store; its owner closes it.
  }
}
