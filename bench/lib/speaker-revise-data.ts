import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hasSharedSpeech, LIBRI_HELDOUT, loadLibriSpeech, loadSpeechBrain } from '../../pipelines/speaker/eval-corpus.js';
import type { SpeakerEmbedder } from '../../pipelines/speaker/speaker-embedder.js';
import { degrade, FAR_FIELD, PHONE_BAND } from './far-field.js';
import { outOfFoldEmbedders } from './speaker-folds.js';
import { featureKindArg, loadSpeakerFeatures, type SpeakerFeatures } from './speaker-feature-kinds.js';
import { cutChunks, embedChunks, meetingSessions, type MeetingChunk } from './speaker-meeting.js';
import { arrangeSessions, shufflePerSpeaker } from './speaker-scores.js';
import type { EvalUtterance, RunOptions } from './speaker-sessions.js';
import { trainingConditions } from './speaker-training.js';
import { decisionFor } from '../../pipelines/speaker/speaker-decision.js';
import { SHORT_TURN_MS, thresholdsFor } from '../../pipelines/speaker/speaker-thresholds.js';
import { StatsLdaSpeakerEmbedder } from '../../pipelines/speaker/stats-lda-speaker-embedder.js';

/** One condition's embedded speech: turn-sized chunks (with fragments) and whole utterances. */
export interface ConditionSpeech {
  chunks: MeetingChunk[];
  whole: EvalUtterance[];
}

/** A scenario's seeded runs, each a list of sessions. */
export interface Scenario {
  name: string;
  runs: EvalUtterance[][][];
}

/**
 * The training speakers' speech in the three training conditions, embedded out of fold
 * (bench/lib/speaker-training.ts); read from `cache` when it exists, written there otherwise.
 */
export async function trainingSpeech(features: SpeakerFeatures, cache: string | null): Promise<Map<string, ConditionSpeech>> {
  if (cache && existsSync(cache)) return revive(JSON.parse(readFileSync(cache, 'utf8')) as [string, ConditionSpeech][]);
  const params = features.loadParams();
  const { train, embedderOf } = await outOfFoldEmbedders(params, features);
  const byCondition = await trainingConditions(train, embedderOf);
  if (cache) writeFileSync(cache, JSON.stringify([...byCondition.entries()], (_k, v: unknown) => (v instanceof Float32Array ? [...v] : v)));
  return byCondition;
}

/** The held-out speakers (LIBRI_HELDOUT, SpeechBrain) as bench/speaker-meeting.ts degrades and embeds them. */
export async function heldOutSpeech(e: SpeakerEmbedder): Promise<Map<string, ConditionSpeech>> {
  if (!hasSharedSpeech()) throw new Error('the shared speech data is absent (set PARLEY_SHARED_DATA)');
  const real = [...loadLibriSpeech(LIBRI_HELDOUT), ...loadSpeechBrain()];
  const out = new Map<string, ConditionSpeech>();
  for (const [cond, d] of Object.entries({ clean: null, 'phone band': PHONE_BAND, 'far-field': FAR_FIELD })) {
    const us = real.map((u, i) => ({ ...u, audio: d ? degrade(u.audio, i + 1, d) : u.audio }));
    const chunks = await embedChunks(e, cutChunks(us));
    const whole: EvalUtterance[] = [];
    for (const u of us) {
      const vector = await e.embed(u.audio).catch(() => null);
      if (vector) whole.push({ speaker: u.speaker, vector, seconds: u.audio.length / 16_000 });
    }
    out.set(cond, { chunks, whole });
  }
  return out;
}

/**
 * Meeting and round-robin runs of each condition, seeds `seeds` (meetings from seed + `meetingOffset`:
 * 100 in bench/speaker-meeting.ts, 0 in the calibration scripts).
 */
export function scenarios(speech: ReadonlyMap<string, ConditionSpeech>, seeds: readonly number[], meetingOffset: number): Scenario[] {
  return [...speech.entries()].flatMap(([cond, { chunks, whole }]) => [
    { name: `${cond} meeting`, runs: seeds.map((s) => meetingSessions(chunks, meetingOffset + s)) },
    { name: `${cond} round-robin`, runs: seeds.map((s) => arrangeSessions(shufflePerSpeaker(whole, s), 4)) },
  ]);
}

function revive(entries: [string, ConditionSpeech][]): Map<string, ConditionSpeech> {
  const u = (x: EvalUtterance): EvalUtterance => ({ ...x, vector: Float32Array.from(x.vector as unknown as number[]) });
  return new Map(entries.map(([k, c]) => [k, { chunks: c.chunks.map((m) => ({ ...m, whole: u(m.whole), fragments: m.fragments.map(u) })), whole: c.whole.map(u) }]));
}

/**
 * The speech of the session benches and their "off" options (the calibrated decision, cosine merge at mergeTau, short
 * turns by `assignShort`): held out, the LIBRI_HELDOUT and SpeechBrain speakers through stats-lda-v2 as shipped; else
 * the training speakers out of fold (`--features`), cached in `cache` when given.
 */
export async function sessionSpeech(heldOut: boolean, cache: string | null): Promise<{ modelId: string; off: RunOptions; speech: Map<string, ConditionSpeech> }> {
  let out: { modelId: string; off: RunOptions; speech: Map<string, ConditionSpeech> };
  if (heldOut) {
    const lda = new StatsLdaSpeakerEmbedder();
    const t = thresholdsFor(lda.modelId);
    const off = { thresholds: t, mergeTau: t.mergeTau, shortSeconds: SHORT_TURN_MS / 1000, decision: decisionFor(lda.modelId) };
    out = { modelId: lda.modelId, off, speech: await heldOutSpeech(lda) };
  } else {
    const features = await loadSpeakerFeatures(featureKindArg());
    const params = features.loadParams();
    const off = { thresholds: params.thresholds!, mergeTau: params.thresholds!.mergeTau, shortSeconds: SHORT_TURN_MS / 1000, decision: decisionFor(params.modelId) };
    out = { modelId: 'fold', off, speech: await trainingSpeech(features, cache) };
  }
  if (!out.off.decision) throw new Error(`no calibrated decision for ${out.modelId}`);
  return out;
}

/**
 * The scenarios of the session benches (bench/speaker-revise.ts, bench/speaker-absorb.ts) and their "off" options
 * (`sessionSpeech`): meetings from seed + 100 held out, from the seeds themselves on the training speakers.
 */
export async function sessionScenarios(heldOut: boolean, seeds: readonly number[], cache: string | null): Promise<{ modelId: string; off: RunOptions; scen: Scenario[] }> {
  const { modelId, off, speech } = await sessionSpeech(heldOut, cache);
  return { modelId, off, scen: scenarios(speech, seeds, heldOut ? 100 : 0) };
}
