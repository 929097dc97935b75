import type { GraphStore } from '../../graph/graph-store.js';
import { factEnded, type Fact, type MemoryStore } from '../../graph/memory-store.js';
import type { Participant, TenantId } from '../../graph/types.js';
import { CLIENT_KEYS, DERIVED_ENDS, mergedClientKeys, withClientKeys, withDerived, withMergedEnds, type DerivedEnd } from './participant-attributes.js';

/** A derived attribute to work out again: the participant and the slot (attribute key) of a profile memory about them. */
export interface DerivedSlot {
  participantId: string;
  slot: string;
}

/**
 * The derived slots a profile memory fills: its subject's attribute of the same key as its slot (`lives_in`).
 * None for other kinds (a preference's `preference:sushi` is no attribute), the `name` slot (the display name is
 * no attribute), or a subject that is not a participant (`entity:acme`).
 */
export function derivedSlotOf(f: Pick<Fact, 'kind' | 'slot' | 'subjectId'>): DerivedSlot[] {
  if (f.kind !== 'profile' || !f.slot || f.slot === 'name' || f.subjectId.startsWith('entity:')) return [];
  return [{ participantId: f.subjectId, slot: f.slot }];
}

/**
 * Set each slot's derived attribute from the newest current profile memory of that slot about the participant,
 * or remove it when none is left (after a memory was deleted, closed, corrected or erased). A temporary state
 * whose own end (`validUntil`) has passed by `now` ("living in Lisbon for a month", a month on) is not current:
 * the value it interrupted (Berkeley, kept open beside it) is the attribute again. Attributes the client set
 * itself are left as they are. Returns the participants whose attributes changed, as stored now.
 */
export async function rederiveAttributes(
  graph: GraphStore, memory: MemoryStore, tenant: TenantId, slots: readonly DerivedSlot[], now: string = new Date().toISOString(),
): Promise<Participant[]> {
  const byParticipant = new Map<string, Set<string>>();
  for (const { participantId, slot } of slots) byParticipant.set(participantId, (byParticipant.get(participantId) ?? new Set()).add(slot));
  const changed: Participant[] = [];
  for (const [id, keys] of byParticipant) {
    const p = await graph.getParticipant(tenant, id);
    if (!p) continue;
    let attributes = p.attributes;
    for (const slot of keys) {
      const { value, ends } = await derivedValue(memory, tenant, id, slot, now);
      attributes = withDerived(attributes, slot, value, ends);
    }
    if (attributes === p.attributes) continue;
    const updated = await graph.updateParticipant(tenant, id, { attributes });
    if (updated) changed.push(updated);
  }
  return changed;
}

/**
 * The value of the newest profile memory of `slot` about the participant that holds at `now` (null when none holds
 * one), and, when it is a temporary state, what follows its end: the value that holds then, and so on while that one
 * is temporary too, to the first lasting value (or none), for `shownAttributes` to read at any later time: the whole
 * chain is recorded, so the attribute is right at every later time with nothing run when a state ends.
 */
async function derivedValue(memory: MemoryStore, tenant: TenantId, participantId: string, slot: string, now: string): Promise<{ value: string | null; ends: DerivedEnd[] }> {
  const facts = await memory.listFacts(tenant, { subjectId: participantId, slot, kind: 'profile', limit: 20 });
  const holding = (at: string): Fact | null => facts.find((f) => f.value !== null && f.value.trim() !== '' && !factEnded(f, at)) ?? null;
  const current = holding(now);
  const ends: DerivedEnd[] = [];
  // Each next fact holds past the end before it (`factEnded` is false there): the ends only go forward.
  for (let f = current; f?.validUntil && ends.length < facts.length;) {
    const from = f.validUntil;
    f = holding(from);
    ends.push({ from, value: f?.value ?? null });
  }
  return { value: current?.value ?? null, ends };
}

/**
 * After `from` was merged into `into` (`GraphStore.mergeParticipants`, which keeps `{...from, ...into}`
 * attributes): record as client-set both people's client keys whose values survived, so a derived change
 * never clobbers a value the client set on the merged-away person, and keep each surviving value's recorded ends
 * (`DERIVED_ENDS`) with it. `from` and `into` as read before the merge.
 */
export async function keepClientKeysAfterMerge(graph: GraphStore, tenant: TenantId, from: Participant, into: Participant): Promise<void> {
  if (!(CLIENT_KEYS in from.attributes) && !(DERIVED_ENDS in from.attributes)) return;
  const merged = await graph.getParticipant(tenant, into.id);
  if (!merged) return;
  const kept = CLIENT_KEYS in from.attributes ? withClientKeys(merged.attributes, mergedClientKeys(from.attributes, into.attributes)) : merged.attributes;
  const attributes = withMergedEnds(kept, from.attributes, into.attributes);
  await graph.updateParticipant(tenant, into.id, { attributes });
}
