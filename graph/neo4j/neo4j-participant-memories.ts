/**
 * A participant's memories in Neo4j as a whole: the facts in which they take any role, relabelled to another
 * participant (a merge), or those that are theirs or name them erased with their persona (an erasure; others' facts
 * they were only addressed in stay, without them). Used by `Neo4jMemoryStore`.
 */
import type { ManagedTransaction } from 'neo4j-driver';
import { splitRecorded, type ErasedMemory } from '../memory-store.js';
import { int, toNum, type Neo4jRunner } from './neo4j-connection.js';
import { ERASE_BATCH } from './neo4j-participant-erasure.js';
import { mergeStates, personaState, stateProps } from './neo4j-persona.js';
import { DROP_ORPHAN_ADDRESSEE, propRows } from './neo4j-store-base.js';
import { erasableNames, erasesFact, erasesPersona, personaTargetNames } from '../erased-facts.js';
import { FACT_WORDS_INDEX } from './neo4j-memory-rows.js';

/**
 * Every fact where `$pid` is the speaker, the subject or an addressee, as `f`: three index-backed
 * lookups (the addressee one through its key node) instead of a filter over the tenant's facts. The
 * hints keep the planner from the `(tenant)` index, which it picked on a small store.
 */
export const FACTS_OF_PARTICIPANT = `
  CALL {
    MATCH (f:Fact {tenant: $tenant, speakerId: $pid}) USING INDEX f:Fact(tenant, speakerId) RETURN f
    UNION
    MATCH (f:Fact {tenant: $tenant, subjectId: $pid}) USING INDEX f:Fact(tenant, subjectId) RETURN f
    UNION
    MATCH (:Addressee {tenant: $tenant, id: $pid})<-[:ADDRESSED]-(f:Fact) RETURN f
  }`;

/**
 * Rebuild the SAID_BY / ABOUT / ADDRESSED_TO edges of facts `$ids` from their id properties (the
 * record of truth), to whichever of those participants exist now, and the ADDRESSED edges to the
 * addressee key nodes (which exist for every id).
 */
export const RELINK_FACTS = `
  UNWIND $ids AS fid
  MATCH (f:Fact {tenant: $tenant, id: fid})
  OPTIONAL MATCH (f)-[old:SAID_BY|ABOUT|ADDRESSED_TO|ADDRESSED]->()
  DELETE old
  WITH DISTINCT f
  FOREACH (aid IN f.addresseeIds | MERGE (k:Addressee {tenant: $tenant, id: aid}) MERGE (f)-[:ADDRESSED]->(k))
  WITH f
  OPTIONAL MATCH (p:Participant {tenant: $tenant}) WHERE p.id IN [f.speakerId, f.subjectId] + f.addresseeIds
  WITH f, collect(p) AS ps
  FOREACH (p IN [x IN ps WHERE x.id = f.speakerId] | MERGE (f)-[:SAID_BY]->(p))
  FOREACH (p IN [x IN ps WHERE x.id = f.subjectId] | MERGE (f)-[:ABOUT]->(p))
  FOREACH (p IN [x IN ps WHERE x.id IN f.addresseeIds] | MERGE (f)-[:ADDRESSED_TO]->(p))`;

/**
 * Give every memory of `fromId` to `intoId` in stored tenant `t` (`MemoryStore.relabelParticipant`): their facts' speaker,
 * subject and addressee ids (edges rebuilt), their persona nodes (merged into `intoId`'s of the same kind and target), and
 * the speaker their turns were consolidated under. The facts and consolidation records, which grow with the history, move
 * `ERASE_BATCH` per transaction, so a long history never makes one transaction outlast `NEO4J_QUERY_TIMEOUT_MS`; each
 * batch takes rows still naming `fromId`, so a relabel cut short is finished by running it again. The persona nodes
 * (a handful per (kind, target), not one per turn) move in one transaction at the end. `onBatch` runs after each
 * transaction (a merge renews its lease there).
 */
export async function relabelMemories(db: Neo4jRunner, t: string, fromId: string, intoId: string, onBatch?: () => Promise<void>): Promise<void> {
  const params = { tenant: t, from: fromId, into: intoId, batch: int(ERASE_BATCH) };
  for (;;) {
    const n = await db.write('relabelParticipant.facts', async (tx) => {
      const changed = await tx.run(`
        ${FACTS_OF_PARTICIPANT.replaceAll('$pid', '$from')}
        WITH DISTINCT f LIMIT $batch
        SET f.speakerId = CASE WHEN f.speakerId = $from THEN $into ELSE f.speakerId END,
            f.subjectId = CASE WHEN f.subjectId = $from THEN $into ELSE f.subjectId END,
            f.addresseeIds = reduce(acc = [], a IN [x IN f.addresseeIds | CASE WHEN x = $from THEN $into ELSE x END] |
              CASE WHEN a IN acc THEN acc ELSE acc + a END)
        RETURN f.id AS id`, params);
      // Rebuilt edges no longer lead to `fromId`'s addressee key: the next batch does not find these again.
      await tx.run(RELINK_FACTS, { tenant: t, ids: changed.records.map((r) => String(r.get('id'))) });
      return changed.records.length;
    });
    await onBatch?.();
    if (n < ERASE_BATCH) break;
  }
  // A turn consolidated under the merged-away id counts as consolidated under the survivor (no revision).
  for (;;) {
    const n = await db.write('relabelParticipant.processed', async (tx) => toNum((await tx.run(`
      MATCH (n:ProcessedUtterance {tenant: $tenant, speakerId: $from}) WITH n LIMIT $batch
      SET n.speakerId = $into RETURN count(n) AS n`, params)).records[0]?.get('n') ?? 0));
    await onBatch?.();
    if (n < ERASE_BATCH) break;
  }
  await db.write('relabelParticipant', async (tx) => {
    await relabelPersona(tx, t, fromId, intoId);
    await tx.run(DROP_ORPHAN_ADDRESSEE, { tenant: t, id: fromId });
  });
}

