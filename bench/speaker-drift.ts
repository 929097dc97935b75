/**
 * Stored voiceprints over many sessions (issue #17 item 2, drift): with the centroid update (`PARLEY_SPEAKER_CENTROID`,
 * default on) a matched 3 s turn moves a stored prototype by 3 / (10 + 3) ≈ 23 %, so a wrong match persists and a print
 * can drift over sessions. Each speaker comes back session after session (bench/lib/speaker-long-sessions.ts, every
 * chunk heard once per run, seeded orders); cross-session re-identification and wrong attribution are counted by the
 * speaker's session number. Arms: "today" (the shipped centroid: 10 s cap, every match, a stored print counting as the
 * cap), stored prints counting as 30 / 60 / 120 s (`CentroidUpdate.storedSeconds`), stored prints updated as before the
 * centroid (`stored: 'ema'`: alpha at ≥ tauUpdate) or never (`stored: 'frozen'`), and one id per session, same runs.
 *
 *   npm run bench:speaker-drift -- --cache FILE          (choice: TRAINING speakers out of fold, seeds 1–20)
 *   npm run bench:speaker-drift -- --heldout             (held-out speakers, once, every arm)
 *
 * Adoption rule, fixed and committed before any result was read. Δ = arm − today, mean [95 % paired bootstrap over
 * runs]; conditions clean, phone band, far-field and mixed (each session in one of the three, drawn at random).
 * Early = the speaker's sessions 2–3, late = their 4th and later, new = their first.
 * - eligible (training speakers): (a) in no condition does Δ across-session utterance accuracy, Δ within-session
 *   utterance accuracy, Δ re-identification early or Δ re-identification late have its interval wholly below 0;
 *   (b) in no condition does Δ wrong attribution early, late or new have its interval wholly above 0; (c) pooled over
 *   the four conditions' runs, Δ re-identification late has its lower end above 0 or Δ wrong late its upper end below 0.
 * - objective: the mean over conditions of (Δ re-identification late − Δ wrong late).
 * - chosen: the eligible arm of highest objective; within 0.2 point the one nearer today (in the order 30, 60, 120 s,
 *   ema, frozen). None eligible: nothing changes.
 * - server default (`pipelines/speaker/params/stats-lda-v2-centroid.json`): the chosen arm, on the held-out speakers
 *   run once, has (a) and (b) in every condition and a pooled mean of (Δ re-identification late − Δ wrong late) ≥ 0.
 * Held-out: LIBRI_HELDOUT and SpeechBrain speakers, stats-lda-v2 as shipped, seeds 101–120.
 *
 * Claims of stored ids (helper speech21; `--claim COST:MARGIN:MINSECONDS,…`, `SpeakerTrackerOptions.storedClaim`,
 * `stored-claim.ts`): the arms are today, each claim setting on today's centroid, and one id per session. A turn may
 * claim an id stored before the session and not yet heard in it only when that id's LLR, less COST, still wins the
 * decision, beats the next such id's by MARGIN, and the turn has MINSECONDS voiced seconds.
 *
 *   npm run bench:speaker-drift -- --cache FILE --claim        (choice: the grid below, TRAINING speakers, seeds 1–20)
 *   npm run bench:speaker-drift -- --heldout --claim C:M:S     (held-out speakers, once, the chosen arm only)
 *
 * Adoption rule of the claim grid, fixed and committed before any claim arm was run. Δ = arm − today as above.
 * - eligible (training speakers): (i) pooled over the four conditions' runs, Δ (re-identification − wrong) late has its
 *   lower end above 0; (ii) in no condition does Δ within-session utterance accuracy have its interval wholly below 0;
 *   (iii) pooled, Δ (re-identification − wrong) early does not have its interval wholly below 0; (iv) checked after the
 *   choice, for the chosen arm: `node dist/bench/speaker-defer.js --cache FILE --claim C:M:S` (meetings and
 *   round-robins, today's centroid as "off") has no training scenario with Δ within-session utterance accuracy wholly
 *   below 0; if it fails, the next eligible arm by objective is checked, at most two in all.
 * - objective: the pooled mean Δ (re-identification − wrong) late; within 0.5 point the arm with fewer non-zero
 *   settings, then the one listed first.
 * - server default: the chosen arm, run once on the held-out speakers beside today and one id per session, has a
 *   pooled mean Δ (re-identification − wrong) late ≥ 0, (ii) in every condition, and speaker-defer's held-out run
 *   (`--heldout --claim C:M:S`) no scenario with Δ within-session utterance accuracy wholly below 0. Otherwise the
 *   setting stays an option of the tracker and the benches.
 *
 * Second grid (`--pooled-claim [MINSECONDS:MARGIN,…]`, added after the first had no eligible arm; the same rule (i)–(iv),
 * objective and server default, committed before it ran): at the end of each session, after the clustering, a new id
 * of the session with MINSECONDS of voiced speech claims the stored id not heard in the session whose LLR from the id's
 * pooled embedding beats a new voice's log prior and the next stored id by MARGIN (`pooledClaims`). Arms: each
 * setting alone (today's online claims) and with the online gate 0:0:1.5; with `--claim C:M:S` only with that gate,
 * with `--claim none` only alone (so the held-out run holds the chosen arm only).
 *
 * Phone band at the pooled claim (helper speech22; `--pooled-band`): the phone condition only ("phone band" held out), every turn heard
 * narrowband with the shipped band offsets applied online (`voice-bands.ts` BAND_OFFSETS, as a phone session of the
 * server), the shipped pooled claim (3 s, 1 nat) on today's centroid. Arms: "today" (the claim scores the pooled speech
 * without the band offset, as before), "pooled band" (the claim pays the offset the single-turn decision pays), one id
 * per session.
 *
 *   npm run bench:speaker-drift -- --cache FILE --pooled-band    (training speakers out of fold, seeds 1–20)
 *   npm run bench:speaker-drift -- --heldout --pooled-band       (held-out speakers, once)
 *
 * Adoption rule of the band offset at the pooled claim, fixed and committed before any held-out figure was read.
 * Δ = pooled band − today. The offset would have been adopted at the server when
 * (1) on training speakers: mean Δ (re-identification − wrong) late ≥ 0, Δ (re-identification − wrong) early not wholly
 * below 0, Δ within-session utterance accuracy not wholly below 0, and neither Δ wrong late nor Δ wrong early wholly above
 * 0; and (2) held out, run once: mean Δ (re-identification − wrong) late ≥ 0 and Δ within-session utterance accuracy not
 * wholly below 0. Otherwise the option stays off.
 */
