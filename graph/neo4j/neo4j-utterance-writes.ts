import type { ManagedTransaction } from 'neo4j-driver';
import type { NewUtterance } from '../graph-store.js';
import { ParleyError } from '../core/errors.js';
import { int, toNum } from './neo4j-connection.js';
import { DROP_ORPHAN_ADDRESSEE } from './neo4j-store-base.js';
import { streamTakenOver } from '../stream-owner.js';

/**
 * Throw `PARLEY_ERR_SESSION_BUSY` in transaction `tx` unless `owner` holds the audio stream of each session of
 * `utterances` (or nobody does). The write lock taken on each session node first makes the check and the writes after
 * it one step against a takeover (`takeAudioStream` writes that node): it commits wholly before or after them.
 */
export async function checkStreamOwner(tx: ManagedTransaction, t: string, utterances: NewUtterance[], owner: string): Promise<void> {
  for (const sessionId of new Set(utterances.map((u) => u.sessionId))) {
    const result = await tx.run(`
      MATCH (n:Session {tenant: $tenant, id: $id}) SET n._streamLock = true REMOVE n._streamLock
      RETURN n.streamOwner AS owner`, { tenant: t, id: sessionId });
    const held = result.records[0]?.get('owner') as string | null | undefined;
    if (held !== null && held !== undefined && held !== owner) throw streamTakenOver(sessionId);
  }
}

/**
 * Create `utterances` (ids `ids`, in order) of stored tenant `t` in transaction `tx`: numbered per
 * session, with their SPEAKS, IN_SESSION, ADDRESSED and ADDRESSES edges.
 */
export async function writeUtterances(tx: ManagedTransaction, t: string, utterances: NewUtterance[], ids: string[]): Promise<void> {
  // Sequence numbers come from a per-session counter node; the write lock on it serialises writers.
  const perSession = new Map<string, number>();
  for (const u of utterances) perSession.set(u.sessionId, (perSession.get(u.sessionId) ?? 0) + 1);
  const base = new Map<string, number>();
  for (const [sessionId, n] of perSession) {
    const result = await tx.run(`
      MERGE (c:SessionCounter {tenant: $tenant, sessionId: $sessionId}) ON CREATE SET c.value = 0
      SET c.value = c.value + $n RETURN c.value - $n AS before`, { tenant: t, sessionId, n: int(n) });
    base.set(sessionId, toNum(result.records[0]?.get('before') ?? 0));
  }
  const list = utterances.map((u, i) => {
    const seq = (base.get(u.sessionId) ?? 0) + 1;
    base.set(u.sessionId, seq);
    return {
      id: ids[i]!, sessionId: u.sessionId, seq: int(seq), speakerId: u.speakerId,
      addresseeIds: [...new Set(u.addresseeIds)].filter((a) => a !== u.speakerId), text: u.text,
      startMs: u.startMs, endMs: u.endMs, time: u.time, confidence: u.confidence, audioRef: u.audioRef,
      turnId: u.turnId ?? null, heardAsr: u.heardBy?.asr ?? null, heardSampleRate: u.heardBy ? int(u.heardBy.sampleRate) : null,
    };
  });
  await tx.run(`
    UNWIND $rows AS row
    CREATE (u:Utterance {tenant: $tenant, id: row.id, sessionId: row.sessionId, seq: row.seq,
      speakerId: row.speakerId, addresseeIds: row.addresseeIds, text: row.text, startMs: row.startMs,
      endMs: row.endMs, time: row.time, confidence: row.confidence, audioRef: row.audioRef, turnId: row.turnId,
      heardAsr: row.heardAsr, heardSampleRate: row.heardSampleRate})
    WITH u, row
    OPTIONAL MATCH (p:Participant {tenant: $tenant, id: row.speakerId})
    FOREACH (_ IN CASE WHEN p IS NULL THEN [] ELSE [1] END | CREATE (p)-[:SPEAKS]->(u))
    WITH u, row
    OPTIONAL MATCH (s:Session {tenant: $tenant, id: row.sessionId})
    FOREACH (_ IN CASE WHEN s IS NULL THEN [] ELSE [1] END | CREATE (u)-[:IN_SESSION]->(s))`, { tenant: t, rows: list });
  // Each addressee: the ADDRESSED edge to its key node (index-backed lookups) and, when the
  // participant exists, the ADDRESSES edge of the interaction graph.
  await tx.run(`
    UNWIND $rows AS row
    UNWIND row.addresseeIds AS aid
    MATCH (u:Utterance {tenant: $tenant, id: row.id})
    MERGE (k:Addressee {tenant: $tenant, id: aid})
    MERGE (u)-[:ADDRESSED]->(k)
    WITH u, aid
    OPTIONAL MATCH (a:Participant {tenant: $tenant, id: aid})
    FOREACH (_ IN CASE WHEN a IS NULL THEN [] ELSE [1] END | MERGE (u)-[:ADDRESSES]->(a))`, { tenant: t, rows: list });
}

/**
 * Give utterance `id` of stored tenant `t` to participant `speakerId` in transaction `tx`: its SPEAKS edge
 * moves, and `speakerId` leaves its addressees. False when the utterance is absent.
 * @throws ParleyError `PARLEY_ERR_NOT_FOUND` when `speakerId` names no participant (the transaction rolls back).
 */
export async function setUtteranceSpeakerIn(tx: ManagedTransaction, t: string, id: string, speakerId: string): Promise<boolean> {
  const params = { tenant: t, id, speaker: speakerId };
  const found = await tx.run('MATCH (p:Participant {tenant: $tenant, id: $speaker}) RETURN count(p) AS n', params);
  if (toNum(found.records[0]?.get('n') ?? 0) === 0) throw new ParleyError('PARLEY_ERR_NOT_FOUND', `no participant ${speakerId}`);
  const moved = await tx.run(`
    MATCH (u:Utterance {tenant: $tenant, id: $id})
    OPTIONAL MATCH (:Participant)-[s:SPEAKS]->(u)
    DELETE s
    WITH DISTINCT u
    MATCH (p:Participant {tenant: $tenant, id: $speaker})
    CREATE (p)-[:SPEAKS]->(u)
    SET u.speakerId = $speaker, u.addresseeIds = [a IN u.addresseeIds WHERE a <> $speaker], u.movedAt = $now
    RETURN count(u) AS n`, { ...params, now: new Date().toISOString() });
  if (toNum(moved.records[0]?.get('n') ?? 0) === 0) return false;
  await tx.run(`
    MATCH (u:Utterance {tenant: $tenant, id: $id})-[r:ADDRESSED]->(:Addressee {tenant: $tenant, id: $speaker})
    DELETE r`, params);
  await tx.run(`
    MATCH (u:Utterance {tenant: $tenant, id: $id})-[r:ADDRESSES]->(:Participant {tenant: $tenant, id: $speaker})
    DELETE r`, params);
  await tx.run(DROP_ORPHAN_ADDRESSEE, { tenant: t, id: speakerId });
  return true;
}
