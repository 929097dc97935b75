import { int, toNum, type Neo4jRunner } from './neo4j-connection.js';
import { propRows, stringList } from './neo4j-store-base.js';
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

/** One page of the utterances whose text holds one of `fragments`, by id (`GraphStore.utterancesContaining`). */
export async function utterancesContaining(
  db: Neo4jRunner, tenant: string, fragments: readonly string[], page: { afterId?: string; limit: number },
): Promise<Record<string, unknown>[]> {
  if (fragments.length === 0) return [];
  const lower = fragments.map((f) => f.toLowerCase());
  // A scan of the tenant's utterances (no index serves a substring): under the long deadline.
  return db.readLong('utterancesContaining', (tx) => propRows(tx, `
    MATCH (n:Utterance {tenant: $tenant}) WHERE n.id > $afterId AND any(f IN $fragments WHERE toLower(n.text) CONTAINS f)
    RETURN n {.*} AS n ORDER BY n.id LIMIT $limit`, { tenant, fragments: lower, afterId: page.afterId ?? '', limit: int(page.limit) }));
}

/** Replace the text of these utterances, `ERASE_BATCH` per transaction (`GraphStore.setUtteranceTexts`). */
export async function setUtteranceTexts(db: Neo4jRunner, tenant: string, texts: ReadonlyArray<{ id: string; text: string }>): Promise<void> {
  for (let i = 0; i < texts.length; i += ERASE_BATCH) {
    const batch = texts.slice(i, i + ERASE_BATCH);
    await db.write('setUtteranceTexts', (tx) => tx.run(`
      UNWIND $texts AS t MATCH (n:Utterance {tenant: $tenant, id: t.id}) SET n.text = t.text`, { tenant, texts: batch }));
  }
}
