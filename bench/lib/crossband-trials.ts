/**
 * Cross-band speaker trials from precomputed features, so that one speaker's clips can be scored by many projections
 * (the cross-fitted LDAs of bench/speaker-crossband-crossfit.ts) without redoing sox or the feature extraction.
 * A speaker is enrolled from its first `enrol` LibriSpeech utterances (the prototype: normalised mean of their
 * embeddings); each later utterance is a test turn, heard wideband and through a simulated phone call
 * (bench/lib/phone-channel.ts).
 */
import { loadLibriSpeech } from '../../pipelines/speaker/eval-corpus.js';
import { cosine, l2Normalise, SPEAKER_SAMPLE_RATE } from '../../pipelines/speaker/speaker-embedder.js';
import { scoreLlr, type SpeakerDecisionParams } from '../../pipelines/speaker/speaker-decision.js';
import { utteranceStats } from '../../pipelines/speaker/stats-features.js';
import { phoneCall } from './phone-channel.js';

/** The channel a turn or a prototype was heard through. */
export type Side = 'wide' | 'phone';

/** Trial kinds: [name, the turn's channel, the prototype's channel]. */
export const CROSSBAND_KINDS: readonly (readonly [string, Side, Side])[] = [
  ['phone turn vs wideband voiceprint', 'phone', 'wide'],
  ['wideband turn vs phone voiceprint', 'wide', 'phone'],
  ['phone turn vs phone voiceprint', 'phone', 'phone'],
  ['wideband turn vs wideband voiceprint', 'wide', 'wide'],
];

/** One speaker's raw stats features: enrolment clips and test turns, each wideband and as a phone call. */
export interface SpeakerClips {
  id: string;
  enrol: Record<Side, Float64Array[]>;
  tests: { wide: Float64Array; phone: Float64Array; seconds: number }[];
}

function stats(audio: Float32Array, what: string): Float64Array {
  const x = utteranceStats(audio);
  if (!x) throw new Error(`crossband trials: ${what} is too short or silent to embed`);
  return x;
}

/** Features of LibriSpeech speaker `id` (shared data), the first `enrol` utterances enrolled. */
export async function speakerClips(id: string, enrol = 3): Promise<SpeakerClips> {
  const clips = loadLibriSpeech([id]).map((u) => u.audio);
  if (clips.length <= enrol) throw new Error(`crossband trials: speaker ${id} has ${clips.length} utterances, need more than ${enrol}`);
  const side = async (c: Float32Array, k: number): Promise<{ wide: Float64Array; phone: Float64Array }> =>
    ({ wide: stats(c, `${id} #${k}`), phone: stats(await phoneCall(c), `${id} #${k} by phone`) });
  const all = [];
  for (const [k, c] of clips.entries()) all.push({ ...(await side(c, k)), seconds: c.length / SPEAKER_SAMPLE_RATE });
  const head = all.slice(0, enrol);
  return { id, enrol: { wide: head.map((h) => h.wide), phone: head.map((h) => h.phone) }, tests: all.slice(enrol) };
}

/** A speaker's prototypes and test turns in one embedding space. */
export interface Projected {
  id: string;
  proto: Record<Side, Float32Array>;
  tests: { wide: Float32Array; phone: Float32Array; seconds: number }[];
}

const meanOf = (vs: Float32Array[]): Float32Array => l2Normalise(Float32Array.from(vs[0]!, (_, i) => vs.reduce((s, v) => s + v[i]!, 0)));

/** `s` embedded by `project` (raw features → length-normalised embedding). */
export function projectSpeaker(s: SpeakerClips, project: (raw: Float64Array) => Float32Array): Projected {
  return {
    id: s.id,
    proto: { wide: meanOf(s.enrol.wide.map(project)), phone: meanOf(s.enrol.phone.map(project)) },
    tests: s.tests.map((t) => ({ wide: project(t.wide), phone: project(t.phone), seconds: t.seconds })),
  };
}

/**
 * One test turn under one trial kind: the decision's excess LLR (calibrated LLR − logPriorNew) against its own speaker's
 * prototype and against other speakers', one value per scoring (a turn scored by several projections has several).
 * At an LLR offset m a trial is accepted when its excess is above m.
 */
export interface TurnTrials { speaker: string; turn: number; kind: string; same: number[]; diff: number[] }

/** The excess LLR of a turn embedding `a` against prototype `b`. */
export function excessLlr(d: SpeakerDecisionParams, a: Float32Array, b: Float32Array, seconds: number): number {
  return scoreLlr(d.calibration, cosine(a, b), seconds) - d.logPriorNew;
}

/** Adds the trials of `probe`'s turns against its own prototype and those of `others`, in one space, to `into`. */
export function addTrials(into: Map<string, TurnTrials>, d: SpeakerDecisionParams, probe: Projected, others: readonly Projected[]): void {
  for (const [kind, turnSide, protoSide] of CROSSBAND_KINDS) {
    probe.tests.forEach((t, turn) => {
      const key = `${probe.id}/${turn}/${kind}`;
      const rec = into.get(key) ?? { speaker: probe.id, turn, kind, same: [], diff: [] };
      rec.same.push(excessLlr(d, t[turnSide], probe.proto[protoSide], t.seconds));
      for (const o of others) rec.diff.push(excessLlr(d, t[turnSide], o.proto[protoSide], t.seconds));
      into.set(key, rec);
    });
  }
}

/** Per turn at offset m: FR = share of its same-speaker scorings rejected, FA = share of its other-speaker trials accepted. */
export function turnErrors(t: TurnTrials, m: number): { fa: number; fr: number } {
  const share = (xs: number[], f: (x: number) => boolean): number => (xs.length ? xs.filter(f).length / xs.length : 0);
  return { fa: share(t.diff, (x) => x > m), fr: share(t.same, (x) => x <= m) };
}

/** Mean FA and FR over `turns` at offset m. */
export function rates(turns: readonly TurnTrials[], m: number): { fa: number; fr: number } {
  const e = turns.map((t) => turnErrors(t, m));
  const avg = (k: 'fa' | 'fr'): number => e.reduce((s, x) => s + x[k], 0) / Math.max(1, e.length);
  return { fa: avg('fa'), fr: avg('fr') };
}

/**
 * The least offset of `steps` whose mean FA over `turns` is at most `target`; null when none is. Equal rates summed in
 * another order differ in the last bits, so "at most" allows 1e-9.
 */
export function leastOffset(turns: readonly TurnTrials[], steps: readonly number[], target: number): number | null {
  return steps.find((m) => rates(turns, m).fa <= target + 1e-9) ?? null;
}
