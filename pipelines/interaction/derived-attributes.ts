import type { GraphStore } from '../../graph/graph-store.js';
import { factEnded, type Fact, type MemoryStore } from '../../graph/memory-store.js';
import type { Participant, TenantId } from '../../graph/types.js';
import {
  CLIENT_KEYS, clientKeys, DERIVED_STEPS, OLD_DERIVED_STEPS, TAUGHT_NAMES, mergedClientKeys, taughtNames, withClientKeys, withDerived, withMergedSteps,
  withTaughtNames, type DerivedStep,
} from './participant-attributes.js';

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
    const values = new Map<string, Awaited<ReturnType<typeof derivedValue>>>();
    for (const slot of keys) values.set(slot, await derivedValue(memory, tenant, id, slot, now));
    // Applied to the attributes as stored at the write, in its transaction: a PATCH landing meanwhile (a client key,
    // which withDerived then leaves alone) or another job's attribute stays. The last call is the one written.
    let written = false;
    const updated = await graph.updateParticipantAttributes(tenant, id, (stored) => {
      let attributes = stored;
      for (const [slot, { value, steps }] of values) attributes = withDerived(attributes, slot, value, steps);
      written = attributes !== stored;
      return attributes;
    });
    if (updated && written) changed.push(updated);
  }
  return changed;
}

/**
 * The value of the newest profile memory of `slot` about the participant that holds at `now` (null when none holds
 * one), and, when the slot has a temporary state (an end of its own, or a start ahead: "next month I'm in Tokyo for two
 * weeks", rules 30), the value at each time a memory of the slot is said, begins or ends, wherever it changes, for
 * `shownAttributes` to read at any time: the whole chain is recorded, so the attribute is right before a stay said
 * ahead, during it and after it, with nothing run when a state begins or ends.
 */
async function derivedValue(memory: MemoryStore, tenant: TenantId, participantId: string, slot: string, now: string): Promise<{ value: string | null; steps: DerivedStep[] }> {
  const facts = (await memory.listFacts(tenant, { subjectId: participantId, slot, kind: 'profile', limit: 20 }))
    .filter((f) => f.value !== null && f.value.trim() !== '');
  const holding = (at: string): Fact | null => facts.find((f) => factStarted(f, at) && !factEnded(f, at)) ?? null;
  const value = holding(now)?.value ?? null;
  if (!facts.some((f) => f.validUntil !== null || startsAhead(f))) return { value, steps: [] };
  // From when a state ahead was said to its start, the value it does not yet replace holds: a step then too.
  const times = [...new Set(facts.flatMap((f) => [f.time, f.validFrom, ...(f.validUntil ? [f.validUntil] : [])]).map((t) => Date.parse(t)))]
    .filter((t) => !Number.isNaN(t)).sort((a, b) => a - b);
  const steps: DerivedStep[] = [];
  for (const t of times) {
    const from = new Date(t).toISOString();
    const v = holding(from)?.value ?? null;
    if (steps.length === 0 || steps.at(-1)!.value !== v) steps.push({ from, value: v });
  }
  return { value, steps };
}

/** True when `f` holds by `at`: it began then or before (`validFrom`; a state said ahead begins after it was said; none read: it has). */
function factStarted(f: Pick<Fact, 'validFrom'>, at: string): boolean {
  return !(Date.parse(f.validFrom) > Date.parse(at));
}

/** A memory that begins after it was said (a stay said ahead, rules 30). */
function startsAhead(f: Pick<Fact, 'validFrom' | 'time'>): boolean {
  return Date.parse(f.validFrom) > Date.parse(f.time);
}

/**
 * After `from` was merged into `into` (`GraphStore.mergeParticipants`, which keeps `{...from, ...into}`
 * attributes): record as client-set both people's client keys whose values survived, so a derived change
 * never clobbers a value the client set on the merged-away person, keep each surviving value's recorded steps
 * (`DERIVED_STEPS`) with it, and record as taught (`TAUGHT_NAMES`) the names taught either person, so a speaker
 * revision can still take back a name taught the merged-away one. `from` and `into` as read before the merge.
 * Written on the attributes as stored then, in one transaction: what a PATCH of the survivor changed since the merge
 * (a key it made the client's or gave back, a name it claimed) stays changed.
 */
export async function keepClientKeysAfterMerge(graph: GraphStore, tenant: TenantId, from: Participant, into: Participant): Promise<void> {
  if (![CLIENT_KEYS, DERIVED_STEPS, OLD_DERIVED_STEPS, TAUGHT_NAMES].some((k) => k in from.attributes)) return;
  const left = { ...from.attributes, ...into.attributes };
  const keys = CLIENT_KEYS in from.attributes ? mergedClientKeys(from.attributes, into.attributes) : clientKeys(left);
  const taught = new Set([...taughtNames(from.attributes), ...taughtNames(into.attributes)]);
  await graph.updateParticipantAttributes(tenant, into.id, (now) => {
    const stepped = withMergedSteps(now, from.attributes, into.attributes);
    const kept = withClientKeys(stepped, rebased(keys, clientKeys(left), clientKeys(now)));
    return withTaughtNames(kept, rebased(taught, taughtNames(left), taughtNames(now)));
  });
}

/** `ours`, worked out from `base`, with what was added to or taken from `base` since (giving `now`) done too. */
function rebased(ours: ReadonlySet<string>, base: ReadonlySet<string>, now: ReadonlySet<string>): Set<string> {
  const out = new Set([...ours].filter((k) => !base.has(k) || now.has(k)));
  for (const k of now) if (!base.has(k)) out.add(k);
  return out;
}
