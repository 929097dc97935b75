/**
 * The first turn of a fresh pocketsphinx decoder against its later turns (issue #17 item 5): word error rate
 * and CPU per turn with `primeFirstTurn` off (Parley before the fix) and on, in the same run, at 16 kHz and
 * through an 8 kHz G.711 μ-law line (Parley's narrowband settings).
 * Each voice reads its sentences as the turns of one stream, twice, in two orders (the second starts half way
 * through), each order on a fresh recogniser, so every voice has two first turns and the rest are later turns.
 *
 *   node dist/bench/asr-first-turn.js --dev     development: eval-corpus.ts's training voices × sentences 1–6
 *   node dist/bench/asr-first-turn.js           report: held-out voices, flite kal (8 kHz voice) × sentences 7–12,
 *                                                and the two SpeechBrain clips with transcripts
 * Run: npm run bench:asr-first-turn
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { NARROWBAND_OPTIONS } from '../pipelines/asr/narrowband.js';
import { PocketsphinxAsr } from '../pipelines/asr/pocketsphinx-asr.js';
import { wordErrors } from '../pipelines/asr/wer.js';
import { readWav } from '../pipelines/audio/wav.js';
import { repoRoot } from '../pipelines/models/repo-root.js';
import { hasTts, synthesise, TTS_HELDOUT_VOICES, TTS_SENTENCES, TTS_TRAIN_VOICES, type TtsVoice } from '../pipelines/speaker/eval-corpus.js';
import { werCi, type ClipErrors } from './lib/wer-bootstrap.js';
import { phoneLine } from './lib/room-audio.js';

interface Clip { text: string; samples: Float32Array }
interface Turn extends ClipErrors { first: boolean; cpuMs: number; hyp: string }

const CHUNK = 1600;
const PAD = new Float32Array(4800); // 0.3 s either side, about what a VAD segment carries
const dev = process.argv.includes('--dev');

if (!hasTts()) {
  console.log('asr-first-turn: skipped, flite / festival / sox are not installed');
  process.exit(0);
}

function padded(x: Float32Array): Float32Array {
  const y = new Float32Array(x.length + 2 * PAD.length);
  y.set(x, PAD.length);
  return y;
}

function streams(): [string, Clip[]][] {
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

/** The clips as the turns of one stream on a fresh recogniser. */
async function runStream(clips: Clip[], prime: boolean, options: Record<string, string>): Promise<Turn[]> {
  const asr = PocketsphinxAsr.load({ kind: 'pocketsphinx', maxDecoders: 1, nameSpotting: false, primeFirstTurn: prime, options });
  const turns: Turn[] = [];
  try {
    for (const [k, c] of clips.entries()) {
      const from = process.cpuUsage();
      const turn = asr.startTurn();
      for (let i = 0; i < c.samples.length; i += CHUNK) turn.accept(c.samples.subarray(i, i + CHUNK));
      const { text } = await turn.finish();
      const d = process.cpuUsage(from);
      turns.push({ ...wordErrors(c.text, text), first: k === 0, cpuMs: (d.user + d.system) / 1000, hyp: text });
    }
  } finally {
    await asr.close();
  }
  return turns;
}

function wer(t: readonly ClipErrors[]): string {
  const ci = werCi(t);
  return `${(100 * ci.mean).toFixed(1)} % [${(100 * ci.lo).toFixed(1)}, ${(100 * ci.hi).toFixed(1)}]`;
}

function cpu(t: readonly Turn[]): string {
  return `${(t.reduce((a, x) => a + x.cpuMs, 0) / Math.max(1, t.length)).toFixed(0)} ms`;
}

const sets = streams();
for (const [band, options] of [['16 kHz', {}], ['8 kHz μ-law', { ...NARROWBAND_OPTIONS }]] as const) {
  const results = { main: [] as Turn[], primed: [] as Turn[] };
  for (const [name, clips0] of sets) {
    const clips = band === '16 kHz' ? clips0 : await Promise.all(clips0.map(async (c) => ({ ...c, samples: await phoneLine(c.samples) })));
    const half = Math.ceil(clips.length / 2);
    for (const order of [clips, [...clips.slice(half), ...clips.slice(0, half)]]) {
      for (const mode of ['main', 'primed'] as const) {
        const turns = await runStream(order, mode === 'primed', options);
        results[mode].push(...turns);
        console.log(`  ${band} ${name} ${mode}: first "${turns[0]?.hyp}" (${turns[0]?.errors}/${turns[0]?.words})`);
      }
    }
  }
  const first = (m: Turn[]): Turn[] => m.filter((t) => t.first);
  const later = (m: Turn[]): Turn[] => m.filter((t) => !t.first);
  const delta = werCi(first(results.main), first(results.primed));
  console.log(`\n${band}, ${dev ? 'development' : 'report'} set (${sets.map(([n]) => n).join(', ')})`);
  console.log(`  first turns (${first(results.main).length}): main ${wer(first(results.main))}, primed ${wer(first(results.primed))}; `
    + `main − primed ${(100 * delta.mean).toFixed(1)} points [${(100 * delta.lo).toFixed(1)}, ${(100 * delta.hi).toFixed(1)}]`);
  console.log(`  later turns (${later(results.main).length}): main ${wer(later(results.main))}, primed ${wer(later(results.primed))}`);
  console.log(`  CPU per first turn: main ${cpu(first(results.main))}, primed ${cpu(first(results.primed))}; per later turn: main ${cpu(later(results.main))}, primed ${cpu(later(results.primed))}\n`);
}