/** Move persona nodes to `intoId`, merging into its node of the same (kind, target) where one exists. */
async function relabelPersona(tx: ManagedTransaction, t: string, fromId: string, intoId: string): Promise<void> {
  // Write-lock both participants' nodes before reading them, so concurrent evidence is not lost.
  const nodes = await propRows(tx, `
    MATCH (n:PersonaNode {tenant: $tenant}) WHERE n.participantId IN [$from, $into]
    SET n._lock = true RETURN n {.*} AS n`, { tenant: t, from: fromId, into: intoId });
  const intoNodes = new Map(nodes.filter((n) => n.participantId === intoId).map((n) => [`${String(n.kind)}\u0000${String(n.target)}`, n]));
  for (const node of nodes.filter((n) => n.participantId === fromId)) {
    const into = intoNodes.get(`${String(node.kind)}\u0000${String(node.target)}`);
    if (!into) {
      await tx.run(`
        MATCH (n:PersonaNode {tenant: $tenant, id: $id}) SET n.participantId = $into
        WITH n OPTIONAL MATCH (:Participant)-[old:HAS_PERSONA]->(n) DELETE old
        WITH DISTINCT n OPTIONAL MATCH (p:Participant {tenant: $tenant, id: $into})
        FOREACH (x IN CASE WHEN p IS NULL THEN [] ELSE [p] END | MERGE (x)-[:HAS_PERSONA]->(n))`,
      { tenant: t, id: node.id, into: intoId });
      continue;
    }
    await tx.run(`
      MATCH (n:PersonaNode {tenant: $tenant, id: $id}) SET n += $props
      WITH n MATCH (gone:PersonaNode {tenant: $tenant, id: $goneId}) DETACH DELETE gone`,
    { tenant: t, id: into.id, goneId: node.id, props: stateProps(mergeStates(personaState(into), personaState(node))) });
  }
  await tx.run('MATCH (n:PersonaNode {tenant: $tenant, participantId: $into}) REMOVE n._lock', { tenant: t, into: intoId });
}

/**
 * Erase the facts (see `erasesFact`: theirs, or naming them by one of `names`) and persona of participant `id` of
 * stored tenant `t`, and remove them from the addressees of the others' facts they were addressed in: the ids are read
 * first, then the nodes deleted and the kept facts changed in batches of `ERASE_BATCH` (one transaction each), so a
 * person with many memories never holds one huge transaction. The plan (one read of the whole history) runs under the
 * longer deadline (`LONG_QUERY_TIMEOUT_MS`), every batch under `NEO4J_QUERY_TIMEOUT_MS`.
 * Returns every id when all batches succeed; a failure is reported to the caller.
 */
export async function eraseMemories(db: Neo4jRunner, t: string, id: string, recorded?: { factIds: string[]; personaIds: string[] }, names: readonly string[] = []): Promise<ErasedMemory> {
  const params = { tenant: t, id };
  const found = await db.readLong('deleteParticipant.plan', async (tx) => {
    return { ...await factsOfErased(tx, t, id, names), personaIds: await personaOfErased(tx, t, id, names) };
  });
  const erased = splitRecorded(found.factIds, found.personaIds, recorded);
  const { factIds, personaIds } = erased;
  const { keptIds } = found;
  for (let i = 0; i < factIds.length; i += ERASE_BATCH) {
    await db.write('deleteParticipant.facts', (tx) => tx.run(`
      UNWIND $ids AS fid MATCH (f:Fact {tenant: $tenant, id: fid}) DETACH DELETE f`, { ...params, ids: factIds.slice(i, i + ERASE_BATCH) }));
  }
  for (let i = 0; i < keptIds.length; i += ERASE_BATCH) {
    await db.write('deleteParticipant.addressees', (tx) => dropAddressee(tx, t, id, keptIds.slice(i, i + ERASE_BATCH)));
  }
  for (let i = 0; i < personaIds.length; i += ERASE_BATCH) {
    await db.write('deleteParticipant.persona', (tx) => tx.run(`
      UNWIND $ids AS nid MATCH (n:PersonaNode {tenant: $tenant, id: nid}) DETACH DELETE n`, { ...params, ids: personaIds.slice(i, i + ERASE_BATCH) }));
  }
  await db.write('deleteParticipant.addressee', (tx) => tx.run(DROP_ORPHAN_ADDRESSEE, params));
  // An unfinished consolidation's kept extraction may quote them (as speaker, subject or addressee).
  await db.write('deleteParticipant.extractions', (tx) => tx.run(`
    MATCH (k:KeptExtraction {tenant: $tenant}) WHERE k.extraction CONTAINS $id DELETE k`, params));
  return erased;
}

