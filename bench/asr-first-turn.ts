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
import { NARROWBAND_OPTIONS } from '../pipelines/asr/narrowband.js';
import { PocketsphinxAsr } from '../pipelines/asr/pocketsphinx-asr.js';
import { wordErrors } from '../pipelines/asr/wer.js';
import { hasTts } from '../pipelines/speaker/eval-corpus.js';
import { firstTurnStreams, type Clip } from './lib/first-turn-clips.js';
import { werCi, type ClipErrors } from './lib/wer-bootstrap.js';
import { phoneLine } from './lib/room-audio.js';

interface Turn extends ClipErrors { first: boolean; cpuMs: number; hyp: string }

const CHUNK = 1600;
const dev = process.argv.includes('--dev');

if (!hasTts()) {
  console.log('asr-first-turn: skipped, flite / festival / sox are not installed');
  process.exit(0);
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

const sets = firstTurnStreams(dev);
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
