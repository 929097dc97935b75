/**
 * Name spotting with the session's vocabulary against the tenant's recent names (issue #17 parts 4–5):
 * does listening for the few people of the session, rather than the 100 names of a call-centre tenant's
 * most recently named callers, raise right names and lower false ones?
 *
 * Each naming-set line (bench/naming-set.ts, spoken by flite / festival voices as in bench/asr-names.ts) is
 * a turn of a session whose people S are the speaker (their own name, when the line gives one: a known,
 * returning participant) and two others present (names from the set not said in the line). The tenant has
 * many named callers: its 100 most recent distinct first names T are drawn from the 1990 US Census first
 * names in cmudict (pipelines/speaker/params/given-names.json) weighted by prevalence, none said in the line
 * nor in S. The recogniser decodes every line under each vocabulary, same run, same warm-up:
 *   - off: first pass only;
 *   - tenant 100: T, what the server gave before (`recentFirstNames`; the session's people, named long ago,
 *     are not among the 100 most recent);
 *   - session + t: S first, then the first t names of T (`SessionVocabulary` with `tenantNames` t), t ∈ {97, 7, 0}.
 * Scored as bench/asr-names.ts: names heard, naming precision / recall (detectSelfIntroduction knowing every
 * name any vocabulary of the line holds), false names (any of those names in the transcript, not said), word
 * errors. `t` is chosen on the development lines (names heard − false names − wrong namings, then fewer word
 * errors, ties to the smaller vocabulary); the held-out lines are then decoded once, every vocabulary, and so
 * is real speech (SpeechBrain with transcripts, LibriSpeech test-other without), where no name of the lists is
 * said: every word spotting changes is listed.
 *
 *   npm run build && node dist/bench/asr-names-session.js [--phone] [--libri=N] [--limit=N]
 *   node dist/bench/asr-names-session.js --switch-cost   (cost of changing the spotting decoder's keyphrase list)
 *
 * `--phone`: every clip through a phone line (300–3400 Hz, 8 kHz μ-law) and the narrowband recogniser.
 * `--new-caller`: the speaker is a NEW caller: the session's people are the two others only, never the speaker's own
 * name, and false names count every census first name too (a broad list may write any of them). Vocabularies:
 * `off`, `new caller` (the session's two others, the shipped spotting) and the variants of {@link NEW_CALLER_VARIANTS};
 * paired against `new caller`. Development lines by default; `--held-out` the held-out lines; `--real-only` real speech.
 * `--real-only`: real speech only, vocabularies `tenant 100` and `session + 0`; `--libri-skip=N` skips each
 * LibriSpeech speaker's first N clips (to decode clips no earlier run decoded).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NARROWBAND_OPTIONS } from '../pipelines/asr/narrowband.js';
import { NAME_SPOTTING_DEFAULTS, PocketsphinxNameSpotter, type NameSpottingOptions } from '../pipelines/asr/pocketsphinx-name-spotter.js';
import { PocketsphinxAsr } from '../pipelines/asr/pocketsphinx-asr.js';
import { pocketsphinxApi } from '../pipelines/asr/pocketsphinx-ffi.js';
import type { AsrFinal } from '../pipelines/asr/streaming-asr.js';
import { normaliseForWer, wordErrors } from '../pipelines/asr/wer.js';
import { fixtureSamples, loadAudioFixtures } from '../pipelines/audio/fixtures.js';
import { readWav } from '../pipelines/audio/wav.js';
import { repoRoot } from '../pipelines/models/repo-root.js';
import { givenNamesPath } from '../pipelines/speaker/given-names.js';
import { detectSelfIntroduction } from '../pipelines/speaker/name-patterns.js';
import { bootstrapDelta, bootstrapMean, pct } from './lib/bootstrap.js';
import { phoneLine, sox, synth } from './lib/room-audio.js';
import { seededRandom } from './lib/seeded-random.js';
import { dev, heldOut, seen, type NamingLine } from './naming-set.js';

const arg = (k: string): string | undefined => process.argv.find((a) => a.startsWith(`--${k}=`))?.split('=')[1];
const PHONE = process.argv.includes('--phone');
const VOICES = ['flite:awb', 'flite:rms', 'flite:slt', 'flite:kal16', 'festival:kal_diphone'];
const CHUNK = 1600;
const TAILS = [97, 7, 0];
const MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';

/** Vocabularies of one line, by label; `off` decodes without names. */
type Vocabularies = Record<string, string[]>;
interface Clip {
  text: string | null; expect: string | null; samples: Float32Array; name: string; lists: Vocabularies;
  /** Names the naming detector knows (`detectSelfIntroduction`'s `known`). */
  known: Set<string>;
  /** Names counted as false when written and not said (default `known`). */
  counted?: Set<string>;
}
interface Decoded { clip: Clip; final: AsrFinal }

