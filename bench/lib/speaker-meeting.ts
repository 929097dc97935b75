import type { LabelledUtterance } from '../../pipelines/speaker/eval-corpus.js';
import type { SpeakerEmbedder } from '../../pipelines/speaker/speaker-embedder.js';
import type { EvalUtterance } from './speaker-sessions.js';

/**
 * Meetings where one voice dominates (issue #17 item 2), generated from labelled speech: a session of
 * 3–5 speakers, one of whom takes most turns, turns following a Markov chain, some turns cut into short
 * fragments as a VAD gives them. The numbers are fixed a priori, not fitted to any result:
 * - `dominantShare` 0.75: the brief's 70–80 % for the main speaker; the reference annotation of
 *   real far-field meetings has one voice holding ~85 % of the utterances of a 30 s file.
 * - `stay` 0.5: a VAD segment (2–4 s here) is shorter than a conversational turn, so the next segment is
 *   often the same person whatever the shares; a half chance of continuing is our a-priori guess.
 * - `fragmentedShare` 0.3 and `fragmentS` 0.75: the issue measured a median 0.6 s for the segments
 *   caught on the real meetings; a third of the turns come as such pieces here.
 */
export interface MeetingSpec {
  speakersMin: number;
  speakersMax: number;
  turnsPerSession: number;
  sessions: number;
  dominantShare: number;
  stay: number;
  fragmentedShare: number;
  /** Length of a turn before fragmenting, seconds (utterances are cut into chunks of about this). */
  chunkS: number;
  /** Length of a fragment, seconds. */
  fragmentS: number;
}

export const MEETING: MeetingSpec = {
  speakersMin: 3,
  speakersMax: 5,
  turnsPerSession: 16,
  sessions: 6,
  dominantShare: 0.75,
  stay: 0.5,
  fragmentedShare: 0.3,
  chunkS: 3,
  fragmentS: 0.75,
};

/** One turn-sized piece of a speaker's speech: embedded whole and as fragments. */
export interface MeetingChunk {
  speaker: string;
  whole: EvalUtterance;
  /** The chunk cut into fragments; fragments with too little speech to embed are left out. */
  fragments: EvalUtterance[];
}

/** Cut every utterance into chunks of about `chunkS` (a remainder under half a chunk joins the last one). */
export function cutChunks(us: readonly LabelledUtterance[], spec: MeetingSpec = MEETING, sampleRate = 16_000): { speaker: string; audio: Float32Array }[] {
  const w = Math.round(spec.chunkS * sampleRate);
  return us.flatMap((u) => {
    const n = Math.max(1, Math.floor(u.audio.length / w + 0.5));
    return Array.from({ length: n }, (_, k) => ({ speaker: u.speaker, audio: u.audio.subarray(k * w, k === n - 1 ? u.audio.length : (k + 1) * w) }));
  });
}

/** Embed chunks whole and as fragments; chunks whose whole audio cannot be embedded are dropped. */
export async function embedChunks(e: SpeakerEmbedder, chunks: readonly { speaker: string; audio: Float32Array }[], spec: MeetingSpec = MEETING, sampleRate = 16_000): Promise<MeetingChunk[]> {
  const out: MeetingChunk[] = [];
  const f = Math.round(spec.fragmentS * sampleRate);
  for (const c of chunks) {
    const vec = await e.embed(c.audio).catch(() => null);
    if (!vec) continue;
    const fragments: EvalUtterance[] = [];
    for (let s = 0; s + f <= c.audio.length; s += f) {
      const piece = c.audio.subarray(s, s + 2 * f > c.audio.length ? c.audio.length : s + f);
      const v = await e.embed(piece).catch(() => null);
      if (v) fragments.push({ speaker: c.speaker, vector: v, seconds: piece.length / sampleRate });
      if (s + 2 * f > c.audio.length) break;
    }
    out.push({ speaker: c.speaker, whole: { speaker: c.speaker, vector: vec, seconds: c.audio.length / sampleRate }, fragments });
  }
  return out;
}

/** A seeded uniform generator in [0, 1). */
export function seeded(seed: number): () => number {
  let x = (seed * 2654435761) % 4294967296 || 1;
  return () => (x = (x * 1664525 + 1013904223) % 4294967296) / 4294967296;
}

/**
 * The sessions of one run (seed): each picks its speakers and dominant voice, then walks the turn chain.
 * Each speaker's chunks are used in a shuffled order, cycling when exhausted; prototypes persist across
 * the run's sessions in the caller.
 */
export function meetingSessions(chunks: readonly MeetingChunk[], seed: number, spec: MeetingSpec = MEETING): EvalUtterance[][] {
  const rand = seeded(seed);
  const by = new Map<string, MeetingChunk[]>();
  for (const c of chunks) by.set(c.speaker, [...(by.get(c.speaker) ?? []), c]);
  for (const list of by.values()) shuffle(list, rand);
  const cursor = new Map<string, number>();
  const speakers = [...by.keys()];
  const sessions: EvalUtterance[][] = [];
  for (let s = 0; s < spec.sessions; s++) {
    const k = Math.min(speakers.length, spec.speakersMin + Math.floor(rand() * (spec.speakersMax - spec.speakersMin + 1)));
    const here = shuffle([...speakers], rand).slice(0, k);
    const shares = here.map((_, i) => (i === 0 ? spec.dominantShare : (1 - spec.dominantShare) / (k - 1)));
    const draw = (): string => {
      let r = rand();
      for (let i = 0; i < here.length; i++) if ((r -= shares[i]!) < 0) return here[i]!;
      return here[here.length - 1]!;
    };
    const session: EvalUtterance[] = [];
    let who = draw();
    for (let t = 0; t < spec.turnsPerSession; t++) {
      if (t > 0 && rand() >= spec.stay) who = draw();
      const list = by.get(who)!;
      const i = cursor.get(who) ?? 0;
      cursor.set(who, i + 1);
      const c = list[i % list.length]!;
      if (rand() < spec.fragmentedShare && c.fragments.length > 0) session.push(...c.fragments);
      else session.push(c.whole);
    }
    sessions.push(session);
  }
  return sessions;
}

/** Shuffle `xs` in place with `rand` (Fisher–Yates). */
export function shuffle<T>(xs: T[], rand: () => number): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
}
