/**
 * A session-kind-aware choice between two runs of the same sessions (issue #17 item 2, helper kindfuse;
 * bench/speaker-fuse.ts `--kind-switch`): the base run (the shipped default, stats-lda-v2 alone, i.e. the fused print
 * at w = 1) and the fused run each keep their own voiceprint store across the sessions; at the end of each session the
 * base tracker's stay rate (the share of its turn-to-turn transitions that stayed with the same id, as
 * `absorptionFor`'s `minStayRate` reads it) picks which run's attributions the session ends with: the fused run's in a
 * meeting-like session (rate at least the cut), the base run's otherwise. Ids are kept apart by run (`base:` /
 * `fused:`), so a speaker attributed by one run in one session and by the other in another counts as two ids.
 */
import { meetingLike } from '../../pipelines/speaker/small-id-absorption.js';
import { tallySum, type Attribution, type MergeTally, type SessionEnd } from './speaker-sessions.js';

/** One run of sessions as `runSessions` returns it (the parts this choice reads). */
export interface SessionsRun {
  attributions: readonly Attribution[];
  sessions: readonly SessionEnd[];
}

/**
 * The attributions each session ends with when the base run's stay rate picks the run (see the file's header), the
 * merge tallies of the picked sessions summed, and how many sessions took the fused run.
 */
export function switchByKind(base: SessionsRun, fused: SessionsRun, minStayRate: number): { attributions: Attribution[]; merges: MergeTally; fusedSessions: number } {
  if (!(minStayRate >= 0 && minStayRate <= 1)) throw new RangeError(`stay-rate cut must be in [0, 1], not ${minStayRate}`);
  if (base.sessions.length !== fused.sessions.length) throw new RangeError('the two runs must cover the same sessions');
  const picks = base.sessions.map((s) => meetingLike(s.stays, s.transitions, minStayRate));
  const attributions: Attribution[] = [];
  for (const [run, label, fromFused] of [[base, 'base', false], [fused, 'fused', true]] as const) {
    for (const a of run.attributions) if (picks[a.session] === fromFused) attributions.push({ ...a, id: `${label}:${a.id}` });
  }
  attributions.sort((x, y) => x.session - y.session);
  const merges = tallySum(picks.map((f, s) => (f ? fused : base).sessions[s]!.merges));
  return { attributions, merges, fusedSessions: picks.filter(Boolean).length };
}
