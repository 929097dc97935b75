import type { ManagedTransaction } from 'neo4j-driver';
import { checkMergeable } from '../external-id.js';
import { int } from './neo4j-connection.js';
import { DROP_ORPHAN_ADDRESSEE, propRows as rows } from './neo4j-store-base.js';
import { SYNC_NAMES, SYNC_WORDS, syncOwingRename, wordsEntry } from './neo4j-participant-names.js';
import { toParticipant } from './neo4j-graph-rows.js';
import { recordMerge } from './neo4j-retired-ids.js';

/**
 * Merge participant `fromId` into `intoId` of stored tenant `t` in transaction `tx`: `from`'s utterances
 * and addressings move to `into`, its names become aliases, its voiceprint count adds up, and its id is
 * recorded as retired. Nothing happens when either is missing.
 */
export async function mergeParticipantInto(tx: ManagedTransaction, t: string, fromId: string, intoId: string): Promise<void> {
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
