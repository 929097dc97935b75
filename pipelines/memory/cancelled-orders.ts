/**
 * An order closed by its cancellation (trial 8, a call centre): "Tom Becker ordered four garden chairs, order 5520" is
 * closed by "I want to cancel order 5520", by the agent's "I have cancelled order 5520", or by "please cancel the garden
 * chairs". Before, only the plan to cancel was settled and the order stayed current.
 */
import type { Fact } from '../../graph/memory-store.js';
import type { ExtractedFact } from './extractor.js';

/** Verbs that tell a thing ordered, booked or bought: what a cancellation may close. */
const ORDERED = new Set(['order', 'buy', 'book', 'purchase', 'reserve']);
/** Words that name the order itself, not the thing ordered. */
const ORDER_WORDS = new Set(['order', 'booking', 'reservation', 'purchase', 'subscription']);
/** A number an order goes by: "order 5520", "order number 7781", "booking ref 4410", "order #5520". */
const ORDER_NUMBER = /\b(?:order|booking|reservation|ref(?:erence)?|purchase)(?:\s+(?:number|no\.?|ref(?:erence)?))?\s*#?\s*(\d{3,})\b/gi;

function orderNumbers(text: string): Set<string> {
  return new Set([...text.matchAll(ORDER_NUMBER)].map((m) => m[1]!));
}

/**
 * The current orders among `candidates` (decide.ts's, each holding a `fact`) that the cancellation `fact` names: by the number it goes by, or by the thing
 * ordered ("cancel the garden chairs"). None when `fact` is no cancellation.
 */
export function cancelledOrders<C extends { fact: Fact }>(fact: ExtractedFact, candidates: readonly C[]): C[] {
  if (fact.settles !== 'cancelled') return [];
  const numbers = orderNumbers(fact.content);
  const things = new Set((fact.planObject?.objects ?? []).filter((o) => !ORDER_WORDS.has(o)));
  if (numbers.size === 0 && things.size === 0) return [];
  return candidates.filter(({ fact: f }) => {
    const o = f.planObject;
    if (f.validTo !== null || !o?.past || !ORDERED.has(o.verb ?? '')) return false;
    return [...orderNumbers(f.content)].some((n) => numbers.has(n)) || o.objects.some((thing) => things.has(thing));
  });
}
