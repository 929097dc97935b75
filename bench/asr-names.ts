/**
 * Names the recogniser can hear (issue #17 parts 4–5): pocketsphinx with and without the name-spotting
 * pass (pipelines/asr/name-spotting.ts) on the scripted naming set spoken by TTS voices, each line with a
 * tenant name list of 10 (the speaker's own name, when the line gives one, and 9 others from the set).
 * The spotting threshold and the phone distance are chosen on the development lines (naming-set `dev` +
 * `seen`); the held-out lines are then decoded once with and without spotting in the same run, and so are
 * real speech (SpeechBrain clips with transcripts, LibriSpeech test-other clips without: there, every
 * word spotting changes is listed) and the flite fixtures. Figures: name-word recognition (the spoken
 * name appears in the transcript), naming precision / recall (detectSelfIntroduction on the transcript,
 * as bench/naming.ts), false names (a tenant name in the transcript that was not said), WER, and CPU ms
 * per second of audio (process user + system). Spread: 95 % bootstrap intervals over lines, paired.
 *
 *   npm run bench:asr-names   (--dev-only: stop after choosing; --report-only: skip choosing, report the
 *   shipped NAME_SPOTTING_DEFAULTS; --libri=N clips per speaker, default 2)
 *
 * `--lts`: letter-to-sound (festival pronunciations for names cmudict lacks) with the shipped defaults,
 * against spotting without it and the first pass, same run: the held-out lines and `unknownNames`, tenant
 * lists drawn from all their names (so both sets hear unsaid names cmudict lacks), then real speech and
 * fixtures with 5 cmudict names and 5 it lacks. Names are looked up (prepareNames) before decoding, as
 * a stream's names are when it opens.
 *
 * `--gate-grid`: the function-word gate (`functionWordThreshold`, `functionWordContractions`) evaluated offline
 * from one decode of the development lines at the shipped threshold and distance (with `--phone` too).
 *
 * `--moonshine`: the held-out lines on Moonshine tiny / base (no name favouring: it has no vocabulary hook)
 * against pocketsphinx without and with spotting at the shipped defaults, same run (with `--phone` too).
 *
 * `--moonshine-match`: Moonshine with the tenant's names favoured after decoding (pipelines/asr/known-names.ts).
 * The development lines are decoded once with names; every setting of the matcher (phone distance, evidence,
 * other first names kept) re-runs offline on Moonshine's own text (`AsrFinal.knownNames.heard`), scored
 * against that text without the hook. The held-out lines, the names cmudict lacks, and real speech and the
 * fixtures are then decoded once each with the chosen setting, the baseline being the same decodes' text
 * without the hook (decoding is deterministic, and the hook only rewrites the text). `--model=moonshine-base`
 * for the larger model; with `--phone` too.
 *
 * `--phone`: the same lines as a phone call hears them (300–3400 Hz, 8 kHz G.711 μ-law, decoded by Parley's
 * stream decoder back to 16 kHz), on the narrowband recogniser an 8 kHz stream gets (NARROWBAND_OPTIONS),
 * with and without spotting at the shipped defaults: nothing is chosen, so every set is reported (the
 * development lines, the held-out lines, real speech and fixtures, all through the phone line).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { correctNames, plainWord } from '../pipelines/asr/name-spotting.js';
import { NARROWBAND_OPTIONS } from '../pipelines/asr/narrowband.js';
import { NAME_SPOTTING_DEFAULTS, TOLERANCE_FRAMES } from '../pipelines/asr/pocketsphinx-name-spotter.js';
import { PocketsphinxAsr } from '../pipelines/asr/pocketsphinx-asr.js';
import type { AsrFinal, PocketsphinxAsrConfig, StreamingAsr } from '../pipelines/asr/streaming-asr.js';
import { MoonshineAsr } from '../pipelines/asr/moonshine-asr.js';
import { favourKnownNames, KNOWN_NAME_DEFAULTS, type KnownNameOptions, type NameEvidence } from '../pipelines/asr/known-names.js';
import { asrText } from '../pipelines/asr/llama-vocabulary.js';
import { normaliseForWer, wordErrors } from '../pipelines/asr/wer.js';
import { fixtureSamples, loadAudioFixtures } from '../pipelines/audio/fixtures.js';
import { readWav } from '../pipelines/audio/wav.js';
import { modelsDir, repoRoot } from '../pipelines/models/repo-root.js';
import { detectSelfIntroduction } from '../pipelines/speaker/name-patterns.js';
import { pronunciations } from '../pipelines/speaker/phonetic.js';
import { bootstrapDelta, bootstrapMean, pct } from './lib/bootstrap.js';
import { phoneLine, sox, synth } from './lib/room-audio.js';
import { seededRandom } from './lib/seeded-random.js';
import { dev as firstDev, heldOut as heldOutLines, seen, unknownNames, type NamingLine } from './naming-set.js';
import { requireDataOrSkip } from './lib/cli.js';

interface Clip { text: string | null; samples: Float32Array; names: string[]; expect: string | null; name: string }
interface Decoded { clip: Clip; final: AsrFinal; cpuMs: number }

const CHUNK = 1600;
/** Settings as JSON, ±Infinity written out (JSON would print null). */
const show = (o: object): string => JSON.stringify(o, (_, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v));
const VOICES = ['flite:awb', 'flite:rms', 'flite:slt', 'flite:kal16', 'festival:kal_diphone'];
const arg = (k: string): string | undefined => process.argv.find((a) => a.startsWith(`--${k}=`))?.split('=')[1];

