/**
 * ASR accuracy and speed: word error rate and real-time factor per backend available here, on the
 * fixtures (test/fixtures/audio) and on ../shared/data/speech/speechbrain (files with transcripts).
 * "ASR only" feeds the true utterance spans ±300 ms (fixtures) or whole clips (speechbrain) without VAD;
 * "VAD + ASR" runs whole files through Silero end-of-turn detection and the recogniser.
 * Baseline in the same run: the pocketsphinx_continuous CLI (same model, its own segmentation).
 * Run: node dist/bench/asr-wer.js
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createStreamingAsr } from '../pipelines/asr/create-streaming-asr.js';
import { POCKETSPHINX_LIBRARY_OPTIONS } from '../pipelines/asr/pocketsphinx-asr.js';
import type { AsrBackendConfig, StreamingAsr } from '../pipelines/asr/streaming-asr.js';
import { wordErrorRate } from '../pipelines/asr/wer.js';
import type { AudioSessionEvent } from '../pipelines/audio/audio-events.js';
import { fixtureSamples, loadAudioFixtures } from '../pipelines/audio/fixtures.js';
import { SileroVadModel } from '../pipelines/audio/silero-vad-model.js';
import { SpeechPipeline } from '../pipelines/audio/speech-pipeline.js';
import { readWav } from '../pipelines/audio/wav.js';
import { modelsDir, repoRoot } from '../pipelines/models/repo-root.js';

interface Clip { name: string; samples: Float32Array; text: string }
interface Row { backend: string; set: string; mode: string; wer: number; rtf: number; audioS: number }

const CHUNK = 1600; // 100 ms

function clips(): { fixtures: Clip[]; fixtureFiles: Clip[]; speechbrain: Clip[] } {
  const fx = loadAudioFixtures();
  const fixtures: Clip[] = [];
  const fixtureFiles: Clip[] = [];
  for (const f of fx) {
    const s = fixtureSamples(f);
    fixtureFiles.push({ name: f.file, samples: s, text: f.utterances.map((u) => u.text).join(' ') });
    for (const u of f.utterances) {
      fixtures.push({ name: f.file, text: u.text, samples: s.subarray(Math.max(0, (u.start_ms - 300) * 16), (u.end_ms + 300) * 16) });
    }
  }
  const sbDir = path.resolve(process.env['PARLEY_SHARED_DATA'] ?? path.join(repoRoot(), '../shared/data'), 'speech/speechbrain');
  const speechbrain: Clip[] = [];
  if (existsSync(path.join(sbDir, 'transcripts.jsonl'))) {
    for (const line of readFileSync(path.join(sbDir, 'transcripts.jsonl'), 'utf8').split('\n').filter(Boolean)) {
      const row = JSON.parse(line) as { file: string; text: string };
      const wav = readWav(path.join(sbDir, row.file));
      if (wav.sampleRate !== 16000) throw new Error(`${row.file}: expected 16 kHz`);
      speechbrain.push({ name: row.file, samples: wav.samples, text: row.text });
    }
  } else {
    process.stderr.write(`skipping speechbrain set: ${sbDir} not found\n`);
  }
  return { fixtures, fixtureFiles, speechbrain };
}

async function asrOnly(asr: StreamingAsr, set: Clip[]): Promise<{ wer: number; rtf: number; audioS: number }> {
  const pairs: { reference: string; hypothesis: string }[] = [];
  let computeMs = 0, audioS = 0;
  for (const c of set) {
    const t0 = performance.now();
    const turn = asr.startTurn();
    for (let i = 0; i < c.samples.length; i += CHUNK) turn.accept(c.samples.subarray(i, i + CHUNK));
    const r = await turn.finish();
    computeMs += performance.now() - t0;
    audioS += c.samples.length / 16000;
    pairs.push({ reference: c.text, hypothesis: r.text });
  }
  return { wer: wordErrorRate(pairs), rtf: computeMs / 1000 / audioS, audioS };
}

async function fullPipeline(vad: SileroVadModel, asr: StreamingAsr, set: Clip[]): Promise<{ wer: number; rtf: number; audioS: number }> {
  const pairs: { reference: string; hypothesis: string }[] = [];
  let computeMs = 0, audioS = 0;
  for (const c of set) {
    const finals: string[] = [];
    const t0 = performance.now();
    const p = new SpeechPipeline(vad, asr, (e: AudioSessionEvent) => { if (e.type === 'final') finals.push(e.text); });
    for (let i = 0; i < c.samples.length; i += CHUNK) await p.process(c.samples.subarray(i, i + CHUNK), i);
    p.commit();
    // Finals resolve on promise jobs (network backends take longer): wait until every stopped turn has one.
    await new Promise((r) => setImmediate(r));
    computeMs += performance.now() - t0;
    audioS += c.samples.length / 16000;
    pairs.push({ reference: c.text, hypothesis: finals.join(' ') });
  }
  return { wer: wordErrorRate(pairs), rtf: computeMs / 1000 / audioS, audioS };
}

function cliBaseline(set: Clip[], files: string[]): { wer: number; rtf: number; audioS: number } {
  const pairs: { reference: string; hypothesis: string }[] = [];
  let ms = 0, audioS = 0;
  set.forEach((c, i) => {
    const t0 = performance.now();
    const out = execFileSync('pocketsphinx_continuous', ['-infile', files[i] ?? '', '-logfn', '/dev/null'], { encoding: 'utf8' });
    ms += performance.now() - t0;
    audioS += c.samples.length / 16000;
    pairs.push({ reference: c.text, hypothesis: out.replace(/\s+/g, ' ') });
  });
  return { wer: wordErrorRate(pairs), rtf: ms / 1000 / audioS, audioS };
}

async function main(): Promise<void> {
  const { fixtures, fixtureFiles, speechbrain } = clips();
  // Parley's pocketsphinx settings, and the library's own as a baseline in the same run.
  const backends: (AsrBackendConfig & { label?: string })[] = [
    { kind: 'pocketsphinx' },
    { kind: 'pocketsphinx', options: POCKETSPHINX_LIBRARY_OPTIONS, label: 'baseline: pocketsphinx, library defaults' },
  ];
  if (existsSync(path.join(modelsDir(), 'sherpa-zipformer-en', 'encoder.int8.onnx'))) backends.push({ kind: 'sherpa-onnx' });
  else process.stderr.write('sherpa-onnx: model not installed (npm run models -- fetch sherpa-zipformer-en); skipped\n');
  if (process.env['OPENAI_API_KEY']) backends.push({ kind: 'openai' });
  else process.stderr.write('openai: OPENAI_API_KEY not set; skipped\n');
  const vad = await SileroVadModel.load();
  const rows: Row[] = [];
  for (const cfg of backends) {
    const asr = await createStreamingAsr(cfg);
    // Warm-up turn: pocketsphinx's cepstral mean adapts across turns (see MODELS.md).
    await asrOnly(asr, fixtures.slice(0, 1));
    const sets: [string, Clip[], Clip[]][] = [['fixtures', fixtures, fixtureFiles], ['speechbrain', speechbrain, speechbrain]];
    for (const [set, spans, files] of sets) {
      if (spans.length === 0) continue;
      const backend = cfg.label ?? cfg.kind;
      rows.push({ backend, set, mode: 'ASR only (no VAD)', ...(await asrOnly(asr, spans)) });
      rows.push({ backend, set, mode: 'VAD + ASR, whole files', ...(await fullPipeline(vad, asr, files)) });
    }
    await asr.close();
  }
  const fxDir = path.join(repoRoot(), 'test/fixtures/audio');
  rows.push({ backend: 'baseline: pocketsphinx_continuous CLI', set: 'fixtures', mode: 'whole files',
    ...cliBaseline(fixtureFiles, fixtureFiles.map((f) => path.join(fxDir, f.name))) });
  await vad.close();
  console.log('| backend | set | mode | audio s | WER % | real-time factor |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.backend} | ${r.set} | ${r.mode} | ${r.audioS.toFixed(1)} | ${(r.wer * 100).toFixed(1)} | ${r.rtf.toFixed(3)} |`);
}

await main();