import { argString } from './lib/cli.js';
import { bootstrapDelta } from './lib/bootstrap.js';
import { figures } from './lib/speaker-meeting-runs.js';
import { driftCounts, longSessions, share } from './lib/speaker-long-sessions.js';
import { sessionSpeech } from './lib/speaker-revise-data.js';
import { oneIdPerSession, runSessions, type EvalUtterance, type RunOptions } from './lib/speaker-sessions.js';
import { ci, mean, pc } from './lib/speaker-variant-grid.js';
import { skipWithoutSharedSpeech } from './lib/shared-speech.js';
import { chosenCentroid, type CentroidUpdate } from '../pipelines/speaker/centroid-update.js';
import { CLAIM_GRID, parseClaims, parsePooled, POOLED_GRID } from './lib/stored-claim-arms.js';
import { chosenPooledClaim } from '../pipelines/speaker/stored-claim.js';
import { BAND_OFFSETS } from '../pipelines/speaker/voice-bands.js';

skipWithoutSharedSpeech('speaker-drift');
const heldOut = process.argv.includes('--heldout');
const RUNS = Number(process.env.PARLEY_SPEAKER_RUNS ?? 20);
const seeds = Array.from({ length: RUNS }, (_, i) => i + 1 + (heldOut ? 100 : 0));
const { modelId, off, speech } = await sessionSpeech(heldOut, argString('cache', '') || null);
const today: CentroidUpdate = (heldOut ? chosenCentroid(modelId) : null) ?? { capSeconds: 10, onMatch: true };
const claimArg = process.argv.includes('--claim') ? argString('claim', '') : null;
const pooledArg = process.argv.includes('--pooled-claim') ? argString('pooled-claim', '') : null;
const pooledBand = process.argv.includes('--pooled-band');
const claimMode = claimArg !== null || pooledArg !== null || pooledBand;
const pooled = pooledArg === null ? [] : parsePooled(pooledArg === '' || pooledArg === 'true' ? POOLED_GRID : pooledArg);
const gate = pooledArg !== null && claimArg !== 'none' ? parseClaims(claimArg || '0:0:1.5')[0]! : null;
/** The pooled arms: each setting alone (unless `--claim C:M:S`), then with the online gate (unless `--claim none`). */
const pooledArms = (): [string, Partial<RunOptions>][] => [
  ...(claimArg && claimArg !== 'none' ? [] : pooled).map((p): [string, Partial<RunOptions>] => [`pooled ${p.minSeconds}:${p.margin}`, { centroid: today, pooledClaim: p }]),
  ...(gate ? pooled : []).map((p): [string, Partial<RunOptions>] => [`pooled ${p.minSeconds}:${p.margin} + claim ${gate!.cost}:${gate!.margin}:${gate!.minSeconds}`, { centroid: today, pooledClaim: p, storedClaim: gate }]),
];
/** Each arm's options over "off" (null: one id per session). */
/** `--pooled-band`: the shipped claim on phone turns, without and with the band offset at the claim. */
const bandArms = (): [string, Partial<RunOptions> | null][] => {
  const claim = chosenPooledClaim('stats-lda-v2');
  const arm = (pooled: boolean): Partial<RunOptions> => ({ centroid: today, pooledClaim: claim, band: { turn: 'narrowband', offsets: BAND_OFFSETS, pooled } });
  return [['today', arm(false)], ['pooled band', arm(true)], ['one id per session', null]];
};
const arms: [string, Partial<RunOptions> | null][] = pooledBand ? bandArms() : claimMode
  ? [
    ['today', { centroid: today }],
    ...(pooledArg !== null ? pooledArms() : parseClaims(claimArg === '' || claimArg === 'true' ? CLAIM_GRID : claimArg!).map((c): [string, Partial<RunOptions>] => [`claim ${c.cost}:${c.margin}:${c.minSeconds}`, { centroid: today, storedClaim: c }])),
    ['one id per session', null],
  ]
  : [
    ['today', { centroid: today }],
    ...[30, 60, 120].map((s): [string, Partial<RunOptions>] => [`stored ${s} s`, { centroid: { ...today, storedSeconds: s } }]),
    ['stored ema', { centroid: { ...today, stored: 'ema' } }],
    ['stored frozen', { centroid: { ...today, stored: 'frozen' } }],
    ['one id per session', null],
  ];

