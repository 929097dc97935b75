import { decideSpeaker, scoreLlr, type Candidate, type SpeakerDecisionParams } from './speaker-decision.js';
import type { SpeakerThresholds } from './speaker-thresholds.js';
import type { VoiceBand } from './voice-bands.js';

/** How one turn is attributed beyond its embedding. */
export interface AssignOptions {
  /** The band the turn was heard through (default wideband). */
  band?: VoiceBand;
  /** The session brings an external id and this is its first voice: who that voice may be. */
  newcomer?: NewcomerGuard | null;
}

/**
 * The first voice of a session that brings an external id (docs/PROTOCOL.md, "external_id"): the id's holder (and
 * the session's agents) are matched as usual; anyone else only when `eligible` (they hold no external id) and their match clears the decision
 * by `margin` more log-likelihood ratio (without the decision: cosine ≥ tauUpdate). Otherwise the voice is new.
 */
export interface NewcomerGuard {
  /** The participant holding the session's external id, or null when nobody does. */
  holder: string | null;
  /** Participants matched as usual too, like the holder (a call centre's agents, who never take the id). */
  agents?: ReadonlySet<string>;
  /** Extra LLR (natural log) a participant other than the holder must clear. */
  margin: number;
  eligible(participantId: string): Promise<boolean>;
}

/**
 * The extra LLR a newcomer's voice must clear to be taken as someone already known without an external id: set a
 * priori (e, about 2.7 times the evidence the decision asks for); its dev-half error rates are in docs/BENCHMARKS.md
 * ("callerid").
 */
export const NEWCOMER_MARGIN = 1;

/** What the pick reads of the tracker: its decision now (null: cosine thresholds) and the voice just heard. */
export interface PickState {
  decision: SpeakerDecisionParams | null;
  thresholds: Pick<SpeakerThresholds, 'tauMatch' | 'tauUpdate'>;
  previous: string | null;
}

/**
 * The candidate a turn goes to (its index, or -1 for a new voice) and the decision's score. With `newcomer`, the
 * stricter rule of {@link NewcomerGuard}; a short turn may then found an id.
 */
export async function pickCandidate(
  s: PickState, candidates: Candidate[], voicedSeconds: number, newcomer: NewcomerGuard | null,
): Promise<{ at: number; score: number }> {
  const { tauMatch, tauUpdate } = s.thresholds;
  const decision = s.decision;
  const usual = (c: Candidate): boolean => !newcomer || c.participantId === newcomer.holder || (newcomer.agents?.has(c.participantId) ?? false);
  const allowed = async (c: Candidate): Promise<boolean> => usual(c) || (await newcomer!.eligible(c.participantId));
  if (!decision) {
    const bar = (c: Candidate): number => (usual(c) ? tauMatch : tauUpdate);
    const order = candidates.map((c, i) => i).filter((i) => candidates[i]!.cosine >= bar(candidates[i]!)).sort((x, y) => candidates[y]!.cosine - candidates[x]!.cosine);
    for (const i of order) if (await allowed(candidates[i]!)) return { at: i, score: 0 };
    return { at: -1, score: 0 };
  }
  const d = newcomer ? { ...decision, minFoundSeconds: 0 } : decision;
  let left = newcomer
    ? candidates.map((c) => (usual(c) ? c : { ...c, llrOffset: (c.llrOffset ?? 0) + newcomer.margin }))
    : candidates;
  for (;;) {
    const chosen = decideSpeaker(d, left, voicedSeconds, s.previous);
    const c = left.find((x) => x.participantId === chosen.participantId);
    if (!c) return { at: -1, score: chosen.score };
    if (await allowed(c)) {
      // The participant's prototype that scored best (one per band).
      const own = (i: number): number => (candidates[i]!.participantId === c.participantId ? scoreLlr(d.calibration, candidates[i]!.cosine, voicedSeconds) - (candidates[i]!.llrOffset ?? 0) : -Infinity);
      const at = candidates.reduce((m, _, i) => (own(i) > own(m) ? i : m), 0);
      return { at, score: chosen.score };
    }
    left = left.filter((x) => x.participantId !== c.participantId);
  }
}

