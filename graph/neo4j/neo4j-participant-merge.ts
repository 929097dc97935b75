import type { ManagedTransaction } from 'neo4j-driver';
import { checkMergeable } from '../external-id.js';
import { int, toNum, type Neo4jRunner } from './neo4j-connection.js';
import { DROP_ORPHAN_ADDRESSEE, propRows as rows } from './neo4j-store-base.js';
import { SYNC_NAMES, SYNC_WORDS, syncOwingRename, wordsEntry } from './neo4j-participant-names.js';
import { toParticipant } from './neo4j-graph-rows.js';
import { lookupRetired, recordMerge } from './neo4j-retired-ids.js';
import { beginMerge, renewMerge } from './neo4j-pending-merges.js';
import { ParleyError } from '../core/errors.js';
import type { Participant } from '../types.js';

/** Utterances (or edges) changed per transaction by a merge's moves. */
export const MERGE_BATCH = 1000;

/**
 * The moves of a merge that grow with the merged-away participant's history, each one batch of at most `$batch` rows
 * (the transaction returns how many it changed): every batch takes rows that still need the move and leaves them not
 * needing it, so running a step again (after a crash, or by a retried merge) goes on where it stopped.
 */
const MERGE_STEPS: ReadonlyArray<{ what: string; cypher: string }> = [
  // Their turns: the speaker id and SPEAKS edge move to `into`.
  { what: 'speakers', cypher: `
    MATCH (u:Utterance {tenant: $tenant, speakerId: $from}) WITH u LIMIT $batch
    SET u.speakerId = $into
    WITH u CALL { WITH u
      OPTIONAL MATCH (:Participant {tenant: $tenant, id: $from})-[s:SPEAKS]->(u) DELETE s
      WITH DISTINCT u MATCH (i:Participant {tenant: $tenant, id: $into}) MERGE (i)-[:SPEAKS]->(u)
    }
    RETURN count(u) AS n` },
  // Turns addressed to them: addressed to `into` instead (unless `into` spoke them: nobody addresses themself).
  { what: 'addressees', cypher: `
    MATCH (:Addressee {tenant: $tenant, id: $from})<-[r:ADDRESSED]-(u:Utterance) WITH u, r LIMIT $batch
    DELETE r
    WITH u CALL { WITH u
      WITH u, [a IN u.addresseeIds WHERE a <> $from] AS rest
      SET u.addresseeIds = CASE WHEN $into IN rest OR u.speakerId = $into THEN rest ELSE rest + $into END
      WITH u OPTIONAL MATCH (u)-[old:ADDRESSES]->(:Participant {tenant: $tenant, id: $from}) DELETE old
      WITH DISTINCT u WHERE u.speakerId <> $into
      MERGE (k:Addressee {tenant: $tenant, id: $into})
      MERGE (u)-[:ADDRESSED]->(k)
      WITH u MATCH (i:Participant {tenant: $tenant, id: $into}) MERGE (u)-[:ADDRESSES]->(i)
    }
    RETURN count(u) AS n` },
  // Fragments of one person that addressed each other: nobody addresses themself.
  { what: 'self-addressed', cypher: `
    MATCH (:Addressee {tenant: $tenant, id: $into})<-[r:ADDRESSED]-(u:Utterance {speakerId: $into}) WITH u, r LIMIT $batch
    DELETE r
    SET u.addresseeIds = [a IN u.addresseeIds WHERE a <> $into]
    WITH u CALL { WITH u OPTIONAL MATCH (u)-[old:ADDRESSES]->(:Participant {tenant: $tenant, id: $into}) DELETE old }
    RETURN count(u) AS n` },
  // What else still points at the merged-away node (the memory store's fact and persona edges, which it rebuilds from
  // the ids it relabels), so that deleting the node at the end is one node, not its whole history.
  { what: 'edges', cypher: `
    MATCH (:Participant {tenant: $tenant, id: $from})-[r]-() WITH r LIMIT $batch
    DELETE r
    RETURN count(r) AS n` },
];

/** The `merging` marker a merge of `fromId` into `intoId` sets on both nodes while it runs. */
export function mergeMarker(fromId: string, intoId: string): string {
  return JSON.stringify([fromId, intoId]);
}

/** A clear 409 for an operation on participant `id` while the merge named by `marker` holds it. */
export function mergingConflict(id: string, marker: string, what: string): ParleyError {
  const [from, into] = JSON.parse(marker) as [string, string];
  return new ParleyError('PARLEY_ERR_CONFLICT',
    `participant ${id} is being merged (${from} into ${into}); ${what} is refused until that merge is done (a merge cut short is finished by sending it again)`);
}

/**
 * Both nodes of a merge in `tx`, write-locked before they are read (a property set and removed), with what stops the
 * merge: `missing` when either is gone (`done` when `from` is gone because this very merge finished, e.g. by a
 * concurrent resend), otherwise a `PARLEY_ERR_CONFLICT` when either is being erased or held by another merge's marker
 * (`claim`: a marker of this merge, or none, is fine; otherwise only this merge's marker is).
 */
