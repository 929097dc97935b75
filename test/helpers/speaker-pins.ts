import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../pipelines/models/repo-root.js';
import { readWavPcm16, synthesise, TTS_SENTENCES, TTS_TRAIN_VOICES } from '../../pipelines/speaker/eval-corpus.js';
import { segments } from '../../pipelines/speaker/eval-metrics.js';
import { fitLda, type LabelledVector } from '../../pipelines/speaker/lda-trainer.js';
import type { ProjectionBackEnd } from '../../pipelines/speaker/projection-back-end.js';
import { fitProjection } from '../../bench/lib/speaker-folds.js';
import { utteranceStats } from '../../pipelines/speaker/stats-features.js';

/**
 * Small fixed inputs of the speaker parameter fit (scripts/train-speaker-embedder.ts and the
 * calibration scripts) whose outputs are pinned in test/fixtures/speaker-pins.json, so a change of the
 * feature pipeline, the LDA trainer or the synthesised training voices shows in a unit test instead of
 * as shipped parameters that their scripts no longer reproduce (issue #17 item 2).
 */
export interface SpeakerPins {
  /** utteranceStats of each committed fixture clip (test/fixtures/audio), by file name. */
  fixtureStats: Record<string, number[]>;
  /** Eigenvalues of an LDA (3 dims, shrinkage 0.1) fitted on the fixture clips and their 3 s segments, labelled by clip. */
  fixtureLdaEigenvalues: number[];
  /**
   * The back end `scripts/train-speaker-embedder.ts` writes (bench/lib/speaker-folds.ts fitProjection) for the same
   * samples with that LDA, whitened on all clips (absent from pins written before back ends existed).
   */
  fixtureBackEnd: ProjectionBackEnd;
  /** utteranceStats of the first sentence of each pitch-shifted training voice, as synthesised (flite / festival + sox). */
  ttsStats: Record<string, number[]>;
}

export const SPEAKER_PINS_FILE = path.join(repoRoot(), 'test', 'fixtures', 'speaker-pins.json');
/** The back end pinned on the fixture clips (the kind that exercises centre and whitening both). */
export const FIXTURE_BACK_END = { kind: 'whitened', centredOn: 'all' } as const;
const FIXTURE_CLIPS = ['awb.wav', 'festival-kal.wav', 'festival-slt.wav', 'kal16.wav', 'rms.wav', 'slt.wav'];
/** The training voices whose clips sox pitch-shifts (and dithers: the step that was not repeatable). */
export const SHIFTED_TRAIN_VOICES = TTS_TRAIN_VOICES.filter((v) => v.shiftCents !== 0);

function stats(audio: Float32Array, what: string): number[] {
  const x = utteranceStats(audio);
  if (!x) throw new Error(`${what}: too little speech for utteranceStats`);
  return Array.from(x);
}

/** The pinned outputs that need no external tool: features and a tiny LDA fit of the committed clips. */
export function fixturePins(): Pick<SpeakerPins, 'fixtureStats' | 'fixtureLdaEigenvalues' | 'fixtureBackEnd'> {
  const dir = path.join(repoRoot(), 'test', 'fixtures', 'audio');
  const fixtureStats: Record<string, number[]> = {};
  const samples: LabelledVector[] = [];
  for (const f of FIXTURE_CLIPS) {
    const audio = readWavPcm16(path.join(dir, f)).audio;
    fixtureStats[f] = stats(audio, f);
    for (const seg of [audio, ...segments(audio, 3, 1.5)]) {
      const x = utteranceStats(seg);
      if (x) samples.push({ label: f, x });
    }
  }
  const { backEnd } = fitProjection(samples, 3, 0.1, FIXTURE_BACK_END);
  return { fixtureStats, fixtureLdaEigenvalues: fitLda(samples, 3, 0.1).eigenvalues, fixtureBackEnd: backEnd! };
}

/** The pinned features of synthesised pitch-shifted training clips (needs flite, festival and sox). */
export function ttsPins(): SpeakerPins['ttsStats'] {
  return Object.fromEntries(SHIFTED_TRAIN_VOICES.map((v) => [v.id, stats(synthesise(v, TTS_SENTENCES[0]!, 0), v.id)]));
}

export function readSpeakerPins(): SpeakerPins {
  return JSON.parse(readFileSync(SPEAKER_PINS_FILE, 'utf8')) as SpeakerPins;
}