/** Lines a speaker can say as written: not the text-only lines that simulate a misheard name. */
const speakable = (l: NamingLine): boolean => !(l.known && l.expect && !l.text.split(' ').includes(l.expect));
const POOL = [...new Set([...firstDev, ...seen, ...heldOutLines].flatMap((l) => (l.expect ? [l.expect] : [])))].sort();

/** The tenant's names for a line: the speaker's own (if any) and others not said in it, 10 in all. */
const UNKNOWN = unknownNames.flatMap((l) => (l.expect ? [l.expect] : [])).sort();

function tenantNames(line: NamingLine, seed: number, pool: readonly string[] = POOL): string[] {
  const rng = seededRandom(seed);
  const said = new Set(line.text.split(' '));
  const others = pool.filter((n) => n !== line.expect && !said.has(n));
  const names = line.expect ? [line.expect] : [];
  while (names.length < 10) {
    const n = others.splice(Math.floor(rng() * others.length), 1)[0];
    if (!n) break;
    names.push(n);
  }
  return names;
}


function scripted(dir: string, lines: NamingLine[], seedBase: number, pool: readonly string[] = POOL): Clip[] {
  return lines.filter(speakable).slice(0, Number(arg('limit') ?? Infinity)).map((l, i) => {
    const voice = VOICES[i % VOICES.length]!;
    return { text: l.text, expect: l.expect, names: tenantNames(l, seedBase + i, pool), samples: synth(dir, voice, l.text), name: `${voice} "${l.text}"` };
  });
}

async function decode(asr: Pick<StreamingAsr, 'startTurn'>, clips: Clip[], withNames: boolean): Promise<Decoded[]> {
  const out: Decoded[] = [];
  for (const clip of clips) {
    const t0 = process.cpuUsage();
    const turn = asr.startTurn(withNames ? { names: clip.names } : {});
    for (let i = 0; i < clip.samples.length; i += CHUNK) turn.accept(clip.samples.subarray(i, i + CHUNK));
    const final = await turn.finish();
    const d = process.cpuUsage(t0);
    out.push({ clip, final, cpuMs: (d.user + d.system) / 1000 });
  }
  return out;
}

/** `--phone`: every clip goes through a phone line and 8 kHz streams' recogniser settings. */
const PHONE = process.argv.includes('--phone');

/** A clip as a phone call carries it: band-limited, 8 kHz μ-law, decoded back to 16 kHz by Parley's stream decoder. */
async function onPhone(clips: Clip[]): Promise<Clip[]> {
  if (!PHONE) return clips;
  return Promise.all(clips.map(async (c) => ({ ...c, samples: await phoneLine(sox(c.samples, ['highpass', '300', 'lowpass', '3400'])) })));
}

/** A recogniser warmed on one fixture turn (its cepstral mean adapts over the first turns); with `--phone`, an 8 kHz stream's. */
async function recogniser(nameSpotting: PocketsphinxAsrConfig['nameSpotting']): Promise<PocketsphinxAsr> {
  const asr = PocketsphinxAsr.load({ kind: 'pocketsphinx', maxDecoders: 1, nameSpotting, ...(PHONE ? { options: { ...NARROWBAND_OPTIONS } } : {}) });
  const f = loadAudioFixtures()[0]!;
  await decode(asr, await onPhone([{ text: null, expect: null, names: [], samples: fixtureSamples(f), name: 'warm-up' }]), false);
  return asr;
}

interface Score { nameHit: number[]; tp: number[]; fp: number[]; fn: number[]; falseNames: number[]; errors: number[]; words: number[]; cpuMs: number; audioS: number }

function score(results: { clip: Clip; text: string; cpuMs: number }[]): Score {
  const s: Score = { nameHit: [], tp: [], fp: [], fn: [], falseNames: [], errors: [], words: [], cpuMs: 0, audioS: 0 };
  for (const { clip, text, cpuMs } of results) {
    const said = new Set(normaliseForWer(text));
    const ref = new Set(clip.text ? normaliseForWer(clip.text) : []);
    if (clip.expect) s.nameHit.push(said.has(clip.expect) ? 1 : 0);
    const got = detectSelfIntroduction(text, { known: new Set(clip.names) })?.toLowerCase() ?? null;
    const tp = got !== null && got === clip.expect ? 1 : 0;
    s.tp.push(tp);
    s.fp.push(got !== null && !tp ? 1 : 0);
    s.fn.push(clip.expect !== null && !tp ? 1 : 0);
    s.falseNames.push(clip.names.filter((n) => said.has(n) && !ref.has(n)).length);
    const e = clip.text ? wordErrors(clip.text, text) : { errors: 0, words: 0 };
    s.errors.push(e.errors);
    s.words.push(e.words);
    s.cpuMs += cpuMs;
    s.audioS += clip.samples.length / 16000;
  }
  return s;
}

