/**
 * Forgetting a memory that had closed others ("I moved to Berkeley" closed "I live in Richmond"; "I cancelled the
 * dentist" deleted the appointment): what it closed becomes current again, as if it had never been said, unless
 * something not forgotten has taken its slot since (then it stays history).
 */
import type { Fact, MemoryStore } from '../../graph/memory-store.js';
import type { TenantId } from '../../graph/types.js';
import type { MemoryIndexer } from '../memory/memory-indexer.js';

/** Most facts of one subject read to find those a forgotten memory had closed (as a speaker revision reads). */
const SUBJECT_HISTORY = 1000;

/** A memory a forgotten turn deleted (its consolidation's DELETE decisions, `ProcessedBy.deletedIds`), closed `at` the turn's time. */
export interface DeletedByTurn {
  id: string;
  at: string;
}

/**
 * A memory to make current again: closed by `by`, a forgotten memory that replaced it, or deleted at `deletedAt` by a
 * forgotten turn (exactly one of them is set).
 */
export interface Reopening {
  id: string;
  by?: string;
  deletedAt?: string;
}

/**
 * The memories `forgotten` (about to be deleted) and the forgotten turns' deletions (`deleted`) closed and nothing
 * else has closed since: each closed by a forgotten memory that was current, or was itself closed only by forgotten
 * memories or turns; or deleted by a forgotten turn. A memory whose subject and slot hold a current memory not forgotten
 * is left closed (something took its slot since).
 */
export async function closedByForgotten(
  memory: MemoryStore, tenant: TenantId, forgotten: readonly Fact[], deleted: readonly DeletedByTurn[],
): Promise<Reopening[]> {
  const gone = new Map(forgotten.map((f) => [f.id, f]));
  const deletedAt = new Map(deleted.map((d) => [d.id, d.at]));
  const seen = new Map<string, boolean>();
  // A forgotten memory whose closing was itself forgotten counts as current: what it closed comes back.
  const endedOnlyByForgotten = (f: Fact, depth = 0): boolean => {
    const known = seen.get(f.id);
    if (known !== undefined) return known;
    seen.set(f.id, false);
    const by = f.supersededBy === null ? undefined : gone.get(f.supersededBy);
    const result = f.validTo === null
      || (by !== undefined && depth < 50 && endedOnlyByForgotten(by, depth + 1))
      || (f.supersededBy === null && deletedAt.get(f.id) === f.validTo);
    seen.set(f.id, result);
    return result;
  };
  const found = new Map<string, Reopening>();
  for (const g of forgotten) {
    if (!endedOnlyByForgotten(g)) continue;
    for (const x of await closedBy(memory, tenant, g)) {
      if (!gone.has(x.id)) found.set(x.id, { id: x.id, by: g.id });
    }
  }
  const deletions = deleted.filter((d) => !gone.has(d.id) && !found.has(d.id));
  const facts = deletions.length > 0 ? await memory.listFacts(tenant, { ids: deletions.map((d) => d.id), includeHistory: true, limit: 1000 }) : [];
  for (const x of facts) {
    if (x.supersededBy === null && x.validTo !== null && x.validTo === deletedAt.get(x.id)) found.set(x.id, { id: x.id, deletedAt: x.validTo });
  }
  const open: Reopening[] = [];
  for (const r of found.values()) {
    const fact = await memory.getFact(tenant, r.id);
    if (fact && !(await slotTaken(memory, tenant, fact, gone))) open.push(r);
  }
  return open;
}

/** The memories `g` closed: those of its subject it superseded, and the one it names as superseded (maybe another's). */
async function closedBy(memory: MemoryStore, tenant: TenantId, g: Fact): Promise<Fact[]> {
  const history = await memory.listFacts(tenant, { subjectId: g.subjectId, includeHistory: true, limit: SUBJECT_HISTORY });
  const closed = history.filter((x) => x.supersededBy === g.id);
  const prior = g.supersedes ? await memory.getFact(tenant, g.supersedes) : null;
  if (prior && prior.supersededBy === g.id && !closed.some((x) => x.id === prior.id)) closed.push(prior);
  return closed;
}

