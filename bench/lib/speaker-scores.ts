import type { Attribution } from './speaker-sessions.js';

/** Attribution quality of one run. */
export interface AttributionScore {
  /** Utterances attributed correctly under the best one-to-one id ↔ speaker mapping. */
  accuracy: number;
  /** The same weighted by speech time (seconds), under the mapping best for speech time. */
  timeAccuracy: number;
  /** Distinct ids per true speaker over the whole run (1 is perfect). */
  idsPerSpeaker: number;
  /** Distinct ids in the run, and true speakers. */
  ids: number;
  speakers: number;
  /** Of (speaker, later session) pairs, the share whose majority id equals their first session's. */
  reidentification: number;
}

/**
 * Best one-to-one mapping of ids to speakers maximising the total weight of agreeing items (exact:
 * dynamic programming over subsets of speakers, so at most ~16 speakers).
 */
export function bestMappingWeight(as: Attribution[], weight: (a: Attribution) => number): number {
  const speakers = [...new Set(as.map((a) => a.speaker))];
  if (speakers.length > 16) throw new Error('bestMappingWeight: more than 16 speakers');
  const ids = [...new Set(as.map((a) => a.id))];
  const w = ids.map(() => new Float64Array(speakers.length));
  const si = new Map(speakers.map((s, i) => [s, i]));
  const ii = new Map(ids.map((d, i) => [d, i]));
  for (const a of as) {
    const row = w[ii.get(a.id)!]!;
    const s = si.get(a.speaker)!;
    row[s] = row[s]! + weight(a);
  }
  let best = new Float64Array(1 << speakers.length).fill(-Infinity);
  best[0] = 0;
  for (const row of w) {
    const next = Float64Array.from(best);
    for (let mask = 0; mask < best.length; mask++) {
      const v = best[mask]!;
      if (v === -Infinity) continue;
      for (let s = 0; s < speakers.length; s++) {
        if (mask & (1 << s)) continue;
        const m2 = mask | (1 << s);
        if (v + row[s]! > next[m2]!) next[m2] = v + row[s]!;
      }
    }
    best = next;
  }
  return Math.max(...best);
}

/** Score a run's attributions. */
export function scoreAttributions(as: Attribution[]): AttributionScore {
  const speakers = [...new Set(as.map((a) => a.speaker))];
  const totalSeconds = as.reduce((s, a) => s + a.seconds, 0);
  const idsPer = speakers.map((sp) => new Set(as.filter((a) => a.speaker === sp).map((a) => a.id)).size);
  const majority = (sp: string, s: number): string | null => {
    const m = new Map<string, number>();
    for (const a of as) if (a.speaker === sp && a.session === s) m.set(a.id, (m.get(a.id) ?? 0) + 1);
    return [...m.entries()].sort((x, y) => y[1] - x[1])[0]?.[0] ?? null;
  };
  let reid = 0;
  let reidTotal = 0;
  for (const sp of speakers) {
    const sessions = [...new Set(as.filter((a) => a.speaker === sp).map((a) => a.session))].sort((x, y) => x - y);
    const first = majority(sp, sessions[0]!);
    for (const s of sessions.slice(1)) {
      reidTotal++;
      if (majority(sp, s) === first) reid++;
    }
  }
  return {
    accuracy: bestMappingWeight(as, () => 1) / as.length,
    timeAccuracy: bestMappingWeight(as, (a) => a.seconds) / totalSeconds,
    idsPerSpeaker: idsPer.reduce((x, y) => x + y, 0) / speakers.length,
    ids: new Set(as.map((a) => a.id)).size,
    speakers: speakers.length,
    reidentification: reidTotal ? reid / reidTotal : NaN,
  };
}

/**
 * Arrange utterances into sessions: session k holds utterances [k·per, (k+1)·per) of every speaker
 * that has them, interleaved round-robin (a turn-taking conversation).
 */
export function arrangeSessions<T extends { speaker: string }>(utts: T[], perSpeakerPerSession: number): T[][] {
  const by = new Map<string, T[]>();
  for (const u of utts) by.set(u.speaker, [...(by.get(u.speaker) ?? []), u]);
  const maxN = Math.max(...[...by.values()].map((v) => v.length));
  const sessions: T[][] = [];
  for (let k = 0; k * perSpeakerPerSession < maxN; k++) {
    const parts = [...by.values()].map((v) => v.slice(k * perSpeakerPerSession, (k + 1) * perSpeakerPerSession)).filter((p) => p.length > 0);
    const session: T[] = [];
    for (let i = 0; i < perSpeakerPerSession; i++) for (const p of parts) if (p[i]) session.push(p[i]!);
    if (session.length > 0) sessions.push(session);
  }
  return sessions;
}

/** Shuffle each speaker's utterances with a seeded generator (another order of the same recordings). */
export function shufflePerSpeaker<T extends { speaker: string }>(utts: T[], seed: number): T[] {
  let x = seed * 2654435761 % 4294967296 || 1;
  const rand = (): number => ((x = (x * 1664525 + 1013904223) % 4294967296) / 4294967296);
  const by = new Map<string, T[]>();
  for (const u of utts) by.set(u.speaker, [...(by.get(u.speaker) ?? []), u]);
  const out: T[] = [];
  for (const list of by.values()) {
    const l = [...list];
    for (let i = l.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [l[i], l[j]] = [l[j]!, l[i]!];
    }
    out.push(...l);
  }
  return out;
}

/**
 * Attribution accuracy within each session (best one-to-one mapping per session), pooled over
 * utterances: what the end-of-session merge alone can change, whatever happens across sessions.
 */
export function withinSessionAccuracy(as: Attribution[]): number {
  let right = 0;
  for (const s of new Set(as.map((a) => a.session))) right += bestMappingWeight(as.filter((a) => a.session === s), () => 1);
  return right / as.length;
}
