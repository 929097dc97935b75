/**
 * What a voice agent on a phone call feels (issue #17): 8 kHz G.711 μ-law streams (band-limited 300–3400 Hz, 20 ms
 * frames as Twilio sends them) sent at real time over `/v1/stream` to a real Parley server (Silero VAD, the phone
 * recogniser, memory), one session per clip with 0.5 s of silence before and 1.5 s after. Per recogniser, same
 * clips, same order, a fresh server each:
 *  - WER of each clip's finals joined (clips with a reference), with a 95 % bootstrap over clips and the paired
 *    difference against the pocketsphinx baseline;
 *  - the delay from `vad.speech_stopped` to `transcript.final` and to the confirmed `memory.context` of the same
 *    turn (as the client receives them), and from the end of the clip's audio (its last speech) to the final of
 *    its last turn: mean with a 95 % bootstrap over clips, median, p90;
 *  - `transcript.partial` events per turn, and the server process's CPU (every thread: VAD, recogniser, memory)
 *    per second of stream.
 *
 *   node dist/bench/asr-phone.js          report: TTS held-out voices (all four) × sentences 7–12, SpeechBrain's two
 *                                         transcribed clips, LibriSpeech held-out speakers (2 clips each, no
 *                                         reference: delays and CPU only)
 *   node dist/bench/asr-phone.js --dev    development: TTS training voices (unshifted) × sentences 1–6, LibriSpeech
 *                                         training speakers (1 clip each, delays only)
 *   node dist/bench/asr-phone.js --real   the report's real clips alone (a breakdown of the same clips)
 *   --systems=0,2  only those rows (0: the baseline); --limit=N  the first N clips (a smoke run); --lead=S  seconds of
 *                  silence before each clip (default 0.5)
 *
 * Run: npm run bench:asr-phone   (needs `npm run models -- fetch moonshine-tiny`, flite / festival / sox)
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { StreamSession, type ServerEvent } from '../clients/typescript/src/index.js';
import { moonshineInstalled } from '../pipelines/asr/phone-recogniser-choice.js';
import { wordErrors } from '../pipelines/asr/wer.js';
import { readWav } from '../pipelines/audio/wav.js';
import { modelsDir, repoRoot } from '../pipelines/models/repo-root.js';
import { hasTts, LIBRI_HELDOUT, LIBRI_TRAIN, synthesise, TTS_HELDOUT_VOICES, TTS_SENTENCES, TTS_TRAIN_VOICES, type TtsVoice } from '../pipelines/speaker/eval-corpus.js';
import { startTestApp } from '../test/helpers/app.js';
import { bootstrapDelta, bootstrapMean } from './lib/bootstrap.js';
import { librispeechDir, mulawLine, sox } from './lib/room-audio.js';
import { werCi, type ClipErrors } from './lib/wer-bootstrap.js';

interface Clip { name: string; samples: Float32Array; text: string | null }
interface ClipRun { errors: ClipErrors | null; toFinal: number[]; toContext: number[]; endToFinal: number; turns: number; partials: number; hyp: string }
interface SystemRun { name: string; clips: ClipRun[]; cpuMs: number; streamS: number }

const dev = process.argv.includes('--dev');
/** Silence before each clip's speech (`--lead=S`, default 0.5 s): a turn opening on more quiet than the VAD's 300 ms pre-padding is what `PARLEY_MOONSHINE_RETRY_EMPTY` is for. */
const LEAD_S = Number(process.argv.find((a) => a.startsWith('--lead='))?.slice('--lead='.length) ?? 0.5);
if (!(LEAD_S >= 0 && LEAD_S <= 10)) throw new RangeError(`--lead must be seconds from 0 to 10, not ${LEAD_S}`);
const TAIL_S = 1.5;

