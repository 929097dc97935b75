import type { LabelledUtterance } from '../../pipelines/speaker/eval-corpus.js';
import type { SpeakerEmbedder } from '../../pipelines/speaker/speaker-embedder.js';
import { degrade, FAR_FIELD, PHONE_BAND } from './far-field.js';
import { cutChunks, embedChunks, type MeetingChunk } from './speaker-meeting.js';
import type { EvalUtterance } from './speaker-sessions.js';

/** The training conditions of the speaker calibration scripts (other noise seeds than the benchmarks). */
export const TRAINING_CONDITIONS = { clean: null, phone: PHONE_BAND, 'far-field': FAR_FIELD } as const;

/**
 * The LibriSpeech training speakers' utterances in each training condition, embedded out of fold (each
 * speaker by the embedder of its fold, bench/lib/speaker-folds.ts): as meeting chunks with fragments, and whole.
 */
export async function trainingConditions(
  train: readonly LabelledUtterance[], embedderOf: ReadonlyMap<string, SpeakerEmbedder>,
): Promise<Map<string, { chunks: MeetingChunk[]; whole: EvalUtterance[] }>> {
  const real = train.filter((u) => u.source === 'librispeech');
  const byCondition = new Map<string, { chunks: MeetingChunk[]; whole: EvalUtterance[] }>();
  for (const [name, d] of Object.entries(TRAINING_CONDITIONS)) {
    const us = real.map((u, i) => ({ ...u, audio: d ? degrade(u.audio, 5000 + i, d) : u.audio }));
    const chunks: MeetingChunk[] = [];
    const whole: EvalUtterance[] = [];
    for (const spk of new Set(us.map((u) => u.speaker))) {
      const mine = us.filter((u) => u.speaker === spk);
      const e = embedderOf.get(spk)!;
      chunks.push(...(await embedChunks(e, cutChunks(mine))));
      for (const u of mine) whole.push({ speaker: spk, vector: await e.embed(u.audio), seconds: u.audio.length / 16_000 });
    }
    byCondition.set(name, { chunks, whole });
  }
  return byCondition;
}
