import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { readWav } from '../../pipelines/audio/wav.js';
import { repoRoot } from '../../pipelines/models/repo-root.js';
import { synthesise, TTS_HELDOUT_VOICES, TTS_SENTENCES, TTS_TRAIN_VOICES, type TtsVoice } from '../../pipelines/speaker/eval-corpus.js';

/** One turn's audio and its reference text. */
export interface Clip { text: string; samples: Float32Array }

const PAD = 4800; // 0.3 s of silence either side, about what a VAD segment carries

function padded(x: Float32Array): Float32Array {
  const y = new Float32Array(x.length + 2 * PAD);
  y.set(x, PAD);
  return y;
}

/**
 * The first-turn benches' streams, each a voice reading sentences as its turns. Development: eval-corpus.ts's
 * training voices × sentences 1–6; report: its held-out voices and flite kal (8 kHz voice) × sentences 7–12,
 * and the two SpeechBrain clips with transcripts (from `PARLEY_SHARED_DATA`, when present).
 */
export function firstTurnStreams(dev: boolean): [string, Clip[]][] {
  const kal: TtsVoice = { id: 'flite-kal', engine: 'flite', voice: 'kal', shiftCents: 0 };
  const voices = dev ? TTS_TRAIN_VOICES.filter((v) => v.shiftCents === 0) : [...TTS_HELDOUT_VOICES.filter((v) => v.shiftCents === 0), kal];
  const sentences = dev ? TTS_SENTENCES.slice(0, 6) : TTS_SENTENCES.slice(6);
  const out: [string, Clip[]][] = voices.map((v) => [v.id, sentences.map((text, i) => ({ text, samples: padded(synthesise(v, text, (dev ? 0 : 6) + i)) }))]);
  const dir = path.resolve(process.env['PARLEY_SHARED_DATA'] ?? path.join(repoRoot(), '../shared/data'), 'speech/speechbrain');
  if (!dev && existsSync(path.join(dir, 'transcripts.jsonl'))) {
    out.push(['speechbrain', readFileSync(path.join(dir, 'transcripts.jsonl'), 'utf8').split('\n').filter(Boolean).map((line) => {
      const row = JSON.parse(line) as { file: string; text: string };
      return { text: row.text, samples: padded(readWav(path.join(dir, row.file)).samples) };
    })]);
  }
  return out;
}