const SYSTEMS: [string, Record<string, string>][] = [
  ['baseline: pocketsphinx narrowband (PARLEY_ASR_PHONE=pocketsphinx)', { PARLEY_ASR_PHONE: 'pocketsphinx' }],
  ['moonshine-tiny, one decode when the turn ends', { PARLEY_ASR_PHONE: 'moonshine' }],
  ['moonshine-tiny, decode started at each pause (PARLEY_MOONSHINE_PAUSE_DECODE=true)', { PARLEY_ASR_PHONE: 'moonshine', PARLEY_MOONSHINE_PAUSE_DECODE: 'true' }],
  ['moonshine-tiny, partials every 500 ms (PARLEY_MOONSHINE_PARTIAL_MS=500)', { PARLEY_ASR_PHONE: 'moonshine', PARLEY_MOONSHINE_PARTIAL_MS: '500' }],
  ['moonshine-tiny, pause decoding, no second decode of an empty turn (PARLEY_MOONSHINE_RETRY_EMPTY=false)',
    { PARLEY_ASR_PHONE: 'moonshine', PARLEY_MOONSHINE_PAUSE_DECODE: 'true', PARLEY_MOONSHINE_RETRY_EMPTY: 'false' }],
];

function tts(voices: TtsVoice[], from: number, to: number): Clip[] {
  return voices.flatMap((v) => TTS_SENTENCES.slice(from, to).map((text, i) => ({ name: `${v.id}#${from + i}`, text, samples: synthesise(v, text, from + i) })));
}

function speechbrain(): Clip[] {
  const dir = path.resolve(process.env['PARLEY_SHARED_DATA'] ?? path.join(repoRoot(), '../shared/data'), 'speech/speechbrain');
  const file = path.join(dir, 'transcripts.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => {
    const r = JSON.parse(line) as { file: string; text: string };
    return { name: r.file, samples: readWav(path.join(dir, r.file)).samples, text: r.text };
  });
}

function librispeech(speakers: string[], perSpeaker: number): Clip[] {
  const dir = librispeechDir();
  if (!dir) return [];
  return speakers.flatMap((s) => readdirSync(path.join(dir, s)).filter((f) => f.endsWith('.wav')).sort().slice(0, perSpeaker)
    .map((f) => ({ name: `${s}/${f}`, samples: readWav(path.join(dir, s, f)).samples, text: null })));
}

/** One clip as one session at real time; events timed as the client receives them. */
async function streamClip(baseUrl: string, id: string, clip: Clip, line: Buffer): Promise<ClipRun> {
  const session = await StreamSession.open(baseUrl, undefined, { sessionId: id, sampleRate: 8000, encoding: 'mulaw', pacing: 'realtime', frameMs: 20, resume: false });
  const seen: { e: ServerEvent; at: number }[] = [];
  const reading = (async () => { for await (const e of session) seen.push({ e, at: performance.now() }); })().catch(() => undefined);
  const lead = Buffer.alloc(Math.round(LEAD_S * 8000), 0xff);
  const tail = Buffer.alloc(TAIL_S * 8000, 0xff);
  const sentAt = performance.now();
  session.sendAudio(Buffer.concat([lead, line, tail]));
  await session.drained();
  const of = (type: string): { e: ServerEvent; at: number }[] => seen.filter((x) => x.e.type === type);
  // Every turn's final and confirmed context, or 20 s.
  for (let i = 0; i < 200; i++) {
    const stopped = of('vad.speech_stopped').length;
    if (of('transcript.final').length >= stopped && of('memory.context').filter((x) => (x.e as { speculative?: boolean }).speculative === false).length >= stopped) break;
    await sleep(100);
  }
  await session.end({ timeoutMs: 30_000 }).catch(() => undefined);
  await reading;
  const turnOf = (x: { e: ServerEvent }): string => String((x.e as { turn_id?: string }).turn_id);
  const finals = of('transcript.final');
  const toFinal: number[] = [];
  const toContext: number[] = [];
  for (const s of of('vad.speech_stopped')) {
    const f = finals.find((x) => turnOf(x) === turnOf(s));
    if (f) toFinal.push(f.at - s.at);
    const c = of('memory.context').find((x) => turnOf(x) === turnOf(s) && (x.e as { speculative?: boolean }).speculative === false);
    if (c) toContext.push(c.at - s.at);
  }
  const hyp = finals.map((x) => String((x.e as { text?: string }).text ?? '')).join(' ');
  const speechEnd = sentAt + 1000 * (LEAD_S + line.length / 8000);
  return {
    errors: clip.text === null ? null : wordErrors(clip.text, hyp), toFinal, toContext,
    endToFinal: finals.length > 0 ? finals.at(-1)!.at - speechEnd : Number.NaN,
    turns: of('vad.speech_stopped').length, partials: of('transcript.partial').length, hyp,
  };
}