async function holdPair(tx: ManagedTransaction, t: string, fromId: string, intoId: string, claim: boolean): Promise<{ from: Participant; into: Participant } | 'done' | 'missing'> {
  const params = { tenant: t, from: fromId, into: intoId };
  const found = await rows(tx, `MATCH (n:Participant {tenant: $tenant}) WHERE n.id IN [$from, $into]
    SET n.lockedForUpdate = true REMOVE n.lockedForUpdate RETURN n {.*} AS n`, params);
  const [from, into] = [fromId, intoId].map((id) => found.find((n) => n.id === id));
  if (!from || !into) {
    if (from || !into) return 'missing';
    const retired = await lookupRetired(tx, t, fromId);
    return retired !== null && 'mergedInto' in retired && retired.mergedInto === intoId ? 'done' : 'missing';
  }
  const marker = mergeMarker(fromId, intoId);
  for (const n of [from, into]) {
    const id = String(n.id);
    if (n.erasing !== null && n.erasing !== undefined) throw new ParleyError('PARLEY_ERR_CONFLICT', `participant ${id} is being erased; it is not merged`);
    const held = n.merging === null || n.merging === undefined ? null : String(n.merging);
    if (held === marker || (claim && held === null)) continue;
    if (held === null) throw new ParleyError('PARLEY_ERR_CONFLICT', `participant ${id} is no longer held by the merge of ${fromId} into ${intoId}; it is not finished`);
    throw mergingConflict(id, held, `merging ${fromId} into ${intoId}`);
  }
  if (claim) {
    const pending = await tx.run('MATCH (e:PendingErasure {tenant: $tenant}) WHERE e.participantId IN [$from, $into] RETURN e.participantId AS id', params);
    if (pending.records.length > 0) throw new ParleyError('PARLEY_ERR_CONFLICT', `participant ${String(pending.records[0]!.get('id'))} is being erased; it is not merged`);
  }
  return { from: toParticipant(from), into: toParticipant(into) };
}

/**
 * Merge participant `fromId` into `intoId` of stored tenant `t` (`GraphStore.mergeParticipants`) in transactions of
 * bounded size, so that a long history never makes one transaction outlast `NEO4J_QUERY_TIMEOUT_MS` (a single one
 * failed with 503 every time, and every retry redid the same work). The first transaction checks both mergeable and
 * marks both nodes `merging` (`mergeMarker`): while the marker is there, another merge touching either, an erasure of
 * either and a change of either's external id are refused with `PARLEY_ERR_CONFLICT`. Then the moves of `MERGE_STEPS`
 * run batch by batch, each one checking first that both nodes are still there and still marked by this merge (it stops
 * with `PARLEY_ERR_NOT_FOUND` or `PARLEY_ERR_CONFLICT` otherwise, having moved nothing more); then
 * {@link mergeParticipantInto} joins names, aliases, attributes and external ids, deletes `fromId`, records it retired
 * and clears the marker in one transaction (also moving whatever was written naming `fromId` meanwhile). A merge cut
 * short (an outage, a crash) leaves `fromId` in place and both marked, with part of its turns already `intoId`'s (what
 * the merge asked); the same merge sent again goes on where it stopped and finishes it (a merge of another pair is
 * refused until then). The check's transaction also records the merge as pending (`beginMerge`, owing the re-indexing
 * of `reindex`), so that what the moves re-point is re-indexed however the merge is finished, and a merge abandoned by
 * a crash is found again (`pendingMerges`). Nothing happens when either is missing at the start.
 * @throws ParleyError `PARLEY_ERR_CONFLICT` when both hold different external ids (before anything moves), or either is
 *   being erased or merged otherwise; `PARLEY_ERR_NOT_FOUND` when either disappears part-way.
 */
export async function mergeParticipantBatched(db: Neo4jRunner, t: string, fromId: string, intoId: string, reindex: string[] = []): Promise<void> {
  const params = { tenant: t, from: fromId, into: intoId };
  const marker = mergeMarker(fromId, intoId);
  const both = await db.write('mergeParticipants.check', async (tx) => {
    const held = await holdPair(tx, t, fromId, intoId, true);
    if (typeof held === 'string') return false;
    checkMergeable(held.from, held.into);
    await tx.run('MATCH (n:Participant {tenant: $tenant}) WHERE n.id IN [$from, $into] SET n.merging = $marker', { ...params, marker });
    await beginMerge(tx, t, fromId, intoId, reindex, new Date().toISOString());
    return true;
  });
  if (!both) return;
  for (const step of MERGE_STEPS) {
    for (;;) {
      const n = await db.write(`mergeParticipants.${step.what}`, async (tx) => {
        const held = await holdPair(tx, t, fromId, intoId, false);
        if (held === 'done') return null;
        if (held === 'missing') throw new ParleyError('PARLEY_ERR_NOT_FOUND', `participant ${fromId} or ${intoId} was removed while being merged; the merge stopped`);
        // The lease is renewed with each batch: a long merge making progress is never taken for abandoned.
        await renewMerge(tx, t, fromId, intoId);
        return toNum((await tx.run(step.cypher, { ...params, batch: int(MERGE_BATCH) })).records[0]?.get('n') ?? 0);
      });
      if (n === null) return;
      if (n < MERGE_BATCH) break;
    }
  }
  await db.write('mergeParticipants', (tx) => mergeParticipantInto(tx, t, fromId, intoId));
}

