import { toNum, type Neo4jRunner } from './neo4j-connection.js';
import { stringList } from './neo4j-store-base.js';
import { ERASE_BATCH } from './neo4j-participant-erasure.js';

/**
 * Remove the utterances of `ids` that stored tenant `tenant` holds, with every edge to them (`GraphStore.deleteUtterances`),
 * `ERASE_BATCH` per transaction; an addressee key node no utterance points to any more goes with its last one. Each batch
 * is idempotent: a run cut short is finished by the same call. Returns the ids removed.
 */
export async function deleteUtterances(db: Neo4jRunner, tenant: string, ids: string[]): Promise<string[]> {
  const removed: string[] = [];
  for (let i = 0; i < ids.length; i += ERASE_BATCH) {
    const batch = ids.slice(i, i + ERASE_BATCH);
    const gone = await db.write('deleteUtterances', async (tx) => {
      const found = await tx.run(`
        UNWIND $ids AS uid
        MATCH (u:Utterance {tenant: $tenant, id: uid})
        OPTIONAL MATCH (u)-[:ADDRESSED]->(k:Addressee)
        WITH u, uid, collect(k.id) AS keys
        DETACH DELETE u
        WITH collect(uid) AS ids, collect(keys) AS keyLists
        RETURN ids, reduce(acc = [], ks IN keyLists | acc + ks) AS keys`, { tenant, ids: batch });
      const record = found.records[0];
      const keys = [...new Set(stringList(record?.get('keys')))];
      await tx.run(`
        UNWIND $keys AS kid
        MATCH (k:Addressee {tenant: $tenant, id: kid}) WHERE NOT (k)<-[:ADDRESSED]-() DELETE k`, { tenant, keys });
      return stringList(record?.get('ids'));
    });
    removed.push(...gone);
  }
  return removed;
}

/** Remove the session node of stored tenant `tenant` (`GraphStore.deleteSession`); its `seq` counter stays. */
export async function deleteSession(db: Neo4jRunner, tenant: string, sessionId: string): Promise<boolean> {
  return db.write('deleteSession', async (tx) => {
    const found = await tx.run('MATCH (n:Session {tenant: $tenant, id: $id}) DETACH DELETE n RETURN count(*) AS n', { tenant, id: sessionId });
    return toNum(found.records[0]?.get('n') ?? 0) > 0;
  });
}