const speakable = (l: NamingLine): boolean => !(l.known && l.expect && !l.text.split(' ').includes(l.expect));
const SET_NAMES = [...new Set([...dev, ...seen, ...heldOut].flatMap((l) => (l.expect ? [l.expect] : [])))].sort();
const CENSUS = Object.entries((JSON.parse(readFileSync(givenNamesPath(), 'utf8')) as { names: Record<string, number> }).names);
const NEW_CALLER = process.argv.includes('--new-caller');
const CENSUS_NAMES = new Set(CENSUS.map(([n]) => n));
/** `--new-caller`: spotting settings by vocabulary label; each decodes the session's two others. */
const NEW_CALLER_VARIANTS: Record<string, NameSpottingOptions> = { 'new caller': NAME_SPOTTING_DEFAULTS };

/** Draw `n` distinct names by prevalence, none in `exclude`. */
function tenantRecent(rng: () => number, n: number, exclude: Set<string>): string[] {
  const left = CENSUS.filter(([name]) => !exclude.has(name));
  const out: string[] = [];
  while (out.length < n && left.length > 0) {
    const total = left.reduce((s, [, w]) => s + w, 0);
    let r = rng() * total;
    let i = 0;
    while (i < left.length - 1 && (r -= left[i]![1]) > 0) i++;
    out.push(left.splice(i, 1)[0]![0]);
  }
  return out;
}

/** The line's vocabularies: `tenant 100` and `session + t` for each t of {@link TAILS}. */
function vocabularies(line: NamingLine, seed: number): { lists: Vocabularies; known: Set<string>; counted?: Set<string> } {
  const rng = seededRandom(seed);
  const said = new Set(line.text.split(' '));
  const others = SET_NAMES.filter((n) => n !== line.expect && !said.has(n));
  const session = line.expect ? [line.expect] : [];
  for (let k = 0; k < 2; k++) session.push(others.splice(Math.floor(rng() * others.length), 1)[0]!);
  if (NEW_CALLER) {
    // A new caller: the session knows the two others only; the speaker's own name is in no list.
    const two = session.filter((n) => n !== line.expect);
    const lists: Vocabularies = Object.fromEntries(Object.keys(NEW_CALLER_VARIANTS).map((label) => [label, two]));
    return { lists, known: new Set(two), counted: new Set([...two, ...CENSUS_NAMES]) };
  }
  const tenant = tenantRecent(rng, 100, new Set([...said, ...session, ...SET_NAMES]));
  const lists: Vocabularies = { 'tenant 100': tenant };
  for (const t of TAILS) lists[`session + ${t}`] = [...session, ...tenant.slice(0, t)];
  return { lists, known: new Set(Object.values(lists).flat()) };
}


async function onPhone(samples: Float32Array): Promise<Float32Array> {
  return PHONE ? phoneLine(sox(samples, ['highpass', '300', 'lowpass', '3400'])) : samples;
}

