/**
 * Recognition through an 8 kHz G.711 μ-law line (issue #17 part 5): pocketsphinx settings for phone audio
 * that Parley upsamples to 16 kHz, against Parley's wideband settings and pocketsphinx's own defaults, with
 * WER and CPU in the same run. Speech with known text: TTS voices (flite / festival) reading
 * eval-corpus.ts's sentences, and the two SpeechBrain clips with transcripts.
 *
 *   node dist/bench/asr-narrowband.js --dev     settings are chosen here: TTS_TRAIN_VOICES × sentences 1–6
 *   node dist/bench/asr-narrowband.js           report: TTS_HELDOUT_VOICES × sentences 7–12, SpeechBrain
 *
 * Phone line: highpass 300, lowpass 3400, 8 kHz, μ-law, Parley's own decoder back to 16 kHz (bench/lib/room-audio.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { NARROWBAND_OPTIONS } from '../pipelines/asr/narrowband.js';
import { POCKETSPHINX_LIBRARY_OPTIONS, PocketsphinxAsr } from '../pipelines/asr/pocketsphinx-asr.js';
import { wordErrors } from '../pipelines/asr/wer.js';
import { readWav } from '../pipelines/audio/wav.js';
import { repoRoot } from '../pipelines/models/repo-root.js';
import { hasTts, synthesise, TTS_HELDOUT_VOICES, TTS_SENTENCES, TTS_TRAIN_VOICES } from '../pipelines/speaker/eval-corpus.js';
import { phoneLine, sox } from './lib/room-audio.js';

interface Clip { name: string; samples: Float32Array; text: string }
const CHUNK = 1600;
const dev = process.argv.includes('--dev');

if (!hasTts()) {
  console.log('asr-narrowband: skipped, flite / festival / sox are not installed');
  process.exit(0);
}
const voices = (dev ? TTS_TRAIN_VOICES : TTS_HELDOUT_VOICES).filter((v) => v.shiftCents === 0);
const sentences = dev ? TTS_SENTENCES.slice(0, 6) : TTS_SENTENCES.slice(6);
const tts: Clip[] = voices.flatMap((v) => sentences.map((text, i) => ({ name: `${v.id}#${i}`, text, samples: synthesise(v, text, (dev ? 0 : 6) + i) })));
const sets: [string, Clip[]][] = [[`TTS ${dev ? 'training' : 'held-out'} voices (${voices.map((v) => v.id).join(', ')})`, tts]];
if (!dev) {
  const dir = path.resolve(process.env['PARLEY_SHARED_DATA'] ?? path.join(repoRoot(), '../shared/data'), 'speech/speechbrain');
  if (existsSync(path.join(dir, 'transcripts.jsonl'))) {
    sets.push(['real (SpeechBrain, 2 clips)', readFileSync(path.join(dir, 'transcripts.jsonl'), 'utf8').split('\n').filter(Boolean).map((line) => {
      const row = JSON.parse(line) as { file: string; text: string };
      return { name: row.file, samples: readWav(path.join(dir, row.file)).samples, text: row.text };
    })]);
  } else console.log('(SpeechBrain transcripts absent: real set skipped)');
}

/** Settings compared; `NARROWBAND_OPTIONS` is what Parley applies to 8 kHz sessions. */
const settings: [string, Record<string, string>][] = [
  ['Parley wideband (-ds 2 -maxhmmpf 3000)', {}],
  ['pocketsphinx defaults (-ds 1 -maxhmmpf 30000)', { ...POCKETSPHINX_LIBRARY_OPTIONS }],
  [`Parley narrowband (${Object.entries(NARROWBAND_OPTIONS).flat().join(' ')})`, { ...NARROWBAND_OPTIONS }],
];
for (const arg of process.argv.filter((a) => a.startsWith('--try='))) {
  const opts = Object.fromEntries(arg.slice(6).split(',').map((kv) => kv.split('=') as [string, string]));
  settings.push([`try ${arg.slice(6)}`, opts]);
}

console.log(`${dev ? 'DEVELOPMENT' : 'HELD-OUT'} set; CPU = process CPU (user + system) per second of audio, whole clip per turn, 100 ms chunks`);
console.log('| set | line | settings | word errors / words | WER % | CPU ms per s of audio |');
console.log('|---|---|---|---|---|---|');
for (const [setName, clean] of sets) {
  const phone = await Promise.all(clean.map(async (c) => ({ ...c, samples: await phoneLine(sox(c.samples, ['highpass', '300', 'lowpass', '3400'])) })));
  for (const [line, clips] of [['16 kHz', clean], ['8 kHz μ-law', phone]] as const) {
    // At 16 kHz only the two wideband references (narrowband settings never see wideband audio);
    // `--tries-only`: only the --try settings, at 8 kHz (development).
    const rows = process.argv.includes('--tries-only') ? (line === '16 kHz' ? [] : settings.slice(3)) : line === '16 kHz' ? settings.slice(0, 2) : settings;
    for (const [name, options] of rows) {
      const asr = PocketsphinxAsr.load({ kind: 'pocketsphinx', options });
      let errors = 0, words = 0, cpu = 0, audio = 0;
      for (const c of clips) {
        const t0 = process.cpuUsage();
        const turn = asr.startTurn();
        for (let i = 0; i < c.samples.length; i += CHUNK) turn.accept(c.samples.subarray(i, i + CHUNK));
        const f = await turn.finish();
        const d = process.cpuUsage(t0);
        const e = wordErrors(c.text, f.text);
        errors += e.errors; words += e.words; cpu += (d.user + d.system) / 1000; audio += c.samples.length / 16_000;
      }
      await asr.close();
      console.log(`| ${setName} | ${line} | ${name} | ${errors}/${words} | ${((100 * errors) / words).toFixed(1)} | ${(cpu / audio).toFixed(0)} |`);
    }
  }
}