const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
const ratio = (a: number, b: number): number => (b === 0 ? 1 : a / b);
const precision = (s: Score): number => ratio(sum(s.tp), sum(s.tp) + sum(s.fp));
const recall = (s: Score): number => ratio(sum(s.tp), sum(s.tp) + sum(s.fn));
const wer = (s: Score): number => sum(s.errors) / Math.max(1, sum(s.words));
const f1 = (x: number): string => (100 * x).toFixed(1);

/** Extra CPU of the spotting run over the plain one, per clip (on / off − 1): mean with its 95 % bootstrap interval, and min / max. */
function extraCpu(off: Decoded[], on: Decoded[]): string {
  const r = on.map((d, i) => d.cpuMs / Math.max(1e-3, off[i]!.cpuMs) - 1);
  return `${pct(bootstrapMean(r), true)}, min ${f1(Math.min(...r))} %, max ${f1(Math.max(...r))} % (CPU time is inflated by other work on a shared host)`;
}

/** Offline: the text the spotting pass would give at another phone distance or function-word gate (tuning only). */
function atDistance(d: Decoded, maxPhoneDistance: number, gate: Gate = {}): string {
  return corrected(d, maxPhoneDistance, gate).words.join(' ');
}

type Gate = { functionWordThreshold?: number; functionWordContractions?: boolean };

function corrected(d: Decoded, maxPhoneDistance: number, gate: Gate): ReturnType<typeof correctNames> {
  const ns = d.final.nameSpotting;
  if (!ns) return { words: normaliseForWer(d.final.text), corrections: [] };
  // First-pass words carry the decoder's alternate-pronunciation marker ("we'll(2)"): look them up without it.
  return correctNames(ns.firstPass, ns.spotted, (w) => pronunciations(plainWord(w)), { maxPhoneDistance, toleranceFrames: TOLERANCE_FRAMES, ...gate });
}

/**
 * `--gate-grid`: the function-word gate chosen offline from one decode of the development lines at the
 * shipped threshold and distance (with `--phone`, through the phone line): every gate setting re-runs
 * `correctNames` on the same detections. Prints each setting's row and the corrections it makes.
 */
