import type { GraphStore } from '../../graph/graph-store.js';
import type { TenantId, Utterance } from '../../graph/types.js';
import { coverage } from './question-policy.js';
import { defaultWordNet, type WordNet } from './wordnet.js';

/** A turn that ends in a question (a trailing shared-photo note such as "[shares a photo …]" aside). */
export const ASKS = /\?\s*(?:\[[^\]]*\])?\s*$/;

/**
 * The question each of `turns` answers: the turn just before it in its session (erased turns skipped) when another
 * speaker said it and it ends in a question ("So what's your favorite game?" before "I'm playing Xenoblade…").
 * Keyed by the answering turn's id; turns that answer no question are absent. One read per turn, all at once.
 */
export async function questionsAnswered(
  graph: Pick<GraphStore, 'recentUtterances'>, tenant: TenantId, turns: readonly Utterance[],
): Promise<Map<string, Utterance>> {
  const before = await Promise.all(turns.map((u) => (u.sessionId ? graph.recentUtterances(tenant, u.sessionId, 1, u.seq) : Promise.resolve([]))));
  const out = new Map<string, Utterance>();
  turns.forEach((u, i) => {
    const prev = before[i]?.at(-1);
    if (prev && prev.seq < u.seq && prev.speakerId !== u.speakerId && ASKS.test(prev.text)) out.set(u.id, prev);
  });
  return out;
}

/**
 * Score factor of a reply read together with the question it answers (`answeredWeight`): a reply often states only the
 * answer ("It's a mix of drama and romance!") while the asked thing ("genre", "screenplay") is in the partner's question
 * before it. The factor is `1 + weight × gain`, where gain is the share of the question's content words `terms` the
 * pair (question + reply) holds beyond what the reply holds alone (`coverage`, WordNet `wordnet`); 1 without a question or a gain.
 * Throws a RangeError for a negative or non-finite weight.
 */
export function answeredFactor(reply: string, asked: string | undefined, terms: readonly string[], weight: number, wordnet: WordNet = defaultWordNet()): number {
  if (!(Number.isFinite(weight) && weight >= 0)) throw new RangeError(`answeredWeight is a finite weight of 0 or more, got ${String(weight)}`);
  if (weight === 0 || asked === undefined || terms.length === 0) return 1;
  const gain = coverage(`${asked} ${reply}`, terms, wordnet) - coverage(reply, terms, wordnet);
  return 1 + weight * Math.max(0, gain);
}
