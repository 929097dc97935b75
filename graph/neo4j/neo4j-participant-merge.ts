import type { ManagedTransaction } from 'neo4j-driver';
import { checkMergeable } from '../external-id.js';
import { int, toNum, type Neo4jRunner } from './neo4j-connection.js';
import { DROP_ORPHAN_ADDRESSEE, propRows as rows } from './neo4j-store-base.js';
import { SYNC_NAMES, SYNC_WORDS, syncOwingRename, wordsEntry } from './neo4j-participant-names.js';
import { toParticipant } from './neo4j-graph-rows.js';
import { recordMerge } from './neo4j-retired-ids.js';

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

/**
 * Merge participant `fromId` into `intoId` of stored tenant `t` (`GraphStore.mergeParticipants`) in transactions of
 * bounded size, so that a long history never makes one transaction outlast `NEO4J_QUERY_TIMEOUT_MS` (a single one
 * failed with 503 every time, and every retry redid the same work): both are checked mergeable, then the moves of
 * `MERGE_STEPS` run batch by batch, then {@link mergeParticipantInto} joins names, aliases, attributes and external ids,
 * deletes `fromId` and records it retired in one transaction (also moving whatever was written naming `fromId`
 * meanwhile). A merge cut short (an outage, a crash) leaves `fromId` in place, with part of its turns already
 * `intoId`'s (what the merge asked); merging again finishes it. Nothing happens when either is missing.
 * @throws ParleyError `PARLEY_ERR_CONFLICT` when both hold different external ids (before anything moves).
 */
export async function mergeParticipantBatched(db: Neo4jRunner, t: string, fromId: string, intoId: string): Promise<void> {
  const params = { tenant: t, from: fromId, into: intoId };
  const both = await db.read('mergeParticipants.check', async (tx) => {
    const found = (await rows(tx, 'MATCH (n:Participant {tenant: $tenant}) WHERE n.id IN [$from, $into] RETURN n {.*} AS n', params)).map(toParticipant);
    const [from, into] = [found.find((p) => p.id === fromId), found.find((p) => p.id === intoId)];
    if (from && into) checkMergeable(from, into);
    return from !== undefined && into !== undefined;
  });
  if (!both) return;
  for (const step of MERGE_STEPS) {
    for (;;) {
      const n = await db.write(`mergeParticipants.${step.what}`, async (tx) =>
        toNum((await tx.run(step.cypher, { ...params, batch: int(MERGE_BATCH) })).records[0]?.get('n') ?? 0));
      if (n < MERGE_BATCH) break;
    }
  }
  await db.write('mergeParticipants', (tx) => mergeParticipantInto(tx, t, fromId, intoId));
}

/**
 * Merge participant `fromId` into `intoId` of stored tenant `t` in transaction `tx`: `from`'s utterances
 * and addressings move to `into`, its names become aliases, its voiceprint count adds up, and its id is
 * recorded as retired. Nothing happens when either is missing.
 */
async function mergeParticipantInto(tx: ManagedTransaction, t: string, fromId: string, intoId: string): Promise<void> {
  // Both nodes' write locks taken before the read (a property set and removed): a PATCH cannot land between it and the write.
  const found = await rows(tx, `MATCH (n:Participant {tenant: $tenant}) WHERE n.id IN [$from, $into]
    SET n.lockedForUpdate = true REMOVE n.lockedForUpdate RETURN n {.*} AS n`, { tenant: t, from: fromId, into: intoId });
  const from = found.map(toParticipant).find((p) => p.id === fromId);
  const into = found.map(toParticipant).find((p) => p.id === intoId);
  if (!from || !into) return;
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
    ${syncOwingRename('i')}`, {
    ...params, name, externalId: into.externalId ?? from.externalId, aliases: [...aliases], attributes: JSON.stringify({ ...from.attributes, ...into.attributes }),
    count: int(from.voiceprintCount), now: new Date().toISOString(),
  });
  await tx.run('MATCH (k:ParticipantName {tenant: $tenant, participantId: $from}) DELETE k', params);
  await tx.run(SYNC_NAMES, { tenant: params.tenant, pid: intoId });
  await tx.run('MATCH (k:ParticipantWord {tenant: $tenant, participantId: $from}) DELETE k', params);
  await tx.run(SYNC_WORDS, { batch: [wordsEntry(params.tenant, { id: intoId, name, aliases: [...aliases] })] });
  await recordMerge(tx, params.tenant, fromId, intoId, new Date().toISOString());
}