async function scripted(dir: string, lines: NamingLine[], seedBase: number): Promise<Clip[]> {
  const out: Clip[] = [];
  for (const [i, l] of lines.filter(speakable).slice(0, Number(arg('limit') ?? Infinity)).entries()) {
    const voice = VOICES[i % VOICES.length]!;
    out.push({ text: l.text, expect: l.expect, ...vocabularies(l, seedBase + i), samples: await onPhone(synth(dir, voice, l.text)), name: `${voice} "${l.text}"` });
  }
  return out;
}

async function decode(asr: PocketsphinxAsr, clips: Clip[], label: string): Promise<Decoded[]> {
  const out: Decoded[] = [];
  for (const clip of clips) {
    const names = clip.lists[label];
    const turn = asr.startTurn(names ? { names } : {});
    for (let i = 0; i < clip.samples.length; i += CHUNK) turn.accept(clip.samples.subarray(i, i + CHUNK));
    out.push({ clip, final: await turn.finish() });
  }
  return out;
}

interface Score { nameHit: number[]; tp: number[]; fp: number[]; falseNames: number[]; errors: number[]; words: number[] }

function score(decoded: Decoded[]): Score {
  const s: Score = { nameHit: [], tp: [], fp: [], falseNames: [], errors: [], words: [] };
  for (const { clip, final } of decoded) {
    const said = new Set(normaliseForWer(final.text));
    const ref = new Set(clip.text ? normaliseForWer(clip.text) : []);
    if (clip.expect) s.nameHit.push(said.has(clip.expect) ? 1 : 0);
    const got = detectSelfIntroduction(final.text, { known: clip.known })?.toLowerCase() ?? null;
    const tp = got !== null && got === clip.expect ? 1 : 0;
    s.tp.push(tp);
    s.fp.push(got !== null && !tp ? 1 : 0);
    s.falseNames.push([...(clip.counted ?? clip.known)].filter((n) => said.has(n) && !ref.has(n)).length);
    const e = clip.text ? wordErrors(clip.text, final.text) : { errors: 0, words: 0 };
    s.errors.push(e.errors);
    s.words.push(e.words);
  }
  return s;
}

const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
const f1 = (x: number): string => (100 * x).toFixed(1);
const precision = (s: Score): string => (sum(s.tp) + sum(s.fp) === 0 ? '–' : `${f1(sum(s.tp) / (sum(s.tp) + sum(s.fp)))} %`);
const recall = (s: Score): string => `${f1(sum(s.tp) / Math.max(1, s.nameHit.length))} %`;

/** A recogniser warmed on one fixture turn (through the phone line with `--phone`). */
async function recogniser(spotting: NameSpottingOptions | false): Promise<PocketsphinxAsr> {
  const asr = PocketsphinxAsr.load({ kind: 'pocketsphinx', maxDecoders: 1, nameSpotting: spotting,
    ...(PHONE ? { options: { ...NARROWBAND_OPTIONS } } : {}) });
  const f = loadAudioFixtures()[0]!;
  await decode(asr, [{ text: null, expect: null, samples: await onPhone(fixtureSamples(f)), name: 'warm-up', lists: {}, known: new Set() }], 'off');
  return asr;
}