const conds = [...speech.keys()].filter((c) => !pooledBand || c === 'phone' || c === 'phone band');
const chunksOf = conds.map((c) => speech.get(c)!.chunks);
for (const c of chunksOf) {
  if (c.length !== chunksOf[0]!.length || c.some((x, i) => x.speaker !== chunksOf[0]![i]!.speaker)) throw new Error('conditions hold different chunks');
}
const scenarios: [string, EvalUtterance[][][]][] = [
  ...conds.map((c, k): [string, EvalUtterance[][][]] => [c, seeds.map((s) => longSessions([chunksOf[k]!], s))]),
  ...(pooledBand ? [] : [['mixed', seeds.map((s) => longSessions(chunksOf, s))] as [string, EvalUtterance[][][]]]),
];

/** One run's figures. */
interface Fig { utt: number; within: number; reidEarly: number; reidLate: number; wrongNew: number; wrongEarly: number; wrongLate: number; back: number[]; reid: number[]; wrong: number[] }
const score = async (sessions: EvalUtterance[][], c: Partial<RunOptions> | null): Promise<Fig> => {
  const as = c ? (await runSessions(sessions, modelId, { ...off, ...c } satisfies RunOptions)).attributions : oneIdPerSession(sessions);
  const f = figures(as);
  const d = driftCounts(as);
  return {
    utt: f.utterance, within: f.withinUtterance, back: d.back, reid: d.reidentified, wrong: d.wrong,
    reidEarly: share(d.reidentified, d.back, 2, 3), reidLate: share(d.reidentified, d.back, 4),
    wrongNew: share(d.wrong, d.back, 1, 1), wrongEarly: share(d.wrong, d.back, 2, 3), wrongLate: share(d.wrong, d.back, 4),
  };
};