/** Ids of the facts (history included) erasing `id` of stored tenant `t` takes (`MemoryStore.erasedFactIds`). */
export async function erasedFactIds(db: Neo4jRunner, t: string, id: string, names: readonly string[]): Promise<string[]> {
  return (await db.readLong('erasedFactIds', (tx) => factsOfErased(tx, t, id, names))).factIds;
}

/** Ids of the persona nodes erasing `id` of stored tenant `t` takes (`MemoryStore.erasedPersonaIds`). */
export async function erasedPersonaIds(db: Neo4jRunner, t: string, id: string, names: readonly string[]): Promise<string[]> {
  return db.readLong('erasedPersonaIds', (tx) => personaOfErased(tx, t, id, names));
}

/**
 * The persona nodes erasing `id` takes (`erasesPersona`), by id: theirs, and others' whose target holds a name (a scan of
 * the tenant's persona nodes, one per person and (kind, target): far fewer than facts).
 */
async function personaOfErased(tx: ManagedTransaction, t: string, id: string, names: readonly string[]): Promise<string[]> {
  const res = await tx.run(`
    MATCH (n:PersonaNode {tenant: $tenant})
    WHERE n.participantId = $id OR any(name IN $names WHERE n.target CONTAINS name)
    RETURN n.id AS nid, n.participantId AS pid, n.target AS target ORDER BY n.id`, { tenant: t, id, names: personaTargetNames(names) });
  return res.records
    .filter((r) => erasesPersona({ participantId: String(r.get('pid')), target: String(r.get('target')) }, id, names))
    .map((r) => String(r.get('nid')));
}

/**
 * The facts (history included) erasing `id` takes (`erasesFact`), in order, and the others where they are only an
 * addressee (`keptIds`, kept without them): candidates are those where the id takes a role or whose text holds a name.
 */
async function factsOfErased(tx: ManagedTransaction, t: string, id: string, names: readonly string[]): Promise<{ factIds: string[]; keptIds: string[] }> {
  const named = erasableNames(names);
  const { lucene, scanned } = nameSearch(named);
  const rows = await propRows(tx, `
    CALL {
      ${FACTS_OF_PARTICIPANT.replaceAll('$pid', '$id')}
      RETURN f${lucene === null ? '' : `
      UNION
      CALL db.index.fulltext.queryNodes('${FACT_WORDS_INDEX}', $lucene) YIELD node AS f
      WITH f WHERE f.tenant = $tenant RETURN f`}${scanned.length === 0 ? '' : `
      UNION
      MATCH (f:Fact {tenant: $tenant}) WHERE any(n IN $scanned WHERE f.content CONTAINS n) RETURN f`}
    }
    WITH DISTINCT f ORDER BY f.ord
    RETURN f {.id, .speakerId, .subjectId, .content, .addresseeIds} AS f`, { tenant: t, id, lucene, scanned }, 'f');
  const factIds: string[] = [];
  const keptIds: string[] = [];
  for (const f of rows) {
    const fact = { speakerId: String(f.speakerId), subjectId: String(f.subjectId), content: String(f.content) };
    if (erasesFact(fact, id, named)) factIds.push(String(f.id));
    else if (((f.addresseeIds ?? []) as string[]).includes(id)) keptIds.push(String(f.id));
  }
  return { factIds, keptIds };
}

/**
 * How the facts whose text may name one of `names` are found: a Lucene query of each name as a phrase on the fact words
 * index (`FACT_WORDS_INDEX`; its analyzer splits the name as it split the texts, so every fact naming it as a whole word
 * is a hit, and `erasesFact` keeps the exact ones), or, for a name with no letter (no term to seek) or a run of letters
 * longer than a Lucene term, a scan of the tenant's facts for it (`scanned`).
 */
export function nameSearch(names: readonly string[]): { lucene: string | null; scanned: string[] } {
  const seekable = (n: string): boolean => /\p{L}/u.test(n) && !/\p{L}{256,}/u.test(n);
  const phrases = names.filter(seekable).map((n) => `"${n.replace(/["\\]/g, '\\$&')}"`);
  return { lucene: phrases.length === 0 ? null : phrases.join(' OR '), scanned: names.filter((n) => !seekable(n)) };
}

/** Remove `id` from the addressees of kept facts `ids` (another person's, on which they were only an addressee). */
async function dropAddressee(tx: ManagedTransaction, t: string, id: string, ids: string[]): Promise<void> {
  await tx.run(`
    UNWIND $ids AS fid MATCH (f:Fact {tenant: $tenant, id: fid})
    SET f.addresseeIds = [a IN f.addresseeIds WHERE a <> $id]`, { tenant: t, id, ids });
  await tx.run(RELINK_FACTS, { tenant: t, ids });
}
