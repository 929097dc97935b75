import type { Attribution, EvalUtterance } from './speaker-sessions.js';
import { seeded, shuffle, type MeetingChunk } from './speaker-meeting.js';

/**
 * Many sessions per speaker (issue #17 item 2, drift of stored voiceprints): sessions of a few speakers follow each
 * other until the speech runs out, each turn-sized chunk used once per run, so a speaker comes back session after
 * session with speech the tracker has not heard. Fixed a priori, not fitted: 2–3 speakers and 8 turns a session (more
 * sessions per speaker than bench/lib/speaker-meeting.ts's 16-turn meetings), the next turn by the same speaker half
 * of the time, a third of the turns cut into fragments as a VAD gives them (as there).
 */
export interface LongSpec {
  speakersMin: number;
  speakersMax: number;
  turnsPerSession: number;
  stay: number;
  fragmentedShare: number;
}

export const LONG: LongSpec = { speakersMin: 2, speakersMax: 3, turnsPerSession: 8, stay: 0.5, fragmentedShare: 0.3 };

/**
 * The sessions of one run (seed). `byCondition` holds the same chunks in each condition (same speakers, same order);
 * each session is heard in one condition drawn at random among them (one condition: all sessions in it).
 */
export function longSessions(byCondition: readonly (readonly MeetingChunk[])[], seed: number, spec: LongSpec = LONG): EvalUtterance[][] {
  const rand = seeded(seed);
  const first = byCondition[0]!;
  const orders = new Map<string, number[]>();
  for (const [i, c] of first.entries()) orders.set(c.speaker, [...(orders.get(c.speaker) ?? []), i]);
  for (const list of orders.values()) shuffle(list, rand);
  const sessions: EvalUtterance[][] = [];
  for (;;) {
    const avail = [...orders.keys()].filter((s) => orders.get(s)!.length > 0);
    if (avail.length < 2) break;
    const k = Math.min(avail.length, spec.speakersMin + Math.floor(rand() * (spec.speakersMax - spec.speakersMin + 1)));
    const here = shuffle(avail, rand).slice(0, k);
    const chunks = byCondition[Math.floor(rand() * byCondition.length)]!;
    const session: EvalUtterance[] = [];
    let who = here[Math.floor(rand() * k)]!;
    for (let t = 0; t < spec.turnsPerSession; t++) {
      if (t > 0 && rand() >= spec.stay) who = here[Math.floor(rand() * k)]!;
      if (orders.get(who)!.length === 0) who = here.find((s) => orders.get(s)!.length > 0) ?? who;
      const i = orders.get(who)!.pop();
      if (i === undefined) break;
      const c = chunks[i]!;
      if (rand() < spec.fragmentedShare && c.fragments.length > 0) session.push(...c.fragments);
      else session.push(c.whole);
    }
    sessions.push(session);
  }
  return sessions;
}

/** What became of a run's utterances by the speaker's session number (1: the first session they speak in). */
export interface DriftCounts {
  /** Utterances of speakers back for their session number `j` (index j), and how many went to the id their earlier sessions gave them most. */
  back: number[];
  reidentified: number[];
  /** …and how many went to an id that earlier sessions gave another speaker most (index 1: first-time speakers). */
  wrong: number[];
}

/**
 * Cross-session re-identification and wrong attribution of a run, in session order: an utterance of a speaker in
 * their j-th session is re-identified when its id is the one their earlier sessions' utterances got most, and wrong when
 * its id is one that earlier sessions gave mostly to another speaker (a stored voiceprint claiming the wrong person).
 */
export function driftCounts(as: readonly Attribution[]): DriftCounts {
  const out: DriftCounts = { back: [], reidentified: [], wrong: [] };
  const bySpeaker = new Map<string, Map<string, number>>();
  const byId = new Map<string, Map<string, number>>();
  const seen = new Map<string, number>();
  const top = (m: Map<string, number> | undefined): string | null => (m ? [...m.entries()].sort((x, y) => y[1] - x[1])[0]?.[0] ?? null : null);
  const bump = (xs: number[], j: number): void => { while (xs.length <= j) xs.push(0); xs[j]!++; };
  for (const s of [...new Set(as.map((a) => a.session))].sort((x, y) => x - y)) {
    const here = as.filter((a) => a.session === s);
    for (const sp of new Set(here.map((a) => a.speaker))) seen.set(sp, (seen.get(sp) ?? 0) + 1);
    for (const a of here) {
      const j = seen.get(a.speaker)!;
      bump(out.back, j);
      if (j > 1 && a.id === top(bySpeaker.get(a.speaker))) bump(out.reidentified, j);
      const owner = top(byId.get(a.id));
      if (owner !== null && owner !== a.speaker) bump(out.wrong, j);
    }
    for (const a of here) {
      add(bySpeaker, a.speaker, a.id);
      add(byId, a.id, a.speaker);
    }
  }
  for (const xs of [out.reidentified, out.wrong]) while (xs.length < out.back.length) xs.push(0);
  return out;
}

function add(m: Map<string, Map<string, number>>, k: string, v: string): void {
  const inner = m.get(k) ?? new Map<string, number>();
  inner.set(v, (inner.get(v) ?? 0) + 1);
  m.set(k, inner);
}

/** The share of `part` over `all` for session numbers in [from, to] (NaN when none). */
export function share(part: readonly number[], all: readonly number[], from: number, to = Infinity): number {
  let p = 0, n = 0;
  for (let j = from; j < all.length && j <= to; j++) { p += part[j] ?? 0; n += all[j] ?? 0; }
  return n === 0 ? Number.NaN : p / n;
}
