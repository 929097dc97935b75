import type { Fact, MemoryStore } from '../../graph/memory-store.js';
import type { Stores } from '../../graph/stores.js';
import type { TenantId } from '../../graph/types.js';
import { derivedSlotOf, rederiveAttributes, type DerivedSlot } from '../interaction/derived-attributes.js';
import type { Candidate, Decision } from './decide.js';
import type { ExtractedFact } from './extractor.js';
import { stateEnd } from './state-end.js';

/**
 * Temporary states ("I'm living in Lisbon for a month": a fact with an end of its own, `validUntil`) beside
 * the lasting value of their slot ("I live in Berkeley"). The stay does not replace the home: it is stored
 * beside it, the home stays open, and while the stay lasts it is the newest value of the slot (the derived
 * `lives_in` attribute is Lisbon). Once its end passes, the stay holds no more (read-time, `factEnded`) and
 * the home is the current value again, with nothing to reopen. The participant's derived attribute records the
 * stay's steps, its end and what follows it (`$derived_steps`, written when the facts change), read at any time by
 * `shownAttributes`: no job has to run when the state ends.
 */

/** The end a fact said at `time` carries by its own words: the extractor's when it gave one, else read from its text. */
export function ownEnd(ef: Pick<ExtractedFact, 'validUntil' | 'content'>, time: string): string | null {
  return ef.validUntil !== undefined ? ef.validUntil : stateEnd(ef.content, time);
}

/**
 * The decision for a fact with its own end `validUntil` (null: lasting), with stays in mind: an UPDATE of a
 * lasting fact of a slot by a stay becomes an ADD, so the stay is stored beside the home instead of closing it;
 * a KEEP of a stay by a lasting fact of its value ("I moved to Austin" during the Austin stay) becomes an UPDATE,
 * so the value outlasts the stay's end. A state said ahead (`ahead`: it begins after it was said, rules 30) replaces
 * nothing: an UPDATE becomes an ADD, stored beside what holds until it begins. Other decisions as given.
 */
export function decideWithStays(decision: Decision, validUntil: string | null, candidates: readonly Candidate[], ahead = false): Decision {
  if (ahead && decision.op === 'UPDATE') return { op: 'ADD' };
  if (decision.op !== 'UPDATE' && decision.op !== 'KEEP') return decision;
  const target = candidates.find((c) => c.fact.id === decision.targetId)?.fact;
  if (!target || target.slot === null) return decision;
  if (decision.op === 'UPDATE' && validUntil !== null && target.validUntil === null) return { op: 'ADD' };
  if (decision.op === 'KEEP' && validUntil === null && target.validUntil !== null) return { op: 'UPDATE', targetId: target.id };
  return decision;
}

/**
 * When `added`, a lasting fact, replaced `old`, a temporary state of a slot ("I've moved to Porto" after the
 * Lisbon stay): the lasting facts of that slot the stay had interrupted (Berkeley) are closed too, replaced by
 * `added` at `time`. Returns the facts closed.
 */
export async function closeInterrupted(memory: MemoryStore, tenant: TenantId, old: Fact, added: Fact, time: string): Promise<Fact[]> {
  if (old.validUntil === null || added.validUntil !== null || old.slot === null || added.slot === null) return [];
  const open = await memory.listFacts(tenant, { subjectId: added.subjectId, slot: old.slot, limit: 100 });
  const closed: Fact[] = [];
  for (const f of open) {
    if (f.id === added.id || f.validUntil !== null) continue;
    const c = await memory.closeFact(tenant, f.id, time, added.id);
    if (c) closed.push(c);
  }
  return closed;
}

const PAGE = 1000;
/** Far enough ahead that every stated end lies before it. */
const END_OF_TIME = '9999-12-31T23:59:59.999Z';

/** The data migration `recordStateSteps` runs once per tenant of a store (`MemoryStore.recordMigration`). */
export const STATE_STEPS_MIGRATION = 'temporary-state-steps';

/**
 * Record the steps of every temporary profile state of `tenant` in its subject's derived attributes (`$derived_steps`),
 * as they stand at `now`: attributes stored by a build before rules 30 (that recorded no steps, or at most four, and
 * left ended states to a sweep job that no longer exists) read right at every later time from then on. Builds since
 * record the steps whenever the facts change, so this runs once per tenant of a store, as the jobs start: the store
 * records it (`STATE_STEPS_MIGRATION`), and later starts read nothing more. Idempotent (a participant whose attributes
 * already record their steps is not written; two processes starting at once may both run it). Returns how many
 * participants changed; null when it had run before.
 */
export async function recordStateSteps(stores: Pick<Stores, 'graph' | 'memory'>, tenant: TenantId, now: string = new Date().toISOString()): Promise<number | null> {
  if (await stores.memory.migrationDone(tenant, STATE_STEPS_MIGRATION)) return null;
  const changed = await stateSteps(stores, tenant, now);
  await stores.memory.recordMigration(tenant, STATE_STEPS_MIGRATION);
  return changed;
}

/** `recordStateSteps`'s work: every ended-or-ending temporary profile state of `tenant`, its slots worked out again. */
async function stateSteps(stores: Pick<Stores, 'graph' | 'memory'>, tenant: TenantId, now: string): Promise<number> {
  const slots: DerivedSlot[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await stores.memory.listFacts(tenant, { kind: 'profile', endedAfter: '1970-01-01T00:00:00.000Z', endedBy: END_OF_TIME, limit: PAGE, offset });
    slots.push(...page.flatMap(derivedSlotOf));
    if (page.length < PAGE) break;
  }
  return slots.length === 0 ? 0 : (await rederiveAttributes(stores.graph, stores.memory, tenant, slots, now)).length;
}