/** Every vocabulary on one set: the table, paired differences against `base`, corrections, decode time. */
async function run(title: string, clips: Clip[], labels: string[], base = 'tenant 100'): Promise<Map<string, Score>> {
  const scores = new Map<string, Score>();
  const decoded = new Map<string, Decoded[]>();
  const cpu = new Map<string, number>();
  for (const label of ['off', ...labels]) {
    // A fresh recogniser per vocabulary, warmed alike: its first pass sees the clips in the same order with
    // the same cepstral-mean history as the baseline's, so only the spotting pass differs.
    const asr = await recogniser(label === 'off' ? false : NEW_CALLER ? NEW_CALLER_VARIANTS[label]! : NAME_SPOTTING_DEFAULTS);
    const t0 = process.hrtime.bigint();
    const d = await decode(asr, clips, label);
    cpu.set(label, Number(process.hrtime.bigint() - t0) / 1e6);
    await asr.close();
    decoded.set(label, d);
    scores.set(label, score(d));
  }
  const named = clips.filter((c) => c.expect).length;
  console.log(`\n${title}: ${clips.length} spoken lines (${named} with a name), same run`);
  console.log('| vocabulary | names heard | naming P | naming R | false names | word errors |');
  console.log('|---|---|---|---|---|---|');
  for (const [label, s] of scores) {
    const heard = s.nameHit.length ? `${sum(s.nameHit)}/${s.nameHit.length}, ${pct(bootstrapMean(s.nameHit))}` : '–';
    console.log(`| ${label === 'off' ? 'first pass only' : label} | ${heard} | ${precision(s)} | ${recall(s)} | ${sum(s.falseNames)} | ${sum(s.errors)}/${sum(s.words)} |`);
  }
  const baseline = scores.get(base)!;
  for (const label of labels.filter((l) => l !== base)) {
    const s = scores.get(label)!;
    const b = baseline;
    console.log(`paired (${label} − ${base}): names heard ${s.nameHit.length ? pct(bootstrapDelta(s.nameHit, b.nameHit), true) : '–'}; ` +
      `false names per line ${bootstrapDelta(s.falseNames, b.falseNames).mean.toFixed(3)} [${bootstrapDelta(s.falseNames, b.falseNames).lo.toFixed(3)}, ${bootstrapDelta(s.falseNames, b.falseNames).hi.toFixed(3)}]; ` +
      `naming right ${pct(bootstrapDelta(s.tp, b.tp), true)}, wrong ${pct(bootstrapDelta(s.fp, b.fp), true)}`);
  }
  const audioS = clips.reduce((a, c) => a + c.samples.length / 16000, 0);
  console.log(`decode wall time (load-dependent) over ${audioS.toFixed(0)} s of audio: ` +
    [...cpu].map(([l, ms]) => `${l} ${(ms / 1000).toFixed(1)} s (×${(ms / cpu.get('off')!).toFixed(2)} of first pass only)`).join('; '));
  for (const label of labels) {
    for (const d of decoded.get(label)!) for (const c of d.final.nameSpotting?.corrections ?? []) console.log(`  ${label}: "${c.from}" → "${c.to}" (distance ${c.distance.toFixed(2)}) in ${d.clip.name}`);
  }
  return scores;
}

/** Real speech (no list name said): SpeechBrain clips with transcripts and LibriSpeech test-other clips. */
function realSpeech(seed: number): Promise<Clip[]> {
  const data = path.resolve(process.env['PARLEY_SHARED_DATA'] ?? path.join(repoRoot(), '../shared/data'), 'speech');
  const files: { file: string; text: string | null }[] = [];
  const sb = path.join(data, 'speechbrain', 'transcripts.jsonl');
  if (existsSync(sb)) {
    for (const line of readFileSync(sb, 'utf8').split('\n').filter(Boolean)) {
      const row = JSON.parse(line) as { file: string; text: string };
      files.push({ file: path.join(data, 'speechbrain', row.file), text: row.text });
    }
  }
  const libri = path.join(data, 'librispeech-test-other-10');
  if (existsSync(libri)) {
    for (const spk of readdirSync(libri).filter((d) => /^\d+$/.test(d)).sort()) {
      const skip = Number(arg('libri-skip') ?? 0);
      for (const f of readdirSync(path.join(libri, spk)).filter((x) => x.endsWith('.wav')).sort().slice(skip, skip + Number(arg('libri') ?? 2))) {
        files.push({ file: path.join(libri, spk, f), text: null });
      }
    }
  }
  return Promise.all(files.map(async ({ file, text }, i) => {
    const line: NamingLine = { text: text ?? '', expect: null } as NamingLine;
    const v = vocabularies(line, seed + i);
    return { text, expect: null, ...v, samples: await onPhone(readWav(file).samples), name: path.basename(file) };
  }));
}