const results = new Map<string, Fig[][]>();
for (const [name, c] of arms) {
  const perScenario: Fig[][] = [];
  for (const [, runs] of scenarios) {
    const figs: Fig[] = [];
    for (const sessions of runs) figs.push(await score(sessions, c));
    perScenario.push(figs);
  }
  results.set(name, perScenario);
}

const sessionsPerSpeaker = (runs: EvalUtterance[][][]): number => mean(runs.map((r) => {
  const n = new Map<string, number>();
  for (const s of r) for (const sp of new Set(s.map((u) => u.speaker))) n.set(sp, (n.get(sp) ?? 0) + 1);
  return mean([...n.values()]);
}));
console.log(`${heldOut ? 'HELD-OUT' : 'training (out of fold)'}; ${RUNS} seeded runs per condition; model ${modelId}; today ${JSON.stringify(today)}`);
for (const [k, [name, runs]] of scenarios.entries()) console.log(`  ${name}: ${mean(runs.map((r) => r.length)).toFixed(1)} sessions per run, ${sessionsPerSpeaker(runs).toFixed(1)} per speaker, ${mean(runs.map((r) => r.flat().length)).toFixed(0)} utterances; ${k}`);

const line = (f: Fig[]): string => `utt ${pc(mean(f.map((x) => x.utt)))} / within ${pc(mean(f.map((x) => x.within)))}; re-id early ${pc(mean(f.map((x) => x.reidEarly)))} late ${pc(mean(f.map((x) => x.reidLate)))}; wrong new ${pc(mean(f.map((x) => x.wrongNew)))} early ${pc(mean(f.map((x) => x.wrongEarly)))} late ${pc(mean(f.map((x) => x.wrongLate)))}`;
/** Pooled over runs: re-identified and wrong per session number, "j: re-id % / wrong % (utterances)". */
const byNumber = (f: Fig[]): string => {
  const len = Math.max(...f.map((x) => x.back.length));
  const parts: string[] = [];
  for (let j = 1; j < len; j++) {
    const n = f.reduce((a, x) => a + (x.back[j] ?? 0), 0);
    const r = f.reduce((a, x) => a + (x.reid[j] ?? 0), 0);
    const w = f.reduce((a, x) => a + (x.wrong[j] ?? 0), 0);
    parts.push(`${j}: ${j > 1 ? pc(r / n) : '-'} / ${pc(w / n)} (${n})`);
  }
  return parts.join('; ');
};

