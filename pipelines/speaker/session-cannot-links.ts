import type { Participant, Utterance } from '../../graph/types.js';
import { cannotLinkFrom, externalIdCannotLinks, type UtteranceEvidence } from './merge.js';
import { withNamedAddressees } from './vocative-links.js';

/**
 * What a session's end-of-session passes (the id merge, the pooled claims, the utterance re-clustering) know of who is
 * never whom, read once from the session's transcript and participants and carried through the merges each pass makes.
 */
export interface SessionEvidence {
  /** The session's stored utterances in order, each under its speaker as the passes so far left it. */
  transcript: Utterance[];
  /** Per transcript line (same order): its speaker, span and the ids it addressed by name (the vocative rule). */
  named: UtteranceEvidence[];
  /**
   * Pairs of ids that are never one person: they spoke at the same time, one addressed the other by name (so a merge
   * never leaves a person addressing themself), or they hold different external ids.
   */
  cannotLink: [string, string][];
}

/** The evidence of a session from its transcript and `people` (everyone who spoke in it or was addressed, with names, aliases and external ids). */
export function sessionEvidence(transcript: Utterance[], people: readonly Participant[]): SessionEvidence {
  const named = withNamedAddressees(transcript, people);
  return { transcript, named, cannotLink: [...cannotLinkFrom(named), ...externalIdCannotLinks([...people])] };
}

/**
 * The evidence once `merges` (`{ from, into }`, applied in order) were made: every id relabelled to the one it now is,
 * pairs joined into one id dropped (a merge never joins a cannot-link pair; only what joined since can meet), repeats
 * dropped.
 */
export function afterMerges(e: SessionEvidence, merges: readonly { from: string; into: string }[]): SessionEvidence {
  if (merges.length === 0) return e;
  const into = new Map<string, string>();
  for (const m of merges) into.set(m.from, m.into);
  const final = (id: string): string => {
    const seen = new Set<string>();
    let x = id;
    while (into.has(x) && !seen.has(x)) {
      seen.add(x);
      x = into.get(x)!;
    }
    return x;
  };
  const pairs = new Map<string, [string, string]>();
  for (const [a, b] of e.cannotLink) {
    const [x, y] = [final(a), final(b)];
    if (x !== y) pairs.set([x, y].sort().join('\u0000'), [x, y]);
  }
  return {
    transcript: e.transcript.map((u) => ({ ...u, speakerId: final(u.speakerId), addresseeIds: [...new Set(u.addresseeIds.map(final))] })),
    named: e.named.map((u) => ({ ...u, speakerId: final(u.speakerId), namedAddresseeIds: [...new Set((u.namedAddresseeIds ?? []).map(final))] })),
    cannotLink: [...pairs.values()],
  };
}