/** `--switch-cost`: wall time of a spotting pass on 0.1 s and 0.5 s of noise when the keyphrase list is the last one, and when it changes. */
function switchCost(): void {
  const spotter = new PocketsphinxNameSpotter(pocketsphinxApi(), MODEL_DIR, {}, { letterToSound: false });
  const few = spotter.keyphraseFile(['grace', 'robert', 'anne'])!;
  const many = spotter.keyphraseFile(CENSUS.slice(0, 100).map(([n]) => n))!;
  const rng = seededRandom(7);
  const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[xs.length >> 1]!;
  for (const samples of [1600, 8000]) {
    const audio = [Int16Array.from({ length: samples }, () => Math.round((rng() - 0.5) * 2000))];
    const time = (file: string): number => {
      const t0 = process.hrtime.bigint();
      if (!spotter.spot(file, audio, [])) throw new Error(`pocketsphinx refused the keyphrase list ${file}`);
      return Number(process.hrtime.bigint() - t0) / 1e6;
    };
    for (const [label, file] of [['3 names', few], ['100 names', many]] as const) {
      time(file);
      const same = Array.from({ length: 100 }, () => time(file));
      const changed = Array.from({ length: 100 }, (_, i) => time(i % 2 ? file : i % 4 ? few : many));
      console.log(`${samples / 16000} s of noise, ${label}: same list ${median(same).toFixed(2)} ms per pass; ` +
        `list changed before the pass ${median(changed.filter((_, i) => i % 2)).toFixed(2)} ms (medians of 100 and 50)`);
    }
  }
  spotter.close();
}

async function main(): Promise<void> {
  if (process.argv.includes('--switch-cost')) return switchCost();
  const dir = mkdtempSync(path.join(tmpdir(), 'parley-asr-names-session-'));
  try {
    console.log(`${PHONE ? 'phone line (8 kHz μ-law), narrowband recogniser; ' : ''}spotting at the shipped defaults`);
    if (NEW_CALLER) {
      const labels = Object.keys(NEW_CALLER_VARIANTS);
      if (process.argv.includes('--real-only')) {
        await run('real speech, new caller (SpeechBrain, LibriSpeech test-other)', await realSpeech(9000), labels, 'new caller');
      } else if (process.argv.includes('--held-out')) {
        await run('held-out, new caller (naming-set heldOut)', await scripted(dir, heldOut, 5000), labels, 'new caller');
      } else {
        await run('development, new caller (naming-set dev + seen)', await scripted(dir, [...dev, ...seen], 1000), labels, 'new caller');
      }
      return;
    }
    if (process.argv.includes('--real-only')) {
      await run('real speech (SpeechBrain, LibriSpeech test-other; no list name said)', await realSpeech(9000), ['tenant 100', 'session + 0']);
      return;
    }
    const labels = ['tenant 100', ...TAILS.map((t) => `session + ${t}`)];
    const devScores = await run('development (naming-set dev + seen)', await scripted(dir, [...dev, ...seen], 1000), labels);
    let best: { label: string; key: number[] } | null = null;
    for (const t of [...TAILS].reverse()) {
      const label = `session + ${t}`;
      const s = devScores.get(label)!;
      const key = [sum(s.nameHit) - sum(s.falseNames) - sum(s.fp), -sum(s.errors)];
      if (!best || key[0]! > best.key[0]! || (key[0] === best.key[0] && key[1]! > best.key[1]!)) best = { label, key };
    }
    console.log(`\nchosen on the development lines: ${best!.label}`);
    await run('held-out (naming-set heldOut)', await scripted(dir, heldOut, 5000), labels);
    await run('real speech (SpeechBrain, LibriSpeech test-other; no list name said)', await realSpeech(9000), labels);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