const base = results.get('today')!;
const keys = ['utt', 'within', 'reidEarly', 'reidLate', 'wrongNew', 'wrongEarly', 'wrongLate'] as const;
const ranked: { name: string; objective: number; eligible: boolean }[] = [];
/** The claim grid's rule (header): (i)–(iii) on training speakers; held out, (ii) and a pooled mean ≥ 0. */
function claimRule(figs: Fig[][], b: Fig[][], held: boolean): { eligible: boolean; objective: number; text: string } {
  const all = (arm: Fig[][], f: (x: Fig) => number): number[] => arm.flatMap((r) => r.map(f));
  const late = bootstrapDelta(all(figs, (x) => x.reidLate - x.wrongLate), all(b, (x) => x.reidLate - x.wrongLate));
  const early = bootstrapDelta(all(figs, (x) => x.reidEarly - x.wrongEarly), all(b, (x) => x.reidEarly - x.wrongEarly));
  const within = figs.map((r, k) => bootstrapDelta(r.map((x) => x.within), b[k]!.map((x) => x.within)));
  const pooledWithin = bootstrapDelta(all(figs, (x) => x.within), all(b, (x) => x.within));
  const ii = within.every((d) => d.hi >= 0);
  const eligible = pooledBand ? bandRule(figs, b, held, late.mean, early.hi, ii) : held ? late.mean >= 0 && ii : late.lo > 0 && ii && early.hi >= 0;
  const holds = (x: boolean): string => (x ? 'holds' : 'fails');
  return { eligible, objective: late.mean, text: `Δ (re-id − wrong) late ${ci(late)}; early ${ci(early)}; Δ within pooled ${ci(pooledWithin)}; (i) ${holds(late.lo > 0)}, (ii) ${holds(ii)}, (iii) ${holds(early.hi >= 0)}` };
}
/** The `--pooled-band` rule (header): (1) on training speakers, (2) held out. */
function bandRule(figs: Fig[][], b: Fig[][], held: boolean, late: number, earlyHi: number, within: boolean): boolean {
  if (held) return late >= 0 && within;
  const all = (arm: Fig[][], f: (x: Fig) => number): number[] => arm.flatMap((r) => r.map(f));
  const wrongLate = bootstrapDelta(all(figs, (x) => x.wrongLate), all(b, (x) => x.wrongLate));
  const wrongEarly = bootstrapDelta(all(figs, (x) => x.wrongEarly), all(b, (x) => x.wrongEarly));
  return late >= 0 && earlyHi >= 0 && within && wrongLate.lo <= 0 && wrongEarly.lo <= 0;
}
for (const [name] of arms) {
  const figs = results.get(name)!;
  console.log(`\n${name}:`);
  let ab = true;
  const terms: number[] = [];
  for (const [k, [sname]] of scenarios.entries()) {
    const on = figs[k]!;
    const b = base[k]!;
    const d = Object.fromEntries(keys.map((key) => [key, bootstrapDelta(on.map((x) => x[key]), b.map((x) => x[key]))]));
    if (['utt', 'within', 'reidEarly', 'reidLate'].some((key) => d[key]!.hi < 0)) ab = false;
    if (['wrongNew', 'wrongEarly', 'wrongLate'].some((key) => d[key]!.lo > 0)) ab = false;
    terms.push(d.reidLate!.mean - d.wrongLate!.mean);
    console.log(`  ${sname.padEnd(10)} ${line(on)}`);
    if (name !== 'today') console.log(`  ${''.padEnd(10)} Δ vs today: ${keys.map((key) => `${key} ${ci(d[key]!)}`).join('; ')}`);
    console.log(`  ${''.padEnd(10)} by session number (re-id / wrong, utterances): ${byNumber(on)}`);
  }
  const all = (arm: Fig[][], key: (typeof keys)[number]): number[] => arm.flatMap((f) => f.map((x) => x[key]));
  const pr = bootstrapDelta(all(figs, 'reidLate'), all(base, 'reidLate'));
  const pw = bootstrapDelta(all(figs, 'wrongLate'), all(base, 'wrongLate'));
  const pooledTerm = bootstrapDelta(all(figs, 'reidLate').map((x, i) => x - all(figs, 'wrongLate')[i]!), all(base, 'reidLate').map((x, i) => x - all(base, 'wrongLate')[i]!));
  const arm = name !== 'today' && name !== 'one id per session';
  if (claimMode) {
    const c = claimRule(figs, base, heldOut);
    if (name !== 'today') console.log(`  pooled: Δ re-id late ${ci(pr)}; Δ wrong late ${ci(pw)}; ${c.text}${arm && c.eligible ? (heldOut ? '; PASSES held out' : '; ELIGIBLE') : ''}`);
    ranked.push({ name, objective: c.objective, eligible: arm && c.eligible });
    continue;
  }
  // Training: (a), (b) and (c); held out: (a), (b) and a pooled mean ≥ 0.
  const eligible = arm && ab && (heldOut ? pooledTerm.mean >= 0 : pr.lo > 0 || pw.hi < 0);
  const objective = mean(terms);
  if (name !== 'today') console.log(`  pooled: Δ re-id late ${ci(pr)}; Δ wrong late ${ci(pw)}; Δ (re-id − wrong) late ${ci(pooledTerm)}; objective ${(100 * objective).toFixed(1)}; (a)+(b) ${ab ? 'hold' : 'fail'}${eligible ? (heldOut ? '; PASSES held out' : '; ELIGIBLE') : ''}`);
  ranked.push({ name, objective, eligible });
}
console.log('\nby objective:');
for (const r of ranked.filter((x) => x.name !== 'today').sort((a, b) => b.objective - a.objective)) console.log(`  ${(100 * r.objective).toFixed(1)} ${r.eligible ? 'eligible' : '        '} ${r.name}`);