/**
 * Merge participant `fromId` into `intoId` of stored tenant `t` in transaction `tx`: `from`'s utterances
 * and addressings move to `into`, its names become aliases, its voiceprint count adds up, and its id is
 * recorded as retired, and the `merging` marker goes (`holdPair` checks both still held by this merge first).
 */
async function mergeParticipantInto(tx: ManagedTransaction, t: string, fromId: string, intoId: string): Promise<void> {
  // Both nodes' write locks taken before the read: a PATCH cannot land between it and the write.
  const held = await holdPair(tx, t, fromId, intoId, false);
  if (held === 'done') return;
  if (held === 'missing') throw new ParleyError('PARLEY_ERR_NOT_FOUND', `participant ${fromId} or ${intoId} was removed while being merged; the merge stopped`);
  const { from, into } = held;
  checkMergeable(from, into);
  const name = into.name ?? from.name;
  const aliases = new Set([...into.aliases, ...from.aliases]);
  if (from.name && from.name !== into.name) aliases.add(from.name);
  if (name) aliases.delete(name);
  const params = { tenant: t, from: fromId, into: intoId };
  await tx.run(`
    MATCH (u:Utterance {tenant: $tenant, speakerId: $from}) SET u.speakerId = $into
    WITH u MATCH (i:Participant {tenant: $tenant, id: $into}) MERGE (i)-[:SPEAKS]->(u)`, params);
  await tx.run(`
    MATCH (:Addressee {tenant: $tenant, id: $from})<-[r:ADDRESSED]-(u:Utterance)
    DELETE r
    WITH u, [a IN u.addresseeIds WHERE a <> $from] AS rest
    SET u.addresseeIds = CASE WHEN $into IN rest OR u.speakerId = $into THEN rest ELSE rest + $into END
    WITH u WHERE u.speakerId <> $into
    MERGE (k:Addressee {tenant: $tenant, id: $into})
    MERGE (u)-[:ADDRESSED]->(k)
    WITH u MATCH (i:Participant {tenant: $tenant, id: $into}) MERGE (u)-[:ADDRESSES]->(i)`, params);
  // Fragments of one person that addressed each other: nobody addresses themself.
  await tx.run(`
    MATCH (:Addressee {tenant: $tenant, id: $into})<-[r:ADDRESSED]-(u:Utterance {speakerId: $into})
    DELETE r
    SET u.addresseeIds = [a IN u.addresseeIds WHERE a <> $into]
    WITH u MATCH (u)-[r:ADDRESSES]->(:Participant {tenant: $tenant, id: $into}) DELETE r`, params);
  await tx.run(DROP_ORPHAN_ADDRESSEE, { tenant: t, id: fromId });
  // The merged-away node goes first, so its external id is free for `into` (uniqueness constraint).
  await tx.run('MATCH (f:Participant {tenant: $tenant, id: $from}) DETACH DELETE f', params);
  await tx.run(`
    MATCH (i:Participant {tenant: $tenant, id: $into})
    SET i.name = $name, i.externalId = $externalId, i.aliases = $aliases, i.attributes = $attributes,
        i.voiceprintCount = i.voiceprintCount + $count, i.updatedAt = $now
    REMOVE i.merging
    ${syncOwingRename('i')}`, {
    ...params, name, externalId: into.externalId ?? from.externalId, aliases: [...aliases], attributes: JSON.stringify({ ...from.attributes, ...into.attributes }),
    count: int(from.voiceprintCount), now: new Date().toISOString(),
  });
  await tx.run('MATCH (k:ParticipantName {tenant: $tenant, participantId: $from}) DELETE k', params);
  await tx.run(SYNC_NAMES, { tenant: params.tenant, pid: intoId });
  await tx.run('MATCH (k:ParticipantWord {tenant: $tenant, participantId: $from}) DELETE k', params);
  await tx.run(SYNC_WORDS, { batch: [wordsEntry(params.tenant, { id: intoId, name, aliases: [...aliases] })] });
  await recordMerge(tx, params.tenant, fromId, intoId, new Date().toISOString());
  // The memory tail starts with a lease of its own length.
  await renewMerge(tx, params.tenant, fromId, intoId);
}
