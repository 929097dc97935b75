/**
 * How far the question's named subject stated what it asks (`namedBoostMatch`, `namedSearchMatch`): the shares of the
 * question's content words turns state, and the boost and search-weight factors worked out from them.
 */
import type { Utterance } from '../../graph/types.js';
import { coverage } from './question-policy.js';
import { defaultWordNet, type WordNet } from './wordnet.js';

/**
 * The score factor of a turn by the question's named subject (`namedBoostMatch`): `1 + boost × (1 − share +
 * share × min(1, match / bestMatch) ^ power)`, where `match` is the share of the question's content words the turn holds
 * and `bestMatch` the best such share stated by another speaker's candidate turn; none (`bestMatch` 0): the whole boost.
 */
export function namedSpeakerFactor(boost: number, share: number, match: number, bestMatch: number, power = 1): number {
  return 1 + boost * (bestMatch > 0 ? 1 - share + share * Math.min(1, match / bestMatch) ** power : 1);
}

/**
 * The weight factor of the searches filtered to each subject (`namedSearchMatch`): `1 − share + share ×
 * min(1, match / best) ^ power`, match = the best share of `terms` a turn of the subject states (`statedPart`), best = the
 * best share a turn of any other speaker states; a subject is left out (the whole weight) when no other speaker's
 * turn states any of the terms. `stated` gives a turn's share of `terms` (default computed here; `statedShares`
 * shares it with the rest of a question).
 */
export function subjectSearchFactors<T extends Pick<Utterance, 'speakerId' | 'text'>>(
  turns: readonly T[], subjectIds: readonly string[], terms: readonly string[], share: number, power = 1,
  stated: (u: T) => number = (u) => coverage(statedPart(u.text), terms),
): Map<string, number> {
  const best = Math.max(0, ...turns.filter((u) => !subjectIds.includes(u.speakerId)).map(stated));
  if (best === 0) return new Map();
  return new Map(subjectIds.map((s) => {
    const match = Math.max(0, ...turns.filter((u) => u.speakerId === s).map(stated));
    return [s, 1 - share + share * Math.min(1, match / best) ** power] as const;
  }));
}

/**
 * The share of `terms` each turn states (`coverage` of its `statedPart`, WordNet `wordnet`), computed once per turn id
 * and kept for one question only (the terms are that question's).
 */
export function statedShares(terms: readonly string[], wordnet: WordNet = defaultWordNet()): (u: Pick<Utterance, 'id' | 'text'>) => number {
  const shares = new Map<string, number>();
  return (u) => {
    let share = shares.get(u.id);
    if (share === undefined) {
      share = coverage(statedPart(u.text), terms, wordnet);
      shares.set(u.id, share);
    }
    return share;
  };
}

/** A turn's sentences that do not end in a question mark (what it states, not what it asks). */
export function statedPart(text: string): string {
  return text.split(/(?<=[.!?])\s+/).filter((sentence) => !sentence.trim().endsWith('?')).join(' ');
}