async function runSystem(name: string, env: Record<string, string>, clips: Clip[], lines: Buffer[]): Promise<SystemRun> {
  const t = await startTestApp({ MODELS_DIR: modelsDir(), PARLEY_INFERENCE_WORKERS: '1', PARLEY_AUDIO_MAX_QUEUED_MS: '600000', ...env });
  await t.app.models.inference();
  // Warm-up session (onnxruntime's first runs allocate; pocketsphinx adapts its cepstral mean per stream anyway).
  await streamClip(t.httpUrl, 'warm-up', clips[0]!, lines[0]!);
  const run: SystemRun = { name, clips: [], cpuMs: 0, streamS: 0 };
  for (const [i, clip] of clips.entries()) {
    const c0 = process.cpuUsage();
    run.clips.push(await streamClip(t.httpUrl, `phone-${i}`, clip, lines[i]!));
    const d = process.cpuUsage(c0);
    run.cpuMs += (d.user + d.system) / 1000;
    run.streamS += LEAD_S + lines[i]!.length / 8000 + TAIL_S;
  }
  await t.close();
  return run;
}

const mean = (xs: number[]): number => (xs.length === 0 ? Number.NaN : xs.reduce((a, b) => a + b, 0) / xs.length);
const quantile = (xs: number[], q: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? Number.NaN;
const ms = (ci: { mean: number; lo: number; hi: number }, signed = false): string =>
  `${signed && ci.mean >= 0 ? '+' : ''}${ci.mean.toFixed(0)} [${ci.lo.toFixed(0)}, ${ci.hi.toFixed(0)}]`;
const pctCi = (ci: { mean: number; lo: number; hi: number }, signed = false): string =>
  `${signed && ci.mean >= 0 ? '+' : ''}${(100 * ci.mean).toFixed(1)} [${(100 * ci.lo).toFixed(1)}, ${(100 * ci.hi).toFixed(1)}]`;

/** Per-clip mean of a per-turn delay (clips without a turn left out, the same ones for every system). */
function perClip(run: SystemRun, key: 'toFinal' | 'toContext', keep: boolean[]): number[] {
  return run.clips.filter((_, i) => keep[i]).map((c) => mean(c[key]));
}

function report(setName: string, runs: SystemRun[]): void {
  const base = runs[0]!;
  const keep = base.clips.map((_, i) => runs.every((r) => r.clips[i]!.toFinal.length > 0 && r.clips[i]!.toContext.length > 0 && Number.isFinite(r.clips[i]!.endToFinal)));
  const withText = base.clips.map((c) => c.errors !== null);
  console.log(`\n${setName}: ${base.clips.length} clips (${withText.filter(Boolean).length} with a reference; delays over the ${keep.filter(Boolean).length} where every system had a final and a context for every turn)`);
  console.log('| recogniser | turns | partials | errors / words | WER % | ΔWER vs baseline (points) | speech_stopped → final, ms: mean [95 % CI] / median / p90 | Δ vs baseline | speech_stopped → memory.context | Δ vs baseline | end of audio → last final | CPU ms per s of stream |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of runs) {
    const errs = r.clips.filter((_, i) => withText[i]).map((c) => c.errors!);
    const baseErrs = base.clips.filter((_, i) => withText[i]).map((c) => c.errors!);
    const e = errs.reduce((n, x) => n + x.errors, 0), w = errs.reduce((n, x) => n + x.words, 0);
    const f = perClip(r, 'toFinal', keep), fb = perClip(base, 'toFinal', keep);
    const m = perClip(r, 'toContext', keep), mb = perClip(base, 'toContext', keep);
    const allF = r.clips.filter((_, i) => keep[i]).flatMap((c) => c.toFinal);
    const allM = r.clips.filter((_, i) => keep[i]).flatMap((c) => c.toContext);
    const end = r.clips.filter((_, i) => keep[i]).map((c) => c.endToFinal);
    const isBase = r === base;
    console.log(`| ${r.name} | ${r.clips.reduce((n, c) => n + c.turns, 0)} | ${r.clips.reduce((n, c) => n + c.partials, 0)} | ${w > 0 ? `${e}/${w}` : 'n/a'} | ${w > 0 ? pctCi(werCi(errs)) : 'n/a'} | ${isBase ? '(baseline)' : w > 0 ? pctCi(werCi(errs, baseErrs), true) : 'n/a'} `
      + `| ${ms(bootstrapMean(f))} / ${quantile(allF, 0.5).toFixed(0)} / ${quantile(allF, 0.9).toFixed(0)} | ${isBase ? '(baseline)' : ms(bootstrapDelta(f, fb), true)} `
      + `| ${ms(bootstrapMean(m))} / ${quantile(allM, 0.5).toFixed(0)} / ${quantile(allM, 0.9).toFixed(0)} | ${isBase ? '(baseline)' : ms(bootstrapDelta(m, mb), true)} `
      + `| ${ms(bootstrapMean(end))} / ${quantile(end, 0.5).toFixed(0)} | ${(r.cpuMs / r.streamS).toFixed(0)} |`);
  }
  // Pause decoding against one decode at the end of the turn: the choice this bench is for.
  const one = runs.find((r) => r.name.includes('one decode'));
  const pause = runs.find((r) => r.name.includes('PAUSE_DECODE'));
  if (one && pause) {
    const errsOf = (r: SystemRun): ClipErrors[] => r.clips.filter((_, i) => withText[i]).map((c) => c.errors!);
    const dWer = withText.some(Boolean) ? `WER ${pctCi(werCi(errsOf(pause), errsOf(one)), true)} points; ` : '';
    console.log(`pause decoding − one decode, paired over clips: ${dWer}speech_stopped → final ${ms(bootstrapDelta(perClip(pause, 'toFinal', keep), perClip(one, 'toFinal', keep)), true)} ms; `
      + `→ memory.context ${ms(bootstrapDelta(perClip(pause, 'toContext', keep), perClip(one, 'toContext', keep)), true)} ms; CPU ${((pause.cpuMs / pause.streamS) - (one.cpuMs / one.streamS)).toFixed(0)} ms per s`);
  }
  for (const r of runs) {
    const c = r.clips.find((x) => x.errors !== null);
    if (c) console.log(`- ${r.name}: "${c.hyp}"`);
  }
}

async function main(): Promise<void> {
  if (!moonshineInstalled(modelsDir(), 'moonshine-tiny')) {
    console.log(`asr-phone: skipped, ${modelsDir()}/moonshine-tiny absent (npm run models -- fetch moonshine-tiny)`);
    return;
  }
  if (!hasTts()) {
    console.log('asr-phone: skipped, flite / festival / sox are not installed');
    return;
  }
  const sets: [string, Clip[]][] = dev
    ? [['DEVELOPMENT: TTS training voices (unshifted) × sentences 1–6 + LibriSpeech training speakers (1 clip each)',
      [...tts(TTS_TRAIN_VOICES.filter((v) => v.shiftCents === 0), 0, 6), ...librispeech(LIBRI_TRAIN, 1)]]]
    : process.argv.includes('--real')
      ? [['REPORT, real speech only: SpeechBrain (2 transcribed clips) + LibriSpeech held-out speakers (2 clips each)',
        [...speechbrain(), ...librispeech(LIBRI_HELDOUT, 2)]]]
      : [['REPORT: TTS held-out voices × sentences 7–12 + SpeechBrain (2 transcribed clips) + LibriSpeech held-out speakers (2 clips each)',
        [...tts(TTS_HELDOUT_VOICES, 6, 12), ...speechbrain(), ...librispeech(LIBRI_HELDOUT, 2)]]];
  const only = process.argv.find((a) => a.startsWith('--systems='))?.slice('--systems='.length).split(',').map(Number);
  const limit = Number(process.argv.find((a) => a.startsWith('--limit='))?.slice('--limit='.length) ?? Infinity);
  for (const [setName, all] of sets) {
    const clips = all.slice(0, limit);
    const lines = clips.map((c) => mulawLine(sox(c.samples, ['highpass', '300', 'lowpass', '3400'])));
    const runs: SystemRun[] = [];
    for (const [i, [name, env]] of SYSTEMS.entries()) {
      if (only && !only.includes(i)) continue;
      const w0 = performance.now();
      runs.push(await runSystem(name, env, clips, lines));
      console.error(`${name}: ${((performance.now() - w0) / 1000).toFixed(0)} s`);
    }
    report(setName, runs);
  }
}

await main();
