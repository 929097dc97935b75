import type { AddUtterancesOptions, InteractionFilter, NewUtterance, TranscriptPage } from '../graph-store.js';
import { streamTakenOver } from '../stream-owner.js';
import type { TenantId, Utterance } from '../types.js';
import { toJson, type SqliteDatabase } from './database.js';
import { newId } from '../core/ids.js';
import { utteranceSeqCounter } from './sqlite-utterance-seqs.js';
import { toUtterance, UTTERANCE_COLUMNS, type UtteranceRow } from './sqlite-graph-rows.js';

// The utterances and addressee edges of the SQLite graph store (SqliteGraphStore delegates here).

/**
 * Store `utterances` (numbered per session) and their addressee edges in one transaction; returns them as stored. With
 * `streamOwner`, only while it holds each session's audio stream (read in the same transaction, which takes the write
 * lock first, so a takeover by another process commits wholly before or after it).
 */
export function addUtterances(db: SqliteDatabase, tenant: TenantId, utterances: NewUtterance[], options: AddUtterancesOptions = {}): Utterance[] {
  const nextSeq = utteranceSeqCounter(db);
  const insert = db.prepare(`INSERT INTO utterances
    (tenant, id, session_id, seq, speaker_id, text, start_ms, end_ms, time, confidence, audio_ref, turn_id, heard_asr, heard_sample_rate)
    VALUES (@tenant, @id, @sessionId, @seq, @speakerId, @text, @startMs, @endMs, @time, @confidence, @audioRef, @turnId,
      @heardAsr, @heardSampleRate)`);
  const edge = db.prepare(
    'INSERT OR IGNORE INTO addresses (tenant, utterance_id, participant_id) VALUES (?, ?, ?)',
  );
  const ownerOf = db.prepare('SELECT stream_owner AS owner FROM sessions WHERE tenant = ? AND id = ?');
  const { streamOwner } = options;
  const write = db.transaction((items: NewUtterance[]) => {
    if (streamOwner !== undefined) {
      for (const sessionId of new Set(items.map((u) => u.sessionId))) {
        const held = (ownerOf.get(tenant, sessionId) as { owner: string | null } | undefined)?.owner ?? null;
        if (held !== null && held !== streamOwner) throw streamTakenOver(sessionId);
      }
    }
    const ids: string[] = [];
    for (const u of items) {
      const id = u.id ?? newId('u');
      const seq = nextSeq(tenant, u.sessionId);
      insert.run({
        tenant, id, seq, sessionId: u.sessionId, speakerId: u.speakerId, text: u.text,
        startMs: u.startMs, endMs: u.endMs, time: u.time, confidence: u.confidence, audioRef: u.audioRef, turnId: u.turnId ?? null,
        heardAsr: u.heardBy?.asr ?? null, heardSampleRate: u.heardBy?.sampleRate ?? null,
      });
      for (const a of new Set(u.addresseeIds)) if (a !== u.speakerId) edge.run(tenant, id, a);
      ids.push(id);
    }
    return ids;
  });
  return getUtterances(db, tenant, streamOwner === undefined ? write(utterances) : write.immediate(utterances));
}

