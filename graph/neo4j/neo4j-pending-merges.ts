import type { ManagedTransaction, Record as Neo4jRecord } from 'neo4j-driver';
import type { PendingMerge } from '../pending-merges.js';
import { toNum, type Neo4jRunner } from './neo4j-connection.js';
import { ADD_IDS, stringList } from './neo4j-store-base.js';

/**
 * Merges begun and not finished: `(:PendingMerge {tenant, fromId, intoId, utteranceIds, startedAt, touchedAt})`, one per
 * merged-away participant (`PendingMerge`), as the SQLite store's `pending_merges`.
 */
export const PENDING_MERGES_SCHEMA = [
  'CREATE CONSTRAINT parley_pending_merge_key IF NOT EXISTS FOR (n:PendingMerge) REQUIRE (n.tenant, n.fromId) IS UNIQUE',
  // Participants held by a merge (`merging`), sought by `pendingMerges` on every merge's end and at start.
  'CREATE INDEX parley_participant_merging IF NOT EXISTS FOR (n:Participant) ON (n.tenant, n.merging)',
  // Merges into a participant (`pendingMergesOf`); those from one are found by the key constraint's index.
  'CREATE INDEX parley_pending_merge_survivor IF NOT EXISTS FOR (n:PendingMerge) ON (n.tenant, n.intoId)',
] as const;

/**
 * Record the merge of `fromId` into `intoId` in `tx` (the merge's claiming transaction), adding `utteranceIds` to the
 * ids recorded (the start time stays).
 */
export async function beginMerge(tx: ManagedTransaction, tenant: string, fromId: string, intoId: string, utteranceIds: string[], at: string): Promise<void> {
  await tx.run(`
    MERGE (e:PendingMerge {tenant: $tenant, fromId: $from})
    ON CREATE SET e.startedAt = $at, e.utteranceIds = []
    SET e.intoId = $into, e.touchedAt = $at
    ${ADD_IDS}`, { tenant, from: fromId, into: intoId, ids: utteranceIds, at });
}

/**
 * Renew the lease of the pending merge of `fromId` into `intoId` in `tx` (a batch of its moves): `touchedAt` is `at`
 * (default now), so a pass that finishes abandoned merges (`MERGE_LEASE_MS`) leaves one making progress alone; with
 * `erasure`, that plan is recorded too (`GraphStore.renewMerge`). False when no merge of the pair is pending.
 */
export async function renewMerge(
  tx: ManagedTransaction, tenant: string, fromId: string, intoId: string, at = new Date().toISOString(), erasure?: string,
): Promise<boolean> {
  const res = await tx.run(`MATCH (e:PendingMerge {tenant: $tenant, fromId: $from, intoId: $into})
    SET e.touchedAt = $at, e.erasure = coalesce($erasure, e.erasure) RETURN count(e) AS n`,
  { tenant, from: fromId, into: intoId, at, erasure: erasure ?? null });
  return toNum(res.records[0]?.get('n') ?? 0) > 0;
}

/** When a merge found by its marker alone (an older version's, `pendingMerges`) was begun: unknown, long ago. */
const UNRECORDED = new Date(0).toISOString();

/**
 * The tenant's merges begun and not ended, oldest first: those recorded, and first those whose `merging` marker a
 * version that kept no record left on a participant (a crash), as a merge owing no re-indexing begun at the epoch.
 */
export async function pendingMerges(db: Neo4jRunner, tenant: string): Promise<PendingMerge[]> {
  const [recorded, markers] = await db.read('pendingMerges', async (tx) => [
    await tx.run(`
      MATCH (e:PendingMerge {tenant: $tenant})
      RETURN e.fromId AS from, e.intoId AS into, e.utteranceIds AS ids, e.startedAt AS at, e.touchedAt AS touched, e.erasure AS erasure
      ORDER BY at, from`, { tenant }),
    await tx.run('MATCH (n:Participant {tenant: $tenant}) WHERE n.merging IS NOT NULL RETURN DISTINCT n.merging AS marker', { tenant }),
  ]);
  return withUnrecorded(recorded.records, markers.records);
}

/**
 * `pendingMerges` from or into participant `id`, or into one merged into `id` since, read by index (the key
 * constraint, `parley_pending_merge_survivor`, the retired ids' survivor index), with the markers left on `id` itself.
 */
export async function pendingMergesOf(db: Neo4jRunner, tenant: string, id: string): Promise<PendingMerge[]> {
  const [recorded, markers] = await db.read('pendingMergesOf', async (tx) => [
    await tx.run(`
      CALL {
        MATCH (e:PendingMerge {tenant: $tenant, fromId: $id}) RETURN e
        UNION
        MATCH (e:PendingMerge {tenant: $tenant, intoId: $id}) RETURN e
        UNION
        MATCH (r:RetiredParticipant {tenant: $tenant, mergedInto: $id})
        MATCH (e:PendingMerge {tenant: $tenant, intoId: r.key}) RETURN e
      }
      RETURN e.fromId AS from, e.intoId AS into, e.utteranceIds AS ids, e.startedAt AS at, e.touchedAt AS touched, e.erasure AS erasure
      ORDER BY at, from`, { tenant, id }),
    await tx.run('MATCH (n:Participant {tenant: $tenant, id: $id}) WHERE n.merging IS NOT NULL RETURN n.merging AS marker', { tenant, id }),
  ]);
  return withUnrecorded(recorded.records, markers.records);
}

/** Recorded merges (`from`, `into`, `ids`, `at`, `touched`, `erasure`), after the merges only a `marker` tells of. */
function withUnrecorded(recorded: readonly Neo4jRecord[], markers: readonly Neo4jRecord[]): PendingMerge[] {
  const merges = recorded.map((r) => ({
    fromId: String(r.get('from')), intoId: String(r.get('into')), utteranceIds: stringList(r.get('ids')),
    startedAt: String(r.get('at')), touchedAt: String(r.get('touched')),
    ...(typeof r.get('erasure') === 'string' ? { erasure: String(r.get('erasure')) } : {}),
  }));
  const unrecorded = markers.map((r) => JSON.parse(String(r.get('marker'))) as [string, string])
    .filter(([from, into]) => !merges.some((m) => m.fromId === from && m.intoId === into))
    .map(([fromId, intoId]) => ({ fromId, intoId, utteranceIds: [], startedAt: UNRECORDED, touchedAt: UNRECORDED, unrecorded: true as const }));
  return [...unrecorded, ...merges];
}

/** Forget the pending merge of `fromId` into `intoId`, and remove its `merging` marker wherever it is still set. */
export async function endMerge(db: Neo4jRunner, tenant: string, fromId: string, intoId: string, marker: string): Promise<void> {
  await db.write('endMerge', async (tx) => {
    await tx.run('MATCH (e:PendingMerge {tenant: $tenant, fromId: $from, intoId: $into}) DELETE e', { tenant, from: fromId, into: intoId });
    await tx.run('MATCH (n:Participant {tenant: $tenant}) WHERE n.id IN [$from, $into] AND n.merging = $marker REMOVE n.merging',
      { tenant, from: fromId, into: intoId, marker });
  });
}

/** Forget the pending merges naming participant `id` in `tx` (erased: the turns they owed re-indexing are gone with them). */
export async function forgetMergesOf(tx: ManagedTransaction, tenant: string, id: string): Promise<void> {
  await tx.run('MATCH (e:PendingMerge {tenant: $tenant}) WHERE e.fromId = $id OR e.intoId = $id DELETE e', { tenant, id });
}
