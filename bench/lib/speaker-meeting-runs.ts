import { bestMappingWeight, scoreAttributions } from './speaker-scores.js';
import { emptyTally, oneIdPerSession, runSessions, type Attribution, type EvalUtterance, type MergeTally, type RevisionTally, type RunOptions } from './speaker-sessions.js';

/** Scores of one run of sessions: across sessions (ids must persist) and within each session. */
export interface RunFigures {
  utterance: number;
  time: number;
  withinUtterance: number;
  withinTime: number;
  ids: number;
  speakers: number;
  /** What the end-of-session merges did in the run (all zero for one id per session). */
  merges: MergeTally;
  /** Turns the first-turn revision moved (zero without it). */
  revisions: RevisionTally;
  /**
   * Share of utterances given to an id whose other utterances in the session are mostly another speaker's (the id's
   * majority speaker in the session is not theirs): different people joined under one id, as attributed.
   */
  foreign: number;
}

/** Share of utterances whose id's majority speaker, within their session, is another speaker. */
export function foreignShare(as: readonly Attribution[]): number {
  let foreign = 0;
  for (const s of new Set(as.map((a) => a.session))) {
    const counts = new Map<string, Map<string, number>>();
    for (const a of as) if (a.session === s) {
      const m = counts.get(a.id) ?? new Map<string, number>();
      m.set(a.speaker, (m.get(a.speaker) ?? 0) + 1);
      counts.set(a.id, m);
    }
    for (const m of counts.values()) {
      const n = [...m.values()];
      foreign += n.reduce((x, y) => x + y, 0) - Math.max(...n);
    }
  }
  return as.length === 0 ? 0 : foreign / as.length;
}

/** Within-session accuracy (best one-to-one mapping per session), pooled, by utterances and by seconds. */
export function withinSession(as: readonly Attribution[]): { utterance: number; time: number } {
  let right = 0, rightS = 0;
  for (const s of new Set(as.map((a) => a.session))) {
    const here = as.filter((a) => a.session === s);
    right += bestMappingWeight(here, () => 1);
    rightS += bestMappingWeight(here, (a) => a.seconds);
  }
  return { utterance: right / as.length, time: rightS / as.reduce((x, a) => x + a.seconds, 0) };
}

/** Score attributions of one run. */
export function figures(as: readonly Attribution[], merges: MergeTally = emptyTally(), revisions: RevisionTally = { moved: 0, right: 0 }): RunFigures {
  const s = scoreAttributions([...as]);
  const w = withinSession(as);
  return { utterance: s.accuracy, time: s.timeAccuracy, withinUtterance: w.utterance, withinTime: w.time, ids: s.ids, speakers: s.speakers, merges, revisions, foreign: foreignShare(as) };
}

/** Run the production tracker (or, with `run` null, one id per session) over each run's sessions. */
export async function scoreRuns(runs: readonly EvalUtterance[][][], modelId: string, run: RunOptions | null): Promise<RunFigures[]> {
  const out: RunFigures[] = [];
  for (const sessions of runs) {
    if (!run) { out.push(figures(oneIdPerSession(sessions))); continue; }
    const r = await runSessions(sessions, modelId, run);
    out.push(figures(r.attributions, r.merges, r.revisions));
  }
  return out;
}

/** mean [min–max] of a figure over runs, as a percentage (or a plain number). */
export function spread(xs: readonly number[], percent = true): string {
  const f = (x: number): string => (percent ? (x * 100).toFixed(1) : x.toFixed(1));
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return `${f(m)} [${f(Math.min(...xs))}–${f(Math.max(...xs))}]${percent ? '%' : ''}`;
}
