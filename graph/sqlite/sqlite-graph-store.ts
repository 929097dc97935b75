import type { AddUtterancesOptions, GraphStore, InteractionFilter, NewUtterance, ParticipantNames, ParticipantPage, ParticipantPatch, TranscriptPage } from '../graph-store.js';
import type { Participant, SessionRecord, StreamClock, TenantId, Utterance } from '../types.js';
import { fromJson, toJson, type SqliteDatabase } from './database.js';
import { withAttribute } from '../attribute-update.js';
import { newId } from '../core/ids.js';
import { ParleyError } from '../core/errors.js';
import { checkMergeable, externalIdTaken } from '../external-id.js';
import { namedInText, nameWords, textNameWords } from '../name-words.js';
import type { RetiredParticipant } from '../retired-ids.js';
import { lookupRetired, recordErasure, recordMerge } from './sqlite-retired-ids.js';
import type { ErasureLease, PendingErasure } from '../pending-erasures.js';
import { addErasedUtterances, beginClaimedErasure, beginErasure, claimErasure, endErasure, pendingErasures } from './sqlite-pending-erasures.js';
import { beginMerge, endMerge, forgetMergesOf, pendingMerges, pendingMergesOf, renewMerge } from './sqlite-pending-merges.js';
import type { PendingMerge } from '../pending-merges.js';
import { createGraphSchema, indexParticipantWords } from './sqlite-graph-schema.js';
import { namesOf, NON_ASCII, toParticipant, toSession, type ParticipantRow, type SessionRow } from './sqlite-graph-rows.js';
import { addUtterances, deleteUtterances, getTranscript, getUtterances, queryInteractions, recentUtterances, setUtteranceTexts, utterancesContaining } from './sqlite-utterances.js';

/** The interaction graph in the embedded SQLite file: one table per node kind, one per edge set. */
export class SqliteGraphStore implements GraphStore {
  /** The last `createNamedParticipant` of this store, which the next one waits for. */
  private naming: Promise<unknown> = Promise.resolve();

  constructor(private readonly db: SqliteDatabase) {
    createGraphSchema(db);
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
    patch: Partial<Pick<SessionRecord, 'endedAt' | 'metadata' | 'lastEventSeq' | 'audioStreamMs' | 'activeAt'>>,
  ): Promise<void> {
    const stmt = this.db.prepare(`UPDATE sessions SET
      ended_at = CASE WHEN @setEnded THEN @endedAt ELSE ended_at END,
      metadata = COALESCE(@metadata, metadata),
      last_event_seq = MAX(last_event_seq, COALESCE(@lastEventSeq, 0)),
      audio_stream_ms = CASE WHEN @setStream THEN @audioStreamMs ELSE audio_stream_ms END,
      active_at = COALESCE(@activeAt, active_at)
      WHERE tenant = @tenant AND id = @id`);
    stmt.run({
      tenant,
      id: sessionId,
      setEnded: patch.endedAt !== undefined ? 1 : 0,
      endedAt: patch.endedAt ?? null,
      metadata: patch.metadata ? toJson(patch.metadata) : null,
      lastEventSeq: patch.lastEventSeq ?? null,
      setStream: patch.audioStreamMs !== undefined ? 1 : 0,
      audioStreamMs: patch.audioStreamMs ?? null,
      activeAt: patch.activeAt ?? null,
    });
  }

  async takeAudioStream(tenant: TenantId, sessionId: string, owner: string): Promise<void> {
    this.db.prepare('UPDATE sessions SET stream_owner = ? WHERE tenant = ? AND id = ?').run(owner, tenant, sessionId);
  }