/** The utterances of `ids` that exist, in the order of `ids`. */
export function getUtterances(db: SqliteDatabase, tenant: TenantId, ids: string[]): Utterance[] {
  if (ids.length === 0) return [];
  const rows = db
    .prepare(`SELECT ${UTTERANCE_COLUMNS} FROM utterances u
      WHERE u.tenant = ? AND u.id IN (SELECT value FROM json_each(?))`)
    .all(tenant, toJson(ids)) as UtteranceRow[];
  const byId = new Map(rows.map((r) => [r.id, toUtterance(r)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** A session's utterances in the order they were said (`time`, then `seq`), one page (read in `utterances_by_said` order). */
export function getTranscript(db: SqliteDatabase, tenant: TenantId, sessionId: string, page: TranscriptPage = {}): Utterance[] {
  // Every stored time sorts after '' (the start), so a first page needs no clause of its own.
  const rows = db
    .prepare(`SELECT ${UTTERANCE_COLUMNS} FROM utterances u WHERE u.tenant = @tenant AND u.session_id = @sessionId
      AND (u.time, u.seq) > (@afterTime, @afterSeq) ORDER BY u.time, u.seq LIMIT @limit`)
    .all({ tenant, sessionId, afterTime: page.after?.time ?? '', afterSeq: page.after?.seq ?? -1, limit: page.limit ?? -1 }) as UtteranceRow[];
  return rows.map(toUtterance);
}

/** The last `n` utterances of a session before `beforeSeq`, oldest first. */
export function recentUtterances(db: SqliteDatabase, tenant: TenantId, sessionId: string, n: number, beforeSeq?: number): Utterance[] {
  const rows = db
    .prepare(`SELECT ${UTTERANCE_COLUMNS} FROM utterances u WHERE u.tenant = ? AND u.session_id = ? AND u.seq < ?
      ORDER BY u.seq DESC LIMIT ?`)
    .all(tenant, sessionId, beforeSeq ?? Number.MAX_SAFE_INTEGER, n) as UtteranceRow[];
  return rows.map(toUtterance).reverse();
}

/** Utterances matching `filter`, newest first. */
export function queryInteractions(db: SqliteDatabase, tenant: TenantId, filter: InteractionFilter): Utterance[] {
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
  const rows = db
    .prepare(`SELECT ${UTTERANCE_COLUMNS} FROM utterances u WHERE ${where.join(' AND ')}
      ORDER BY u.time DESC, u.seq DESC, u.id DESC LIMIT @limit OFFSET @offset`)
    .all({
      tenant, limit, offset: Math.max(0, Math.floor(filter.offset ?? 0)),
      speakerId: filter.speakerId, sessionId: filter.sessionId, since: filter.since,
      until: filter.until, addresseeId: filter.addresseeId,
    }) as UtteranceRow[];
  return rows.map(toUtterance);
}

/** Remove the utterances of `ids` the tenant holds, their addressee edges and pending moves, in one transaction (`GraphStore.deleteUtterances`). */
export function deleteUtterances(db: SqliteDatabase, tenant: TenantId, ids: string[]): string[] {
  if (ids.length === 0) return [];
  const erase = db.transaction((): string[] => {
    const found = db.prepare('SELECT id FROM utterances WHERE tenant = ? AND id IN (SELECT value FROM json_each(?))')
      .all(tenant, toJson(ids)) as { id: string }[];
    const list = toJson(found.map((r) => r.id));
    for (const table of ['addresses', 'utterance_moves']) {
      db.prepare(`DELETE FROM ${table} WHERE tenant = ? AND utterance_id IN (SELECT value FROM json_each(?))`).run(tenant, list);
    }
    db.prepare('DELETE FROM utterances WHERE tenant = ? AND id IN (SELECT value FROM json_each(?))').run(tenant, list);
    return found.map((r) => r.id);
  });
  return erase();
}

/** One page of the utterances whose text holds one of `fragments`, by id (`GraphStore.utterancesContaining`). */
export function utterancesContaining(db: SqliteDatabase, tenant: TenantId, fragments: readonly string[], page: { afterId?: string; limit: number }): Utterance[] {
  if (fragments.length === 0) return [];
  const rows = db
    .prepare(`SELECT ${UTTERANCE_COLUMNS} FROM utterances u WHERE u.tenant = @tenant AND u.id > @afterId
      AND EXISTS (SELECT 1 FROM json_each(@fragments) f WHERE instr(lower(u.text), lower(f.value)) > 0)
      ORDER BY u.id LIMIT @limit`)
    .all({ tenant, afterId: page.afterId ?? '', fragments: toJson(fragments), limit: page.limit }) as UtteranceRow[];
  return rows.map(toUtterance);
}

/** Replace the text of these utterances, in one transaction (`GraphStore.setUtteranceTexts`). */
export function setUtteranceTexts(db: SqliteDatabase, tenant: TenantId, texts: ReadonlyArray<{ id: string; text: string }>): void {
  const update = db.prepare('UPDATE utterances SET text = ? WHERE tenant = ? AND id = ?');
  db.transaction(() => {
    for (const t of texts) update.run(t.text, tenant, t.id);
  })();
}