async function gateGrid(dir: string): Promise<void> {
  const devClips = await onPhone(scripted(dir, [...firstDev, ...seen], 1000));
  console.log(`development${PHONE ? ' (phone line)' : ''}: ${devClips.length} spoken lines; spotting at ${show(NAME_SPOTTING_DEFAULTS)}, gate applied offline`);
  const asr = await recogniser({ ...NAME_SPOTTING_DEFAULTS, functionWordThreshold: Infinity });
  const decoded = await decode(asr, devClips, true);
  await asr.close();
  for (const x of decoded) {
    for (const s of x.final.nameSpotting?.spotted ?? []) {
      const n = pronunciations(s.name)[0]?.length ?? 0;
      console.log(`  spotted ${s.name} score ${s.score} (${(s.score * Math.log10(1.0001) / Math.max(1, n)).toFixed(2)} log10/phone) in ${x.clip.name}`);
    }
  }
  console.log('| gate | names heard | naming P % | naming R % | false names | word errors | corrections |');
  console.log('|---|---|---|---|---|---|---|');
  const gates: [string, Gate][] = [['none', {}]];
  for (const contractions of [true, false]) {
    for (const t of [-Infinity, 0, 0.5, 1, 1.5]) gates.push([`function words${contractions ? ' + contractions' : ''} need 1e-${t}/phone`, { functionWordThreshold: t, functionWordContractions: contractions }]);
  }
  for (const [label, gate] of gates) {
    const s = score(decoded.map((x) => ({ ...x, text: atDistance(x, NAME_SPOTTING_DEFAULTS.maxPhoneDistance, gate) })));
    const cs = decoded.flatMap((x) => corrected(x, NAME_SPOTTING_DEFAULTS.maxPhoneDistance, gate).corrections.map((c) => `${c.from}→${c.to}`));
    console.log(`| ${label} | ${sum(s.nameHit)}/${s.nameHit.length} | ${f1(precision(s))} | ${f1(recall(s))} | ${sum(s.falseNames)} | ${sum(s.errors)}/${sum(s.words)} | ${cs.join(', ')} |`);
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'parley-asr-names-'));
  try {
    if (process.argv.includes('--gate-grid')) {
      await gateGrid(dir);
      return;
    }
    if (process.argv.includes('--lts')) {
      await letterToSound(dir);
      return;
    }
    if (process.argv.includes('--moonshine-match')) {
      await moonshineMatch(dir);
      return;
    }
    if (process.argv.includes('--moonshine')) {
      await moonshineNames(dir);
      return;
    }
    if (PHONE) {
      console.log(`phone line (300–3400 Hz, 8 kHz μ-law) and narrowband settings ${JSON.stringify(NARROWBAND_OPTIONS)}; spotting at the shipped defaults ${show(NAME_SPOTTING_DEFAULTS)}`);
      await heldOut(dir, NAME_SPOTTING_DEFAULTS, [['development lines (naming-set dev + seen)', [...firstDev, ...seen], 1000], ['held-out lines (naming-set heldOut)', heldOutLines, 5000]]);
      return;
    }
    if (process.argv.includes('--report-only')) {
      console.log(`reporting the shipped defaults ${show(NAME_SPOTTING_DEFAULTS)}`);
      await heldOut(dir, NAME_SPOTTING_DEFAULTS);
      return;
    }
    const devClips = scripted(dir, [...firstDev, ...seen], 1000);
    console.log(`development: ${devClips.length} spoken lines (${devClips.filter((c) => c.expect).length} with a name); tenant list of 10 names per line`);
    const off = score((await decode(await recogniser(false), devClips, false)).map((d) => ({ ...d, text: d.final.text })));
    const row = (label: string, s: Score): void => console.log(`| ${label} | ${sum(s.nameHit)}/${s.nameHit.length} | ${f1(precision(s))} | ${f1(recall(s))} | ${sum(s.falseNames)} | ${sum(s.errors)}/${sum(s.words)} (${f1(wer(s))} %) | ${(s.cpuMs / s.audioS).toFixed(0)} |`);
    console.log('| setting | names heard | naming P % | naming R % | false names | word errors (WER) | CPU ms/s |');
    console.log('|---|---|---|---|---|---|---|');
    row('off (first pass only)', off);
    let best: { t: number; d: number; s: Score; key: number[] } | null = null;
    for (const t of [2, 3, 4, 5, 6, 8]) {
      const asr = await recogniser({ thresholdPerPhone: t, maxPhoneDistance: 1 });
      const decoded = await decode(asr, devClips, true);
      await asr.close();
      for (const d of [0.2, 0.25, 0.3, 0.35, 0.4, 0.5]) {
        const s = score(decoded.map((x) => ({ ...x, text: atDistance(x, d) })));
        row(`threshold 1e-${t}/phone, distance ≤ ${d}`, s);
        // Most names heard net of false names, then fewer word errors; ties keep the earlier (stricter) setting.
        const key = [sum(s.nameHit) - sum(s.falseNames) - sum(s.fp), -sum(s.errors)];
        if (!best || key[0]! > best.key[0]! || (key[0] === best.key[0] && key[1]! > best.key[1]!)) best = { t, d, s, key };
      }
    }
    if (!best) return;
    console.log(`chosen: thresholdPerPhone ${best.t}, maxPhoneDistance ${best.d} (shipped defaults ${show(NAME_SPOTTING_DEFAULTS)})`);
    if (process.argv.includes('--dev-only')) return;
    await heldOut(dir, { thresholdPerPhone: best.t, maxPhoneDistance: best.d });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function heldOut(dir: string, chosen: { thresholdPerPhone: number; maxPhoneDistance: number },
  sets: [string, NamingLine[], number][] = [['held-out', heldOutLines, 5000]]): Promise<void> {
  const offAsr = await recogniser(false);
  const onAsr = await recogniser(chosen);
  for (const [label, lines, seed] of sets) await compare(label, await onPhone(scripted(dir, lines, seed)), offAsr, onAsr);
  await other(offAsr, onAsr);
  await offAsr.close();
  await onAsr.close();
}

/** One set of spoken lines decoded without and with spotting, same run: the table, paired differences and corrections. */
async function compare(label: string, clips: Clip[], offAsr: PocketsphinxAsr, onAsr: PocketsphinxAsr): Promise<void> {
  const off = await decode(offAsr, clips, false);
  const on = await decode(onAsr, clips, true);
  const so = score(off.map((d) => ({ ...d, text: d.final.text })));
  const sn = score(on.map((d) => ({ ...d, text: d.final.text })));
  console.log(`\n${label}: ${clips.length} spoken lines (${so.nameHit.length} with a name), same run`);
  console.log('| recogniser | names heard | naming precision | naming recall | false names | word errors (WER) | CPU ms/s |');
  console.log('|---|---|---|---|---|---|---|');
  for (const [label, s] of [['first pass only (baseline)', so], ['with name spotting', sn]] as const) {
    console.log(`| ${label} | ${pct(bootstrapMean(s.nameHit))} | ${f1(precision(s))} % | ${f1(recall(s))} % | ${sum(s.falseNames)} | ${sum(s.errors)}/${sum(s.words)} (${f1(wer(s))} %) | ${(s.cpuMs / s.audioS).toFixed(0)} |`);
  }
  console.log(`extra CPU of spotting per clip: ${extraCpu(off, on)}`);
  const tpOf = (s: Score): number[] => s.tp.map((x, i) => x - s.fp[i]!);
  console.log(`paired differences (on − off): names heard ${pct(bootstrapDelta(sn.nameHit, so.nameHit), true)}; ` +
    `naming tp − fp per line ${pct(bootstrapDelta(tpOf(sn), tpOf(so)), true)}; word errors per line ${bootstrapDelta(sn.errors, so.errors).mean.toFixed(3)} ` +
    `[${bootstrapDelta(sn.errors, so.errors).lo.toFixed(3)}, ${bootstrapDelta(sn.errors, so.errors).hi.toFixed(3)}]`);
  for (const d of on) for (const c of d.final.nameSpotting?.corrections ?? []) console.log(`  corrected "${c.from}" → "${c.to}" (distance ${c.distance.toFixed(2)}) in ${d.clip.name}`);
  refusedByGate(on);
}

/** Corrections the function-word gate refused in these decodes (the same detections, corrected offline without the gate). */
function refusedByGate(on: Decoded[]): void {
  for (const d of on) {
    const made = new Set((d.final.nameSpotting?.corrections ?? []).map((c) => `${c.from}→${c.to}`));
    for (const c of corrected(d, NAME_SPOTTING_DEFAULTS.maxPhoneDistance, { functionWordThreshold: Infinity }).corrections) {
      if (!made.has(`${c.from}→${c.to}`)) console.log(`  refused by the function-word gate: "${c.from}" → "${c.to}" (distance ${c.distance.toFixed(2)}) in ${d.clip.name}`);
    }
  }
}

/**
 * `--moonshine`: the held-out lines (through the phone line with `--phone`) on Moonshine, which has no
 * vocabulary hook (turn names are ignored), against pocketsphinx's first pass and its name spotting at the
 * shipped defaults, same run. Nothing is chosen here.
 */
async function moonshineNames(dir: string): Promise<void> {
  const clips = await onPhone(scripted(dir, heldOutLines, 5000));
  const systems: [string, () => Promise<Pick<StreamingAsr, 'startTurn' | 'close'> | null>][] = [
    ['pocketsphinx, first pass only', () => recogniser(false)],
    [`pocketsphinx + name spotting ${show(NAME_SPOTTING_DEFAULTS)} (baseline)`, () => recogniser(NAME_SPOTTING_DEFAULTS)],
    ...['moonshine-tiny', 'moonshine-base'].map((m): [string, () => Promise<StreamingAsr | null>] => [m, async () => {
      const d = path.join(modelsDir(), m);
      return existsSync(path.join(d, 'decoder_model_merged.onnx')) ? MoonshineAsr.load({ kind: 'moonshine', modelDir: d, knownNames: false }) : null;
    }]),
  ];
  console.log(`held-out lines${PHONE ? ' through the phone line (pocketsphinx: narrowband settings)' : ''}: ${clips.length} spoken lines, tenant list of 10 names per line, same run`);
  console.log('| recogniser | names heard | naming precision | naming recall | false names | word errors (WER) | CPU ms/s | names heard vs baseline (paired) |');
  console.log('|---|---|---|---|---|---|---|---|');
  let baseline: Score | undefined;
  for (const [label, load] of systems) {
    const asr = await load();
    if (!asr) { console.log(`| ${label} | not fetched | | | | | | |`); continue; }
    const s = score((await decode(asr, clips, true)).map((d) => ({ ...d, text: d.final.text })));
    await asr.close();
    if (label.endsWith('(baseline)')) baseline = s;
    const delta = baseline && baseline !== s ? pct(bootstrapDelta(s.nameHit, baseline.nameHit), true) : '';
    console.log(`| ${label} | ${pct(bootstrapMean(s.nameHit))} | ${f1(precision(s))} % | ${f1(recall(s))} % | ${sum(s.falseNames)} | ${sum(s.errors)}/${sum(s.words)} (${f1(wer(s))} %) | ${(s.cpuMs / s.audioS).toFixed(0)} | ${delta} |`);
  }
}

/** Held-out and unknown-name lines: first pass, spotting without and with letter-to-sound, same run. */
async function letterToSound(dir: string): Promise<void> {
  const pool = [...new Set([...POOL, ...UNKNOWN])].sort();
  const sets: [string, Clip[]][] = [
    ['held-out (naming-set heldOut)', scripted(dir, heldOutLines, 5000, pool)],
    ['names cmudict lacks (naming-set unknownNames)', scripted(dir, unknownNames, 7000, pool)],
  ];
  const firstAsr = await recogniser(false);
  const noLts = await recogniser({ ...NAME_SPOTTING_DEFAULTS, letterToSound: false });
  const lts = await recogniser(NAME_SPOTTING_DEFAULTS);
  const t0 = Date.now();
  await lts.prepareNames(pool);
  console.log(`festival looked up ${pool.length} names' words in ${Date.now() - t0} ms (one process)`);
  for (const [label, clips] of sets) {
    const first = await decode(firstAsr, clips, false);
    const off = await decode(noLts, clips, true);
    const on = await decode(lts, clips, true);
    const ss = [first, off, on].map((r) => score(r.map((d) => ({ ...d, text: d.final.text }))));
    console.log(`\n${label}: ${clips.length} spoken lines (${ss[0]!.nameHit.length} with a name), same run`);
    console.log('| recogniser | names heard | naming precision | naming recall | false names | word errors (WER) | CPU ms/s |');
    console.log('|---|---|---|---|---|---|---|');
    ['first pass only', 'spotting without letter-to-sound (baseline)', 'spotting with letter-to-sound'].forEach((name, i) => {
      const s = ss[i]!;
      console.log(`| ${name} | ${sum(s.nameHit)}/${s.nameHit.length}, ${pct(bootstrapMean(s.nameHit))} | ${f1(precision(s))} % | ${f1(recall(s))} % | ${sum(s.falseNames)} | ${sum(s.errors)}/${sum(s.words)} (${f1(wer(s))} %) | ${(s.cpuMs / s.audioS).toFixed(0)} |`);
    });
    const [, so, sn] = ss as [Score, Score, Score];
    console.log(`paired (with − without letter-to-sound): names heard ${pct(bootstrapDelta(sn.nameHit, so.nameHit), true)}; word errors per line ` +
      `${bootstrapDelta(sn.errors, so.errors).mean.toFixed(3)} [${bootstrapDelta(sn.errors, so.errors).lo.toFixed(3)}, ${bootstrapDelta(sn.errors, so.errors).hi.toFixed(3)}]`);
    console.log(`extra CPU of letter-to-sound spotting per clip: ${extraCpu(off, on)}`);
    for (const d of on) for (const c of d.final.nameSpotting?.corrections ?? []) console.log(`  corrected "${c.from}" → "${c.to}" (distance ${c.distance.toFixed(2)}) in ${d.clip.name}`);
    for (const d of on) {
      const heard = d.final.nameSpotting?.spotted.map((x) => x.name).filter((n) => UNKNOWN.includes(n)) ?? [];
      if (heard.length) console.log(`  spotted ${heard.join(', ')} in ${d.clip.name} → "${d.final.text}"`);
    }
  }
  const names = [...POOL.filter((_, i) => i % Math.max(1, Math.floor(POOL.length / 5)) === 0).slice(0, 5), ...UNKNOWN.slice(0, 5)];
  await lts.prepareNames(names);
  await other(noLts, lts, names, true);
  await Promise.all([firstAsr.close(), noLts.close(), lts.close()]);
}

/**
 * Real speech and fixtures, with a tenant list of 10 names (none said, except by chance): by default from
 * the set, the "off" recogniser decoding without names; `offNames`: it decodes with them too.
 */
async function other(offAsr: PocketsphinxAsr, onAsr: PocketsphinxAsr,
  names = POOL.filter((_, i) => i % Math.max(1, Math.floor(POOL.length / 10)) === 0).slice(0, 10), offNames = false): Promise<void> {
  const data = path.resolve(process.env['PARLEY_SHARED_DATA'] ?? path.join(repoRoot(), '../shared/data'), 'speech');
  const sets: [string, Clip[]][] = [];
  const sbFile = path.join(data, 'speechbrain', 'transcripts.jsonl');
  if (existsSync(sbFile)) {
    sets.push(['real: SpeechBrain (transcribed)', readFileSync(sbFile, 'utf8').split('\n').filter(Boolean).map((line) => {
      const row = JSON.parse(line) as { file: string; text: string };
      return { text: row.text, expect: null, names, samples: readWav(path.join(data, 'speechbrain', row.file)).samples, name: row.file };
    })]);
  }
  const libri = path.join(data, 'librispeech-test-other-10');
  const perSpeaker = Number(arg('libri') ?? 2);
  if (existsSync(libri)) {
    const clips: Clip[] = [];
    for (const spk of readdirSync(libri).filter((d) => /^\d+$/.test(d)).sort()) {
      for (const f of readdirSync(path.join(libri, spk)).filter((x) => x.endsWith('.wav')).sort().slice(0, perSpeaker)) {
        clips.push({ text: null, expect: null, names, samples: readWav(path.join(libri, spk, f)).samples, name: f });
      }
    }
    sets.push([`real: LibriSpeech test-other (${perSpeaker} per speaker, no transcripts)`, clips]);
  } else {
    requireDataOrSkip(libri);
    process.stderr.write(`skipping LibriSpeech: ${libri} not found (set PARLEY_SHARED_DATA)\n`);
  }
  sets.push(['synthetic: flite fixtures', loadAudioFixtures().map((f) => ({
    text: f.utterances.map((u) => u.text).join(' '), expect: null, names, samples: fixtureSamples(f), name: f.file }))]);
  console.log(`\nother sets, tenant names ${names.join(', ')} (same recognisers, same run)`);
  console.log('| set | clips | audio s | word errors off → on | words changed by spotting | CPU ms/s off → on |');
  console.log('|---|---|---|---|---|---|');
  for (const [label, raw] of sets) {
    const clips = await onPhone(raw);
    const off = await decode(offAsr, clips, offNames);
    const on = await decode(onAsr, clips, true);
    const so = score(off.map((d) => ({ ...d, text: d.final.text })));
    const sn = score(on.map((d) => ({ ...d, text: d.final.text })));
    const changed = on.reduce((n, d, i) => n + wordErrors(off[i]!.final.text, d.final.text).errors, 0);
    const total = off.reduce((n, d) => n + normaliseForWer(d.final.text).length, 0);
    const errs = clips.some((c) => c.text) ? `${sum(so.errors)} → ${sum(sn.errors)} of ${sum(so.words)}` : 'n/a';
    console.log(`| ${label} | ${clips.length} | ${so.audioS.toFixed(0)} | ${errs} | ${changed} of ${total} | ${(so.cpuMs / so.audioS).toFixed(0)} → ${(sn.cpuMs / sn.audioS).toFixed(0)} |`);
    for (const d of on) for (const c of d.final.nameSpotting?.corrections ?? []) console.log(`  corrected "${c.from}" → "${c.to}" in ${d.clip.name}`);
    refusedByGate(on);
    console.log(`  extra CPU of spotting per clip: ${extraCpu(off, on)}`);
  }
}


/** `--moonshine-match`: see the file's comment. */
async function moonshineMatch(dir: string): Promise<void> {
  const model = arg('model') ?? 'moonshine-tiny';
  const modelDir = path.join(modelsDir(), model);
  if (!existsSync(path.join(modelDir, 'decoder_model_merged.onnx'))) throw new Error(`${model} is not fetched: npm run models -- fetch ${model}`);
  const load = (knownNames: KnownNameOptions): Promise<MoonshineAsr> => MoonshineAsr.load({ kind: 'moonshine', modelDir, knownNames });
  const heard = (d: Decoded): string => d.final.knownNames?.heard ?? d.final.text;
  const matchText = (d: Decoded, o: KnownNameOptions): string => favourKnownNames(heard(d), d.clip.names, pronunciations, o).text;
  const row = (label: string, s: Score, extra = ''): void => console.log(`| ${label} | ${sum(s.nameHit)}/${s.nameHit.length} | ${f1(precision(s))} / ${f1(recall(s))} % | ${sum(s.falseNames)} | ${sum(s.errors)}/${sum(s.words)} (${f1(wer(s))} %) |${extra}`);
  console.log(`${model}${PHONE ? ', phone line (300–3400 Hz, 8 kHz μ-law)' : ', 16 kHz'}; tenant list of 10 names per line`);

  const devClips = await onPhone(scripted(dir, [...firstDev, ...seen], 1000));
  const devAsr = await load(KNOWN_NAME_DEFAULTS);
  const dev = await decode(devAsr, devClips, true);
  await devAsr.close();
  console.log(`\ndevelopment lines (naming-set dev + seen): ${devClips.length} spoken lines (${devClips.filter((c) => c.expect).length} with a name), one decode, settings applied offline`);
  console.log('| setting | names heard | naming P / R | false names | word errors (WER) | rewrites (wrong ones) |');
  console.log('|---|---|---|---|---|---|');
  if (process.argv.includes('--verbose')) for (const d of dev) console.log(`  ${d.clip.expect ?? '-'} [${d.clip.names.join(' ')}] "${d.clip.text}" heard "${heard(d)}"`);
  const base = score(dev.map((d) => ({ ...d, text: asrText(heard(d)) })));
  row('off: Moonshine\'s text (baseline)', base, ' |');
  let best: { o: KnownNameOptions; key: number[] } | null = null;
  for (const maxPhoneDistance of [0.2, 0.25, 0.3, 0.34, 0.4, 0.45, 0.5]) {
    for (const evidence of ['context', 'cased', 'cased-or-context'] as NameEvidence[]) {
      for (const keepOtherNames of [true, false]) {
        const o: KnownNameOptions = { maxPhoneDistance, evidence, keepOtherNames, maxWords: 2 };
        const s = score(dev.map((d) => ({ ...d, text: matchText(d, o) })));
        const rewrites = dev.flatMap((d) => favourKnownNames(heard(d), d.clip.names, pronunciations, o).corrections.map((c) => ({ c, d })));
        const wrong = rewrites.filter(({ c, d }) => c.to !== d.clip.expect || !(d.clip.text ?? '').split(' ').includes(c.to)).length;
        const wrongList = rewrites.filter(({ c, d }) => c.to !== d.clip.expect || !(d.clip.text ?? '').split(' ').includes(c.to)).map(({ c }) => `${c.from}→${c.to}`);
        row(`distance ≤ ${maxPhoneDistance}, ${evidence}${keepOtherNames ? '' : ', other names rewritten'}`, s, ` ${rewrites.length} (${wrong}${wrong ? `: ${wrongList.join(', ')}` : ''}) |`);
        // Most names heard net of false names and wrong namings, then fewer word errors; ties keep the earlier (stricter) setting.
        const key = [sum(s.nameHit) - sum(s.falseNames) - sum(s.fp), -sum(s.errors)];
        if (!best || key[0]! > best.key[0]! || (key[0] === best.key[0] && key[1]! > best.key[1]!)) best = { o, key };
      }
    }
  }
  if (!best) return;
  console.log(`chosen: ${show(best.o)} (shipped KNOWN_NAME_DEFAULTS ${show(KNOWN_NAME_DEFAULTS)})`);
  if (process.argv.includes('--dev-only')) return;

  const chosen = process.argv.includes('--report-only') ? KNOWN_NAME_DEFAULTS : best.o;
  const asr = await load(chosen);
  const pool = [...new Set([...POOL, ...UNKNOWN])].sort();
  const sets: [string, Clip[]][] = [
    ['held-out lines (naming-set heldOut)', await onPhone(scripted(dir, heldOutLines, 5000))],
    ['names cmudict lacks (naming-set unknownNames; tenant lists drawn from all names)', await onPhone(scripted(dir, unknownNames, 7000, pool))],
  ];
  console.log(`\nreported with ${show(chosen)}; baseline: the same decode's text without the hook`);
  for (const [label, clips] of sets) {
    const on = await decode(asr, clips, true);
    const so = score(on.map((d) => ({ ...d, text: asrText(heard(d)) })));
    const sn = score(on.map((d) => ({ ...d, text: d.final.text })));
    console.log(`\n${label}: ${clips.length} spoken lines (${so.nameHit.length} with a name), same run`);
    console.log('| recogniser | names heard [95 % CI] | naming P / R | false names | word errors (WER) | CPU ms/s |');
    console.log('|---|---|---|---|---|---|');
    for (const [name, s] of [[`${model} without the hook (baseline)`, so], [`${model} + known names`, sn]] as const) {
      console.log(`| ${name} | ${sum(s.nameHit)}/${s.nameHit.length}, ${pct(bootstrapMean(s.nameHit))} | ${f1(precision(s))} / ${f1(recall(s))} % | ${sum(s.falseNames)} | ${sum(s.errors)}/${sum(s.words)} (${f1(wer(s))} %) | ${(sn.cpuMs / sn.audioS).toFixed(0)} |`);
    }
    const tpOf = (s: Score): number[] => s.tp.map((x, i) => x - s.fp[i]!);
    const de = bootstrapDelta(sn.errors, so.errors);
    console.log(`paired (with − without): names heard ${pct(bootstrapDelta(sn.nameHit, so.nameHit), true)}; naming tp − fp per line ` +
      `${pct(bootstrapDelta(tpOf(sn), tpOf(so)), true)}; word errors per line ${de.mean.toFixed(3)} [${de.lo.toFixed(3)}, ${de.hi.toFixed(3)}]`);
    let falseRewrites = 0;
    let nameless = 0;
    for (const d of on) {
      const said = new Set((d.clip.text ?? '').split(' '));
      if (!d.clip.expect) nameless += 1;
      for (const c of d.final.knownNames?.corrections ?? []) {
        const right = said.has(c.to);
        if (!right) falseRewrites += 1;
        console.log(`  ${right ? 'rewrote' : 'FALSE rewrite'} "${c.from}" → "${c.to}" (distance ${c.distance.toFixed(2)}) in ${d.clip.name}; heard "${heard(d)}"`);
      }
    }
    console.log(`false rewrites (a name written that the line does not say): ${falseRewrites}; lines without a name: ${nameless}`);
  }
  await otherMoonshine(asr, heard);
  await asr.close();
}

/** Real speech and fixtures through the hook with 10 tenant names none of them says: every rewrite is a false one. */
async function otherMoonshine(asr: MoonshineAsr, heard: (d: Decoded) => string): Promise<void> {
  const names = POOL.filter((_, i) => i % Math.max(1, Math.floor(POOL.length / 10)) === 0).slice(0, 10);
  const data = path.resolve(process.env['PARLEY_SHARED_DATA'] ?? path.join(repoRoot(), '../shared/data'), 'speech');
  const clips: Clip[] = [];
  const sbFile = path.join(data, 'speechbrain', 'transcripts.jsonl');
  if (existsSync(sbFile)) {
    for (const line of readFileSync(sbFile, 'utf8').split('\n').filter(Boolean)) {
      const row = JSON.parse(line) as { file: string; text: string };
      clips.push({ text: row.text, expect: null, names, samples: readWav(path.join(data, 'speechbrain', row.file)).samples, name: row.file });
    }
  }
  const libri = path.join(data, 'librispeech-test-other-10');
  if (existsSync(libri)) {
    for (const spk of readdirSync(libri).filter((d) => /^\d+$/.test(d)).sort()) {
      for (const f of readdirSync(path.join(libri, spk)).filter((x) => x.endsWith('.wav')).sort().slice(0, Number(arg('libri') ?? 2))) {
        clips.push({ text: null, expect: null, names, samples: readWav(path.join(libri, spk, f)).samples, name: f });
      }
    }
  }
  clips.push(...loadAudioFixtures().map((f) => ({ text: f.utterances.map((u) => u.text).join(' '), expect: null, names, samples: fixtureSamples(f), name: f.file })));
  const on = await decode(asr, await onPhone(clips), true);
  const words = on.reduce((n, d) => n + normaliseForWer(d.final.text).length, 0);
  const rewrites = on.flatMap((d) => (d.final.knownNames?.corrections ?? []).map((c) => `"${c.from}" → "${c.to}" in ${d.clip.name} (heard "${heard(d)}")`));
  console.log(`\nreal speech (SpeechBrain, LibriSpeech test-other) and flite fixtures: ${clips.length} clips, ${words} words, tenant names ${names.join(', ')}: ${rewrites.length} rewrites (all false)`);
  for (const r of rewrites) console.log(`  ${r}`);
}

await main();
