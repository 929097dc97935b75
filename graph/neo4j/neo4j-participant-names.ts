import { PENDING_RENAME_KEY } from '../graph-store.js';
import { participantNameWords } from '../name-words.js';
import { toNum, type Neo4jRunner } from './neo4j-connection.js';

/**
 * Rewrite the name keys of participant `$pid`: one `(:ParticipantName {tenant, participantId, key})`
 * per distinct lower-cased name or alias, so a lookup by name seeks the `(tenant, key)` index instead
 * of filtering every participant of the tenant (Neo4j indexes neither `toLower` nor list elements).
 * The participant is written first (its write lock), and only then are its old keys read: a
 * concurrent rewrite of the same participant (an update, or another process's start-up backfill)
 * waits for the lock and then reads and deletes the keys the first one committed, so a participant
 * never ends with two sets of keys. The same order holds in BACKFILL_NAMES and SYNC_WORDS.
 */
export const SYNC_NAMES = `
  MATCH (p:Participant {tenant: $tenant, id: $pid})
  SET p.namesIndexed = true
  WITH p
  OPTIONAL MATCH (old:ParticipantName {tenant: $tenant, participantId: $pid})
  DELETE old
  WITH DISTINCT p
  UNWIND [k IN [p.name] + coalesce(p.aliases, []) WHERE k IS NOT NULL | toLower(k)] AS key
  WITH DISTINCT p, key
  CREATE (:ParticipantName {tenant: $tenant, participantId: p.id, key: key})`;

/** Name keys for participants written before they existed, 500 participants per transaction. */
export const BACKFILL_NAMES = `
  MATCH (p:Participant) WHERE p.namesIndexed IS NULL
  WITH p LIMIT 500
  SET p.namesIndexed = true
  WITH p
  OPTIONAL MATCH (old:ParticipantName {tenant: p.tenant, participantId: p.id})
  DELETE old
  WITH DISTINCT p
  WITH p, [k IN [p.name] + coalesce(p.aliases, []) WHERE k IS NOT NULL | toLower(k)] AS keys
  FOREACH (key IN reduce(acc = [], k IN keys | CASE WHEN k IN acc THEN acc ELSE acc + k END) |
    CREATE (:ParticipantName {tenant: p.tenant, participantId: p.id, key: key}))
  RETURN count(p) AS n`;

/**
 * Rewrite the name words of the participants in `$batch` (`{tenant, id, words, named}` each): one
 * `(:ParticipantWord {tenant, participantId, word})` per word (`nameWords`, split and folded in
 * JavaScript so they match the words callers look up), and `named` for recentNamedParticipants.
 */
export const SYNC_WORDS = `
  UNWIND $batch AS b
  MATCH (p:Participant {tenant: b.tenant, id: b.id})
  SET p.wordsIndexed = true, p.named = b.named
  WITH p, b
  OPTIONAL MATCH (old:ParticipantWord {tenant: b.tenant, participantId: b.id})
  DELETE old
  WITH DISTINCT p, b
  FOREACH (w IN b.words | CREATE (:ParticipantWord {tenant: b.tenant, participantId: b.id, word: w}))`;

/** The SYNC_WORDS entry of a participant. */
export function wordsEntry(tenant: string, p: { id: string; name: string | null; aliases: string[] }): Record<string, unknown> {
  return { tenant, id: p.id, words: participantNameWords(p.name, p.aliases), named: p.name !== null || p.aliases.length > 0 };
}

/** Participants stored before their words were indexed, 500 at a time. */
export const UNINDEXED_WORDS = `
  MATCH (p:Participant) WHERE p.wordsIndexed IS NULL
  RETURN p.tenant AS tenant, p.id AS id, p.name AS name, coalesce(p.aliases, []) AS aliases LIMIT 500`;

/**
 * Write the name keys, then the name words, of participants stored before they existed (BACKFILL_NAMES,
 * UNINDEXED_WORDS), 500 participants per transaction until none is left. Run at every start; each batch finds its
 * participants by a scan of them all (no index holds the flags), so it runs under the longer deadline
 * (`LONG_QUERY_TIMEOUT_MS`): under `NEO4J_QUERY_TIMEOUT_MS` a large database failed every start-up. Whether there is
 * any such participant is asked first, under `NEO4J_QUERY_TIMEOUT_MS` (one row at most): with nothing to do, which is
 * every start but the first after an upgrade, a hung server fails the start-up (and the requests waiting on it, with
 * 503) within the usual deadline rather than the longer one.
 */
export async function backfillParticipantNames(db: Neo4jRunner): Promise<void> {
  const owed = await db.read('checking participant names', async (tx) => (await tx.run(`
    MATCH (p:Participant) WHERE p.namesIndexed IS NULL OR p.wordsIndexed IS NULL RETURN p.id AS id LIMIT 1`)).records.length > 0);
  if (!owed) return;
  for (;;) {
    const n = await db.writeLong('indexing participant names', async (tx) => toNum((await tx.run(BACKFILL_NAMES)).records[0]?.get('n') ?? 0));
    if (n < 500) break;
  }
  for (;;) {
    const n = await db.writeLong('indexing participant name words', async (tx) => {
      const found = (await tx.run(UNINDEXED_WORDS)).records.map((r) => wordsEntry(String(r.get('tenant')), {
        id: String(r.get('id')), name: (r.get('name') as string | null) ?? null, aliases: r.get('aliases') as string[],
      }));
      if (found.length > 0) await tx.run(SYNC_WORDS, { batch: found });
      return found.length;
    });
    if (n < 500) break;
  }
}

/**
 * `SET` of the flag the index of participants owing a rename's memory rewrite reads (`participantsOwingRename`), from
 * the attributes as just written to node variable `v` (a clause of its own, after theirs): true when they hold
 * `PENDING_RENAME_KEY` (as a key: `JSON.stringify` writes it `"$pending_rename":`), otherwise removed. A nested key of
 * that name would set it too, which only costs a look (the pass reads the attribute itself).
 */
export function syncOwingRename(v: string): string {
  return `SET ${v}.pendingRename = CASE WHEN ${v}.attributes CONTAINS '${JSON.stringify(PENDING_RENAME_KEY)}:' THEN true ELSE null END`;
}

/** The index `participantsOwingRename` seeks, and the flag's backfill for participants stored before it (run once). */
export const OWING_RENAME_SCHEMA = [
  'CREATE INDEX parley_participant_owing_rename IF NOT EXISTS FOR (n:Participant) ON (n.tenant, n.pendingRename)',
] as const;
export const BACKFILL_OWING_RENAME = `MATCH (n:Participant) WHERE n.pendingRename IS NULL
  CALL { WITH n ${syncOwingRename('n')} } IN TRANSACTIONS OF 1000 ROWS`;
