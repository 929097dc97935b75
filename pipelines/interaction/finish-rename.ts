/**
 * Finishing a rename's memory rewrite (`PENDING_RENAME`): the one code path a PATCH, a name learned from speech or by
 * the profile job, a speaker merge and the start-up pass all take, so a rewrite cut short anywhere is finished the same way.
 */
import type { GraphStore } from '../../graph/graph-store.js';
import type { Fact, MemoryStore } from '../../graph/memory-store.js';
import type { TenantId } from '../../graph/types.js';
import type { MemoryIndexer } from '../memory/memory-indexer.js';
import { isPendingRename, PENDING_RENAME, pendingRenameOf, type PendingRename } from './pending-rename.js';
import { renameInFacts } from './rename-facts.js';
import type { KeyedLock } from '../../graph/keyed-lock.js';
import { subjectLockKey } from '../memory/subject-lock.js';

/** What a rename's rewrite needs; without `indexer` the rewritten facts keep their index entries until re-indexed (a merge queues that). */
export interface RenameDeps {
  graph: GraphStore;
  memory: MemoryStore;
  indexer?: Pick<MemoryIndexer, 'vectorsFor' | 'indexFacts'>;
  /**
   * The subjects' locks consolidation writes under (`Stores.locks`): with them, the rewrite runs under the participant's
   * subject lock, so a consolidation job never writes between the rewrite and its end (it re-reads the name under it).
   */
  locks?: KeyedLock;
  /** The job try's signal, when a job runs it: aborted (the try overran), the lock is given up and nothing more written. */
  signal?: AbortSignal;
}

/** Participants owing a rewrite read per page by the start-up pass. */
const PAGE = 500;

/**
 * Rewrite the memories of `id` that name them by an old label of `owed` (`renameInFacts`), index the current ones again
 * under their new words, then clear the pending rename (only `owed`: a newer one recorded meanwhile stays).
 */
export async function renameMemories(deps: RenameDeps, tenant: TenantId, id: string, owed: PendingRename): Promise<void> {
  if (deps.locks) return deps.locks.withLock([subjectLockKey(tenant, id)], () => rewriteMemories(deps, tenant, id, owed), deps.signal);
  return rewriteMemories(deps, tenant, id, owed);
}

/** The rewrite of {@link renameMemories}, with the lock (if any) held. */
async function rewriteMemories(deps: RenameDeps, tenant: TenantId, id: string, owed: PendingRename): Promise<void> {
  const current: Fact[] = [];
  for (const from of owed.from) {
    // Others who answer to the old label: a fact one of them takes part in may mean them by it.
    const holders = new Set(from ? (await deps.graph.findParticipantsByName(tenant, from)).map((p) => p.id).filter((other) => other !== id) : []);
    const only = owed.facts ? new Set(owed.facts) : undefined;
    current.push(...(await renameInFacts(deps.memory, tenant, id, from, owed.to, holders, only)).filter((f) => f.validTo === null));
  }
  if (current.length > 0 && deps.indexer) {
    const vectors = await deps.indexer.vectorsFor(tenant, current.map((f) => ({ id: f.id, layer: f.layer, text: f.content })));
    await deps.indexer.indexFacts(tenant, current.flatMap((fact, i) => (vectors[i] ? [{ fact, vector: vectors[i] }] : [])));
  }
  await deps.graph.updateParticipantAttribute(tenant, id, PENDING_RENAME, (stored) => (isPendingRename(stored, owed) ? undefined : stored));
}

/**
 * Finish the rename still owed to each of `ids`, if any. One recorded for a name they do not hold is left as it is:
 * it may be one a merge or a PATCH has just recorded and is about to set the name of (clearing it then would lose the
 * rewrite); one a PATCH cut short before setting the name owes nothing until that name is set, and the next rename
 * replaces it. Returns how many rewrites ran.
 */
export async function finishPendingRenames(deps: RenameDeps, tenant: TenantId, ids: readonly string[]): Promise<number> {
  let finished = 0;
  for (const p of await deps.graph.getParticipants(tenant, [...new Set(ids)])) {
    const owed = pendingRenameOf(p.attributes);
    if (!owed) continue;
    if (owed.to !== p.name) continue;
    await renameMemories(deps, tenant, p.id, owed);
    finished += 1;
  }
  return finished;
}

/**
 * Finish every rename still owed in the tenant (a crash cut it short): a pass over the participants owing one
 * (`GraphStore.participantsOwingRename`, read through an index of those alone), a page at a time.
 */
export async function finishTenantRenames(deps: RenameDeps, tenant: TenantId): Promise<number> {
  let finished = 0;
  let after: { createdAt: string; id: string } | undefined;
  for (;;) {
    const page = await deps.graph.participantsOwingRename(tenant, { ...(after ? { after } : {}), limit: PAGE });
    const owing = page.filter((p) => pendingRenameOf(p.attributes) !== null).map((p) => p.id);
    if (owing.length > 0) finished += await finishPendingRenames(deps, tenant, owing);
    const last = page[page.length - 1];
    if (page.length < PAGE || !last) return finished;
    after = { createdAt: last.createdAt, id: last.id };
  }
}
