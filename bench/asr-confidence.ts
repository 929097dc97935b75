/**
 * Where to cut doubtful speech out of memory (`PARLEY_MEMORY_MIN_ASR_CONFIDENCE`): each clip (one sentence) goes
 * straight into Parley's recogniser (pocketsphinx, the server's settings) clean and in rooms of falling signal-to-noise
 * ratio (sox reverberation, the phone band, white noise: `bench/lib/far-field.ts`), and its confidence is set against
 * its word error rate. Per threshold: the share of bad utterances (WER > 60 %) it cuts and of good ones (WER ≤ 30 %) it
 * keeps, with 95 % bootstrap intervals over clips; the baseline is no gate (nothing cut, everything kept).
 *
 *   node dist/bench/asr-confidence.js --dev   choose: TTS training voices × sentences 1–6
 *   node dist/bench/asr-confidence.js         report: TTS held-out voices × sentences 7–12 + SpeechBrain's two
 *                                             transcribed clips
 *   --threshold T  also print the row of T (the chosen one) when it is off the grid
 *
 * Needs flite, festival (text2wave) and sox; SpeechBrain's clips are read from PARLEY_SHARED_DATA when there.
 */
import { createStreamingAsr } from '../pipelines/asr/create-streaming-asr.js';
import type { StreamingAsr } from '../pipelines/asr/streaming-asr.js';
import { wordErrors } from '../pipelines/asr/wer.js';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { readWav } from '../pipelines/audio/wav.js';
import { hasTts, sharedDataDir, synthesise, TTS_HELDOUT_VOICES, TTS_SENTENCES, TTS_TRAIN_VOICES, type TtsVoice } from '../pipelines/speaker/eval-corpus.js';
import { bootstrapMean, pct } from './lib/bootstrap.js';
import { argNumber } from './lib/cli.js';
import { degrade, FAR_FIELD, type Degradation } from './lib/far-field.js';

interface Clip { name: string; text: string; samples: Float32Array }
interface Heard { name: string; condition: string; wer: number; confidence: number }

const CHUNK = 1600; // 100 ms, as a client streams
const BAD_WER = 0.6;
const GOOD_WER = 0.3;
const CONDITIONS: [string, Degradation | null][] = [
  ['clean', null], ['room, 15 dB', FAR_FIELD], ['room, 5 dB', { ...FAR_FIELD, snrDb: 5 }],
  ['room, 0 dB', { ...FAR_FIELD, snrDb: 0 }], ['room, -5 dB', { ...FAR_FIELD, snrDb: -5 }],
];

function tts(voices: TtsVoice[], from: number, to: number): Clip[] {
  return voices.flatMap((v) => TTS_SENTENCES.slice(from, to).map((text, i) => ({ name: `${v.id}#${from + i + 1}`, text, samples: synthesise(v, text, from + i) })));
}

/** SpeechBrain's transcribed clips (`transcripts.jsonl`), none when the shared data is absent. */
function speechbrain(): Clip[] {
  const dir = path.join(sharedDataDir(), 'speech', 'speechbrain');
  if (!existsSync(path.join(dir, 'transcripts.jsonl'))) {
    process.stderr.write(`skipping SpeechBrain's clips: ${dir}/transcripts.jsonl not found (set PARLEY_SHARED_DATA)\n`);
    return [];
  }
  return readFileSync(path.join(dir, 'transcripts.jsonl'), 'utf8').split('\n').filter(Boolean).map((line) => {
    const row = JSON.parse(line) as { file: string; text: string };
    return { name: row.file, text: row.text, samples: readWav(path.join(dir, row.file)).samples };
  });
}

async function hear(asr: StreamingAsr, clips: Clip[]): Promise<Heard[]> {
  const out: Heard[] = [];
  for (const [condition, d] of CONDITIONS) {
    for (const [n, c] of clips.entries()) {
      const samples = d ? degrade(c.samples, 1 + n, d) : c.samples;
      const turn = asr.startTurn();
      for (let i = 0; i < samples.length; i += CHUNK) turn.accept(samples.subarray(i, i + CHUNK));
      const f = await turn.finish();
      const e = wordErrors(c.text, f.text);
      out.push({ name: c.name, condition, wer: e.words === 0 ? 0 : e.errors / e.words, confidence: f.confidence });
    }
  }
  return out;
}

function report(title: string, heard: Heard[], extra: number | null): void {
  const bad = heard.filter((h) => h.wer > BAD_WER);
  const good = heard.filter((h) => h.wer <= GOOD_WER);
  console.log(`\n${title}: ${heard.length} utterances, ${bad.length} bad (WER > ${BAD_WER * 100} %), ${good.length} good (WER ≤ ${GOOD_WER * 100} %)`);
  for (const [condition] of CONDITIONS) {
    const rows = heard.filter((h) => h.condition === condition);
    const mean = (f: (h: Heard) => number): string => (rows.reduce((a, h) => a + f(h), 0) / Math.max(1, rows.length)).toFixed(2);
    console.log(`  ${condition.padEnd(12)} mean WER ${mean((h) => h.wer)}, mean confidence ${mean((h) => h.confidence)}`);
  }
  console.log('  threshold | bad cut (95 % CI)        | good kept (95 % CI)');
  console.log(`  none      | ${pct(bootstrapMean(bad.map(() => 0))).padEnd(24)} | ${pct(bootstrapMean(good.map(() => 1)))}   (baseline)`);
  const grid = Array.from({ length: 12 }, (_, i) => Math.round((i + 1) * 5) / 100);
  if (extra !== null && !grid.includes(extra)) grid.push(extra);
  for (const t of grid.sort((a, b) => a - b)) {
    const cut = bootstrapMean(bad.map((h) => (h.confidence < t ? 1 : 0)));
    const kept = bootstrapMean(good.map((h) => (h.confidence >= t ? 1 : 0)));
    console.log(`  ${t.toFixed(2).padEnd(9)} | ${pct(cut).padEnd(24)} | ${pct(kept)}`);
  }
}

async function main(): Promise<void> {
  if (!hasTts()) {
    process.stderr.write('asr-confidence: flite, text2wave or sox missing; skipped\n');
    return;
  }
  const dev = process.argv.includes('--dev');
  const extra = argNumber('threshold', NaN);
  const asr = await createStreamingAsr({ kind: 'pocketsphinx' });
  try {
    // Warm-up turn: pocketsphinx's cepstral mean adapts across turns (see MODELS.md).
    await hear(asr, tts(TTS_TRAIN_VOICES.slice(0, 1), 0, 1).slice(0, 1));
    if (dev) {
      report('DEVELOPMENT: TTS training voices × sentences 1–6', await hear(asr, tts(TTS_TRAIN_VOICES, 0, 6)), Number.isNaN(extra) ? null : extra);
      return;
    }
    const real = speechbrain();
    const clips = [...tts(TTS_HELDOUT_VOICES, 6, 12), ...real];
    report(`REPORT: TTS held-out voices × sentences 7–12 + SpeechBrain (${real.length} transcribed clips)`, await hear(asr, clips), Number.isNaN(extra) ? null : extra);
  } finally {
    await asr.close();
  }
}

await main();
