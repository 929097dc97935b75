import { int, toNum, type Neo4jRunner } from './neo4j-connection.js';
import { DROP_ORPHAN_ADDRESSEE, stringList } from './neo4j-store-base.js';
import { recordErasure } from './neo4j-retired-ids.js';
import { forgetMergesOf } from './neo4j-pending-merges.js';
import { addErasedUtterances, refuseWhileMerging } from './neo4j-pending-erasures.js';

/** Nodes changed per transaction when a participant is erased. */
export const ERASE_BATCH = 1000;

/**
 * Erase participant `id` of stored tenant `tenant` in batches of `ERASE_BATCH` (one transaction each), not one transaction
 * holding every lock and change at once: first the ids of every utterance they spoke are recorded
 * on the participant node (`erasing`), then those utterances are deleted, their id removed from
 * addressee lists, their remaining edges deleted, and the participant last. An erasure cut short
 * (an outage, a crash) leaves the participant and its record in place, so calling it again
 * finishes the work and still returns every utterance id, including those deleted the first time. The plan is one
 * snapshot of the whole history, so it runs under the longer deadline (`LONG_QUERY_TIMEOUT_MS`); every batch after it
 * under `NEO4J_QUERY_TIMEOUT_MS`. Refused (`PARLEY_ERR_CONFLICT`, before anything is erased) while a merge holds them
 * (`merging`, `mergeParticipantBatched`).
 */
export async function eraseParticipant(db: Neo4jRunner, tenant: string, id: string): Promise<string[] | null> {
  const params = { tenant, id };
  // The ids recorded by an attempt cut short, then those spoken still, each once: collect(DISTINCT) keeps a hashed set
  // (testing each against the stored list was quadratic in the history, and a resumed plan ran past any deadline).
  const ids = await db.writeLong('deleteParticipant.plan', async (tx) => {
    await refuseWhileMerging(tx, tenant, id, 'erasing them');
    const found = await tx.run(`
      MATCH (p:Participant {tenant: $tenant, id: $id})
      CALL {
        WITH p
        OPTIONAL MATCH (u:Utterance {tenant: $tenant, speakerId: $id})
        WITH u ORDER BY u.sessionId, u.seq
        RETURN collect(u.id) AS spoken
      }
      CALL {
        WITH p, spoken
        UNWIND coalesce(p.erasing, []) + spoken AS x
        RETURN collect(DISTINCT x) AS ids
      }
      SET p.erasing = ids
      RETURN p.erasing AS ids`, params);
    return found.records.length === 0 ? null : stringList(found.records[0]!.get('ids'));
  });
  if (!ids) return null;
  for (let i = 0; i < ids.length; i += ERASE_BATCH) {
    await db.write('deleteParticipant.utterances', (tx) => tx.run(`
      UNWIND $ids AS uid
      MATCH (u:Utterance {tenant: $tenant, id: uid}) DETACH DELETE u`, { ...params, ids: ids.slice(i, i + ERASE_BATCH) }));
  }
  const batched = async (what: string, cypher: string) => {
    for (;;) {
      const n = await db.write(what, async (tx) => toNum((await tx.run(cypher, { ...params, batch: int(ERASE_BATCH) })).records[0]?.get('n') ?? 0));
      if (n < ERASE_BATCH) return;
    }
  };
  await batched('deleteParticipant.addressees', `
    MATCH (:Addressee {tenant: $tenant, id: $id})<-[r:ADDRESSED]-(u:Utterance)
    WITH u, r LIMIT $batch
    SET u.addresseeIds = [a IN u.addresseeIds WHERE a <> $id]
    DELETE r
    RETURN count(u) AS n`);
  await batched('deleteParticipant.edges', `
    MATCH (:Participant {tenant: $tenant, id: $id})-[r]-()
    WITH r LIMIT $batch
    DELETE r
    RETURN count(r) AS n`);
  await db.write('deleteParticipant', async (tx) => {
    await tx.run('MATCH (k:ParticipantName {tenant: $tenant, participantId: $id}) DELETE k', params);
    await tx.run('MATCH (k:ParticipantWord {tenant: $tenant, participantId: $id}) DELETE k', params);
    await tx.run('MATCH (n:Participant {tenant: $tenant, id: $id}) DETACH DELETE n', params);
    await tx.run(DROP_ORPHAN_ADDRESSEE, params);
    await recordErasure(tx, params.tenant, id, new Date().toISOString());
    await addErasedUtterances(tx, params.tenant, id, ids);
    await forgetMergesOf(tx, params.tenant, id);
  });
  return ids;
}