  async startAudioStream(tenant: TenantId, sessionId: string, owner: string, audioStreamMs: number, clock: StreamClock | null = null): Promise<boolean> {
    const { changes } = this.db
      .prepare('UPDATE sessions SET audio_stream_ms = ?, stream_clock = ? WHERE tenant = ? AND id = ? AND (stream_owner IS NULL OR stream_owner = ?)')
      .run(audioStreamMs, clock ? toJson(clock) : null, tenant, sessionId, owner);
    return changes > 0;
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

  async idleSessions(activeBefore: string, limit: number): Promise<Array<{ tenant: TenantId; id: string }>> {
    return this.db
      .prepare('SELECT tenant, id FROM sessions WHERE ended_at IS NULL AND active_at IS NOT NULL AND active_at < ? ORDER BY active_at LIMIT ?')
      .all(activeBefore, limit) as Array<{ tenant: TenantId; id: string }>;
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
      if (added.changes > 0) indexParticipantWords(this.db, tenant, id, init.name ?? null, init.aliases ?? []);
    });
    this.guardExternalId(init.externalId, () => create());
    return (await this.getParticipant(tenant, id)) as Participant;
  }

  // One at a time in this process: the lookup and the insert are separate calls, and two requests'
  // promise chains could otherwise interleave between them.
  async createNamedParticipant(tenant: TenantId, name: string): Promise<{ participants: Participant[]; created: boolean }> {
    const turn = this.naming.then(async () => {
      const holders = await this.findParticipantsByName(tenant, name);
      if (holders.length > 0) return { participants: holders, created: false };
      return { participants: [await this.createParticipant(tenant, { name })], created: true };
    });
    this.naming = turn.catch(() => undefined);
    return turn;
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

  async participantsOwingRename(tenant: TenantId, page: ParticipantPage = {}): Promise<Participant[]> {
    const after = page.after ?? { createdAt: '', id: '' };
    // The condition is the partial index's own (participants_owing_rename), so the index is used.
    const rows = this.db
      .prepare(`SELECT * FROM participants INDEXED BY participants_owing_rename
        WHERE tenant = ? AND json_extract(attributes, '$."$pending_rename"') IS NOT NULL AND (created_at, id) > (?, ?)
        ORDER BY created_at, id LIMIT ?`)
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
        .prepare('UPDATE participants SET name = ?, external_id = ?, aliases = ?, attributes = coalesce(?, attributes), updated_at = ? WHERE tenant = ? AND id = ?')
        .run(
          name,
          patch.externalId !== undefined ? patch.externalId : current.externalId,
          toJson(aliases),
          // Unpatched attributes are left as stored now, not as read above: a concurrent attribute write stands.
          patch.attributes ? toJson(patch.attributes) : null,
          new Date().toISOString(),
          tenant,
          id,
        );
      if (patch.name !== undefined || patch.aliases !== undefined) indexParticipantWords(this.db, tenant, id, name, aliases);
    });
    this.guardExternalId(patch.externalId, () => update());
    return this.getParticipant(tenant, id);
  }

  async updateParticipantAttribute(tenant: TenantId, id: string, key: string, update: (current: unknown) => unknown): Promise<Participant | null> {
    return this.updateParticipantAttributes(tenant, id, (attributes) => withAttribute(attributes, key, update));
  }

  async updateParticipantAttributes(
    tenant: TenantId, id: string, update: (attributes: Record<string, unknown>) => Record<string, unknown>,
  ): Promise<Participant | null> {
    const write = this.db.transaction((): boolean => {
      const row = this.db.prepare('SELECT attributes FROM participants WHERE tenant = ? AND id = ?').get(tenant, id) as { attributes: string } | undefined;
      if (!row) return false;
      const stored = fromJson<Record<string, unknown>>(row.attributes, {});
      const attributes = update(stored);
      if (attributes === stored) return true;
      this.db
        .prepare('UPDATE participants SET attributes = ?, updated_at = ? WHERE tenant = ? AND id = ?')
        .run(toJson(attributes), new Date().toISOString(), tenant, id);
      return true;
    });
    return write() ? this.getParticipant(tenant, id) : null;
  }

  async updateParticipantNames(tenant: TenantId, id: string, update: (stored: ParticipantNames) => ParticipantNames): Promise<Participant | null> {
    const write = this.db.transaction((): boolean => {
      const row = this.db.prepare('SELECT name, aliases, attributes FROM participants WHERE tenant = ? AND id = ?').get(tenant, id) as
        { name: string | null; aliases: string; attributes: string } | undefined;
      if (!row) return false;
      const stored = { name: row.name, aliases: fromJson<string[]>(row.aliases, []), attributes: fromJson<Record<string, unknown>>(row.attributes, {}) };
      const next = update(stored);
      if (next === stored) return true;
      this.db
        .prepare('UPDATE participants SET name = ?, aliases = ?, attributes = ?, updated_at = ? WHERE tenant = ? AND id = ?')
        .run(next.name, toJson(next.aliases), toJson(next.attributes), new Date().toISOString(), tenant, id);
      indexParticipantWords(this.db, tenant, id, next.name, next.aliases);
      return true;
    });
    return write() ? this.getParticipant(tenant, id) : null;
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
      if (removed) addErasedUtterances(this.db, tenant, id, spoken.map((r) => r.id));
      if (removed) forgetMergesOf(this.db, tenant, id);
      return removed ? spoken.map((r) => r.id) : null;
    });
    return erase();
  }

  async deleteUtterances(tenant: TenantId, ids: string[]): Promise<string[]> {
    return deleteUtterances(this.db, tenant, ids);
  }

  async utterancesContaining(tenant: TenantId, fragments: readonly string[], page: { afterId?: string; limit: number }): Promise<Utterance[]> {
    return utterancesContaining(this.db, tenant, fragments, page);
  }

  async setUtteranceTexts(tenant: TenantId, texts: ReadonlyArray<{ id: string; text: string }>): Promise<void> {
    setUtteranceTexts(this.db, tenant, texts);
  }

  async deleteSession(tenant: TenantId, sessionId: string): Promise<boolean> {
    return this.db.prepare('DELETE FROM sessions WHERE tenant = ? AND id = ?').run(tenant, sessionId).changes > 0;
  }

  async beginErasure(tenant: TenantId, id: string, plan: string, utteranceIds: string[]): Promise<void> {
    beginErasure(this.db, tenant, id, plan, utteranceIds, new Date().toISOString());
  }

  async beginClaimedErasure(tenant: TenantId, id: string, plan: string, utteranceIds: string[], lease: ErasureLease): Promise<boolean> {
    return beginClaimedErasure(this.db, tenant, id, plan, utteranceIds, lease);
  }

  async pendingErasures(tenant: TenantId): Promise<PendingErasure[]> {
    return pendingErasures(this.db, tenant);
  }

  async claimErasure(tenant: TenantId, id: string, lease: ErasureLease): Promise<boolean> {
    return claimErasure(this.db, tenant, id, lease);
  }

  async endErasure(tenant: TenantId, id: string): Promise<void> {
    endErasure(this.db, tenant, id);
  }

  async mergeParticipants(tenant: TenantId, fromId: string, intoId: string, reindex: string[] = []): Promise<void> {
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
      // The attributes as stored now, not as read above: a PATCH of either landing in between is kept.
      const stored = (id: string): Record<string, unknown> => {
        const row = this.db.prepare('SELECT attributes FROM participants WHERE tenant = ? AND id = ?').get(tenant, id) as { attributes: string } | undefined;
        return fromJson<Record<string, unknown>>(row?.attributes, {});
      };
      const attributes = { ...stored(fromId), ...stored(intoId) };
      beginMerge(this.db, tenant, fromId, intoId, reindex, new Date().toISOString());
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
      indexParticipantWords(this.db, tenant, intoId, into.name ?? from.name, mergedAliases);
      this.db
        .prepare(`UPDATE participants SET name = ?, external_id = ?, aliases = ?, attributes = ?,
          voiceprint_count = voiceprint_count + ?, updated_at = ? WHERE tenant = ? AND id = ?`)
        .run(
          into.name ?? from.name,
          into.externalId ?? from.externalId,
          toJson(mergedAliases),
          toJson(attributes),
          from.voiceprintCount,
          new Date().toISOString(),
          tenant,
          intoId,
        );
      recordMerge(this.db, tenant, fromId, intoId, new Date().toISOString());
    });
    merge();
  }

  async pendingMerges(tenant: TenantId): Promise<PendingMerge[]> {
    return pendingMerges(this.db, tenant);
  }

  async pendingMergesOf(tenant: TenantId, id: string): Promise<PendingMerge[]> {
    return pendingMergesOf(this.db, tenant, id);
  }

  async renewMerge(tenant: TenantId, fromId: string, intoId: string, at: string, erasure?: string): Promise<boolean> {
    return renewMerge(this.db, tenant, fromId, intoId, at, erasure);
  }

  async endMerge(tenant: TenantId, fromId: string, intoId: string): Promise<void> {
    endMerge(this.db, tenant, fromId, intoId);
  }

  async setUtteranceSpeaker(tenant: TenantId, utteranceId: string, speakerId: string): Promise<Utterance | null> {
    const move = this.db.transaction((): boolean => {
      if (!this.db.prepare('SELECT 1 FROM participants WHERE tenant = ? AND id = ?').get(tenant, speakerId)) {
        throw new ParleyError('PARLEY_ERR_NOT_FOUND', `no participant ${speakerId}`);
      }
      const moved = this.db.prepare('UPDATE utterances SET speaker_id = ? WHERE tenant = ? AND id = ?').run(speakerId, tenant, utteranceId).changes > 0;
      if (!moved) return false;
      this.db.prepare('DELETE FROM addresses WHERE tenant = ? AND utterance_id = ? AND participant_id = ?').run(tenant, utteranceId, speakerId);
      this.db.prepare('INSERT OR REPLACE INTO utterance_moves (tenant, utterance_id, moved_at) VALUES (?, ?, ?)')
        .run(tenant, utteranceId, new Date().toISOString());
      return true;
    });
    return move() ? this.getUtterance(tenant, utteranceId) : null;
  }

  async pendingMoves(tenant: TenantId): Promise<string[]> {
    const rows = this.db.prepare('SELECT utterance_id FROM utterance_moves WHERE tenant = ? ORDER BY moved_at, utterance_id')
      .all(tenant) as { utterance_id: string }[];
    return rows.map((r) => r.utterance_id);
  }

  async clearPendingMoves(tenant: TenantId, utteranceIds: string[]): Promise<void> {
    this.db.prepare('DELETE FROM utterance_moves WHERE tenant = ? AND utterance_id IN (SELECT value FROM json_each(?))')
      .run(tenant, toJson(utteranceIds));
  }

  async retiredParticipant(tenant: TenantId, id: string): Promise<RetiredParticipant | null> {
    return lookupRetired(this.db, tenant, id);
  }

  async addUtterances(tenant: TenantId, utterances: NewUtterance[], options: AddUtterancesOptions = {}): Promise<Utterance[]> {
    return addUtterances(this.db, tenant, utterances, options);
  }

  async getUtterance(tenant: TenantId, id: string): Promise<Utterance | null> {
    return (await this.getUtterances(tenant, [id]))[0] ?? null;
  }

  async getUtterances(tenant: TenantId, ids: string[]): Promise<Utterance[]> {
    return getUtterances(this.db, tenant, ids);
  }

  async getTranscript(tenant: TenantId, sessionId: string, page: TranscriptPage = {}): Promise<Utterance[]> {
    return getTranscript(this.db, tenant, sessionId, page);
  }

  async recentUtterances(tenant: TenantId, sessionId: string, n: number, beforeSeq?: number): Promise<Utterance[]> {
    return recentUtterances(this.db, tenant, sessionId, n, beforeSeq);
  }

  async queryInteractions(tenant: TenantId, filter: InteractionFilter): Promise<Utterance[]> {
    return queryInteractions(this.db, tenant, filter);
  }

  async ready(): Promise<boolean> {
    return this.db.open;
  }

  async close(): Promise<void> {
    // The database handle is shared by every SQLite store; its owner closes it.
  }
}