/** Whether `f`'s subject and slot hold a current memory other than `f` that is not being forgotten (a stay does not count). */
async function slotTaken(memory: MemoryStore, tenant: TenantId, f: Fact, gone: Pick<ReadonlySet<string>, 'has'>): Promise<boolean> {
  if (f.slot === null) return false;
  const same = await memory.listFacts(tenant, { subjectId: f.subjectId, slot: f.slot, limit: 50 });
  return same.some((x) => x.id !== f.id && !gone.has(x.id) && x.validUntil === null);
}

/** A memory's text and its vector, embedded before the subjects' locks are taken (`reopenVectors`). */
export interface PreparedVector {
  text: string;
  vector: Float32Array;
}

/**
 * The vectors the memories of `reopen` will be indexed with when they are made current again (`reopenClosed`), those of
 * `facts` (as read now) that may be, plus `more`: the stored ones where their text is indexed, else embedded. Called
 * before the subjects' locks are taken, so no lock is held across an embedder call.
 */
export async function reopenVectors(
  indexer: MemoryIndexer, tenant: TenantId, facts: readonly Fact[], more: ReadonlyMap<string, PreparedVector> = new Map(),
): Promise<Map<string, PreparedVector>> {
  const out = new Map(more);
  if (facts.length === 0) return out;
  const vectors = await indexer.vectorsFor(tenant, facts.map((x) => ({ id: x.id, layer: x.layer, text: x.content })));
  facts.forEach((f, i) => out.set(f.id, { text: f.content, vector: vectors[i] as Float32Array }));
  return out;
}

/**
 * Make current again the memories `reopen` names, each indexed first (a cut before it is reopened leaves it closed and
 * found again by the re-run); one found current already (a cut run reopened it) is indexed again. One whose subject and
 * slot hold a current memory not among `forgotten` now (a consolidation job wrote a newer value since it was found)
 * stays history. Must run before the memories that closed them are deleted (deleting one clears the links to it),
 * under the locks of their subjects (`subjectLockKey`), so that no job writes the slot between that check and the
 * reopening. Indexed with `prepared` (`reopenVectors`, embedded before the locks were taken): when a memory due reads
 * otherwise now (a rename rewrote it meanwhile) or has none, nothing is written and those memories are returned as
 * `stale`, to be embedded outside the locks and tried again; else returns those current now.
 */
export async function reopenClosed(
  memory: MemoryStore, indexer: MemoryIndexer, tenant: TenantId, reopen: readonly Reopening[], forgotten: ReadonlySet<string>,
  prepared: ReadonlyMap<string, PreparedVector>,
): Promise<{ current: Fact[]; stale: Fact[] }> {
  if (reopen.length === 0) return { current: [], stale: [] };
  const facts = await memory.listFacts(tenant, { ids: reopen.map((r) => r.id), includeHistory: true, limit: 1000 });
  const how = new Map(reopen.map((r) => [r.id, r]));
  const due: Fact[] = [];
  for (const f of facts) {
    const r = how.get(f.id);
    if (f.validTo === null) due.push(f);
    else if (!(r?.by !== undefined ? f.supersededBy === r.by : f.supersededBy === null && f.validTo === r?.deletedAt)) continue;
    else if (!(await slotTaken(memory, tenant, f, forgotten))) due.push(f);
  }
  if (due.length === 0) return { current: [], stale: [] };
  const stale = due.filter((f) => prepared.get(f.id)?.text !== f.content);
  if (stale.length > 0) return { current: [], stale };
  await indexer.indexFacts(tenant, due.map((fact) => ({ fact, vector: prepared.get(fact.id)!.vector })));
  const current: Fact[] = [];
  for (const f of due) {
    const r = how.get(f.id);
    if (f.validTo === null) current.push(f);
    else if (r?.by !== undefined) current.push(...nonNull(await memory.reopenFact(tenant, f.id, r.by)));
    else if (r?.deletedAt !== undefined) current.push(...nonNull(await memory.reopenDeleted(tenant, f.id, r.deletedAt)));
  }
  return { current, stale: [] };
}

function nonNull<T>(x: T | null): T[] {
  return x === null ? [] : [x];
}
