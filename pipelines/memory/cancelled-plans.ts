/**
 * What a cancellation closes beyond the plan it withdraws. The orders it names (trial 8, a call centre): "Tom Becker
 * ordered four garden chairs, order 5520" is closed by "I want to cancel order 5520", by the agent's "I have cancelled
 * order 5520", or by "please cancel the garden chairs" (matched by plan-match.ts's `cancelsOrder`, beside its
 * `cancelsByObject` for plans).
 *
 * What a cancelled plan takes with it (life5): "I'm going to Madrid next month, I'll stay at my cousin's", then
 * "Actually I won't go to Madrid after all" ends the trip and the stay told with it, in the same session or a later one. What was
 * told with the plan and hangs on it: a fact of the same utterance and subject that has not begun yet (a stay said
 * ahead, `staying_in` from its start) or a plan to stay ("Ana will stay at a hostel there"). A stay told in a later
 * utterance of the same conversation ("I'm flying to Lisbon on Friday." … "I'll stay at your place for the weekend.")
 * hangs on it too (text6), unless it names a place the plan does not ("I'm staying in Bath this weekend"). Nothing else
 * said with it ("…and I'll call you tomorrow") and nothing said in another conversation ends.
 */
import type { Fact, MemoryStore } from '../../graph/memory-store.js';
import type { TenantId } from '../../graph/types.js';
import type { ExtractedFact } from './extractor.js';
import { terms } from '../../graph/lexical-terms.js';
import { PLANNED_KINDS as PLANNED, cancelsOrder } from './plan-match.js';
import { STAY_SLOT } from './stays.js';

/**
 * The current orders among `candidates` (decide.ts's, each holding a `fact`) that the cancellation `fact` names
 * (`cancelsOrder`). None when `fact` is no cancellation.
 */
export function cancelledOrders<C extends { fact: Fact }>(fact: ExtractedFact, candidates: readonly C[]): C[] {
  if (fact.settles !== 'cancelled') return [];
  return candidates.filter(({ fact: f }) => {
    const order = f.planObject;
    return f.validTo === null && order != null && cancelsOrder(fact.planObject ?? undefined, order, { cancel: fact.content, plan: f.content });
  });
}

/** Verbs of a booking or an order, wished or done ("would like to book a repair", "I've reserved a table"). */
const BOOKING = /\b(?:book(?:s|ed|ing)?|reserv(?:e|es|ed|ing)|schedul(?:e|es|ed|ing)|order(?:s|ed|ing)?|arrang(?:e|es|ed|ing))\b/i;

/**
 * The current bookings among `candidates` that the cancellation `fact` names by its thing ("please cancel the repair"
 * ends "Tom would like to book a repair for their bike on Tuesday…"; trial11 F2): an event told for a day, or a booking
 * or an order told with no plan object read, of the speaker's own (not told about someone else), at cosine `floor` or
 * more, naming a thing the cancellation acts on. None when `fact` is no cancellation or names no thing.
 */
export function cancelledBookings<C extends { fact: Fact; score: number }>(fact: ExtractedFact, candidates: readonly C[], floor: number): C[] {
  const things = fact.settles === 'cancelled' && fact.planObject?.reportedBy == null ? (fact.planObject?.objects ?? []).flatMap(terms) : [];
  if (things.length === 0) return [];
  return candidates.filter(({ fact: f, score }) => f.validTo === null && score >= floor && f.slot === null
    && (f.planObject?.event === true || (!f.planObject && BOOKING.test(f.content))) && f.planObject?.reportedBy == null
    && terms(f.content).some((t) => things.includes(t)));
}

/** True when `f`, told in the same utterance as a plan, hangs on it: not begun at `saidAt`, or a plan to stay. */
function hangsOnPlan(f: Fact, saidAt: string): boolean {
  return f.validFrom > saidAt || (PLANNED.has(f.kind) && f.planObject?.verb === 'stay');
}

/** A stay: `staying_in`, or a plan to stay. */
function isStay(f: Fact): boolean {
  return f.slot === STAY_SLOT || (PLANNED.has(f.kind) && f.planObject?.verb === 'stay');
}

/** True when the stay `f`, told after `plan` in its conversation, names no place the plan does not ("Bath" beside Oslo). */
function toldApartFor(f: Fact, plan: Fact): boolean {
  if (!isStay(f) || f.sessionId !== plan.sessionId || f.time < plan.time) return false;
  const told = plan.content.toLowerCase();
  const places = f.slot === STAY_SLOT && f.value ? [f.value]
    : [...(/\bstay(?:ing)?\b(.*)$/i.exec(f.content)?.[1] ?? '').matchAll(/\b([A-Z][\p{L}-]+)\b(?!['’]s)/gu)].map((m) => m[1]!);
  return places.every((p) => told.includes(p.toLowerCase()));
}

/** The current facts that hang on the plans of `closed` (closed by a cancellation said at `saidAt`), not closed yet. */
export async function dependentsOf(memory: MemoryStore, tenant: TenantId, closed: readonly Fact[], saidAt: string): Promise<Fact[]> {
  const out = new Map<string, Fact>();
  for (const plan of closed.filter((f) => PLANNED.has(f.kind))) {
    const told = new Set(plan.referIds);
    for (const f of await memory.listFacts(tenant, { subjectId: plan.subjectId, limit: 200 })) {
      if (f.id === plan.id || closed.some((c) => c.id === f.id)) continue;
      if (!f.referIds.some((id) => told.has(id)) && !toldApartFor(f, plan)) continue;
      if (hangsOnPlan(f, saidAt)) out.set(f.id, f);
    }
  }
  return [...out.values()];
}
