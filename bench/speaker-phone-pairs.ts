/**
 * Two people on one phone call (issue #17, callerid2): two LibriSpeech speakers of LIBRI_HELDOUT (never heard by the
 * LDA) take turns, strictly alternating, through a simulated call (bench/lib/phone-channel.ts), each turn one of their
 * utterances 4–10. The speaker tracker runs as the server opens it by default (calibrated decision, fixed priors, no
 * revision), every turn narrowband, then the end-of-session merge (`--merge cosine`, the default rule, mergeTau; or
 * `--merge calibrated`, with the band rule's narrowband offset on each join when offsets are on). Two scenarios per pair of speakers (6 pairs): `new`, both voices unknown; `known`, the
 * first speaker was heard before in a wideband session (their utterances 1–3, stored as a wideband voiceprint).
 * Systems: band offsets `calibrated` (BAND_OFFSETS), `none`, and the previous offsets (1 / 1.25, as main). Merges: how many the session ends made, and how many joined two voices.
 *
 * Per true speaker and session: ids (distinct ids its turns ended with, after the merge) and attribution (share of its
 * turns whose id's majority speaker in the session is them); in `known`, also the share of the known speaker's turns
 * given their stored id, and of the other's turns given it (taken for the known one). Means over the 12 speaker-sessions
 * of a scenario with a 95 % bootstrap; Δ paired against `none`.
 *
 *   npm run bench:speaker-phone-pairs [-- --rounds 2000] [--merge cosine|calibrated]
 */
import { argNumber, argString } from './lib/cli.js';
import { bootstrapDelta, bootstrapMean } from './lib/bootstrap.js';
import { phoneCall } from './lib/phone-channel.js';
import { openDatabase } from '../graph/sqlite/database.js';
import { SqliteVoiceprintStore } from '../graph/sqlite/sqlite-voiceprint-store.js';
import { LIBRI_HELDOUT, loadLibriSpeech } from '../pipelines/speaker/eval-corpus.js';
import { skipWithoutSharedSpeech } from './lib/shared-speech.js';
import { clusterSessionIds, sessionIdsFrom } from '../pipelines/speaker/session-clustering.js';
import { decisionFor } from '../pipelines/speaker/speaker-decision.js';
import { calibratedMerge, sessionRulesFor } from '../pipelines/speaker/session-rules.js';
import { SPEAKER_SAMPLE_RATE } from '../pipelines/speaker/speaker-embedder.js';
import { thresholdsFor } from '../pipelines/speaker/speaker-thresholds.js';
import { SpeakerTracker } from '../pipelines/speaker/speaker-tracker.js';
import { StatsLdaSpeakerEmbedder } from '../pipelines/speaker/stats-lda-speaker-embedder.js';
import { BAND_OFFSETS, mergeBandOffset, type BandOffsets } from '../pipelines/speaker/voice-bands.js';

skipWithoutSharedSpeech('speaker-phone-pairs');
const ROUNDS = argNumber('rounds', 2000);
/** The offsets shipped before callerid2 (chosen on speakers the LDA was trained on), for comparison. */
const PREVIOUS: BandOffsets = { crossBand: 1, narrowband: 1.25 };
const embedder = new StatsLdaSpeakerEmbedder();
const decision = decisionFor(embedder.modelId);
if (!decision) throw new Error(`no calibrated decision for ${embedder.modelId}`);
const thresholds = thresholdsFor(embedder.modelId);
/** `--merge cosine` (the server's default rule) or `calibrated` (PARLEY_SPEAKER_MERGE_RULE=calibrated, with the band rule). */
const MERGE = argString('merge', 'cosine');
if (MERGE !== 'cosine' && MERGE !== 'calibrated') throw new Error(`--merge must be cosine or calibrated, not ${JSON.stringify(MERGE)}`);
const sessionRules = sessionRulesFor(embedder.modelId);
if (MERGE === 'calibrated' && !sessionRules) throw new Error(`no session rules for ${embedder.modelId}`);

interface Turn { vector: Float32Array; seconds: number }
const voices = new Map<string, { enrol: Turn[]; phone: Turn[] }>();
for (const id of LIBRI_HELDOUT) {
  const clips = loadLibriSpeech([id]).map((u) => u.audio);
  const turn = (a: Float32Array): Turn => ({ vector: embedder.embedSync(a), seconds: a.length / SPEAKER_SAMPLE_RATE });
  voices.set(id, { enrol: clips.slice(0, 3).map(turn), phone: await Promise.all(clips.slice(3).map(async (c) => turn(await phoneCall(c)))) });
}

/** Per true speaker of one session: ids after the merge, attribution, and (known) turns given the stored id. */
interface SpeakerScore { ids: number; attribution: number; storedId: number }

/** One session: per-speaker scores, and the merges the session end made (wrong: joining ids whose majority speakers differ, before the merge). */
interface SessionResult { scores: SpeakerScore[]; merges: number; wrong: number }

async function session(a: string, b: string, known: boolean, offsets: BandOffsets | null): Promise<SessionResult> {
  const db = openDatabase(':memory:');
  let next = 0;
  try {
    const store = new SqliteVoiceprintStore(db);
    const open = (): Promise<SpeakerTracker> => SpeakerTracker.open({
      tenant: 'eval', modelId: embedder.modelId, thresholds, decision, bandOffsets: offsets, storeVoiceprints: true, store, createParticipant: async () => `p${++next}`,
    });
    let stored: string | null = null;
    if (known) {
      const before = await open();
      for (const t of voices.get(a)!.enrol) stored = (await before.assign(t.vector, t.seconds)).participantId;
    }
    const tracker = await open();
    const [va, vb] = [voices.get(a)!.phone, voices.get(b)!.phone];
    const turns = va.flatMap((t, i) => [{ who: a, t }, ...(vb[i] ? [{ who: b, t: vb[i]! }] : [])]);
    const ids: string[] = [];
    for (const { t } of turns) {
      const got = await tracker.assign(t.vector, t.seconds, { band: 'narrowband' });
      ids.push(got.participantId);
      for (const r of got.revised ?? []) ids[r.turn] = r.into;
    }
    const rule = MERGE === 'calibrated' ? { calibrated: calibratedMerge(sessionRules!.merge), bandOffset: mergeBandOffset('narrowband', offsets) } : { linkageTau: thresholds.mergeTau };
    const merges = clusterSessionIds(sessionIdsFrom(tracker.prototypes(), tracker.sessionStats()), rule);
    const final = ids.map((id) => merges.reduce((x, m) => (x === m.from ? m.into : x), id));
    const ownerIn = (labels: string[]): Map<string, string> => {
      const owner = new Map<string, string>();
      for (const id of new Set(labels)) {
        const count = (w: string): number => turns.filter((x, i) => x.who === w && labels[i] === id).length;
        owner.set(id, count(a) >= count(b) ? a : b);
      }
      return owner;
    };
    const owner = ownerIn(final);
    const before = ownerIn(ids);
    const wrong = merges.filter((m) => before.get(m.from) !== before.get(m.into)).length;
    const scores = [a, b].map((w) => {
      const mine = turns.map((x, i) => ({ x, id: final[i]! })).filter(({ x }) => x.who === w);
      return {
        ids: new Set(mine.map((m) => m.id)).size,
        attribution: mine.filter((m) => owner.get(m.id) === w).length / mine.length,
        storedId: stored ? mine.filter((m) => m.id === stored).length / mine.length : 0,
      };
    });
    return { scores, merges: merges.length, wrong };
  } finally {
    db.close();
  }
}

const pairs = LIBRI_HELDOUT.flatMap((a, i) => LIBRI_HELDOUT.slice(i + 1).map((b) => [a, b] as const));
const f = (ci: { mean: number; lo: number; hi: number }, d = 2): string => `${ci.mean.toFixed(d)} [${ci.lo.toFixed(d)}, ${ci.hi.toFixed(d)}]`;
console.log(`merge rule ${MERGE}; pairs of ${LIBRI_HELDOUT.join(', ')}: ${pairs.length}; ${ROUNDS} bootstrap rounds over speaker-sessions; Δ paired against none`);
console.log('| scenario | offsets | ids per speaker | Δ | attribution | Δ | known speaker on stored id | other speaker on stored id | merges (wrong) |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const known of [false, true]) {
  const tally = new Map<string, string>();
  const run = async (name: string, o: BandOffsets | null): Promise<[string, SpeakerScore[]]> => {
    const out = await Promise.all(pairs.map(([a, b]) => session(a, b, known, o)));
    tally.set(name, `${out.reduce((n, r) => n + r.merges, 0)} (${out.reduce((n, r) => n + r.wrong, 0)})`);
    return [name, out.flatMap((r) => r.scores)];
  };
  const [, none] = await run('none', null);
  const systems = [['none', none], await run('calibrated (0.5 / 1)', BAND_OFFSETS), await run('previous (1 / 1.25)', PREVIOUS)] as const;
  for (const [name, scores] of systems) {
    const col = (k: keyof SpeakerScore): string => `${f(bootstrapMean(scores.map((s) => s[k]), ROUNDS, 7))} | ${name === 'none' ? '–' : f(bootstrapDelta(scores.map((s) => s[k]), none.map((s) => s[k]), ROUNDS, 7))}`;
    const stored = (first: boolean): string => (known ? f(bootstrapMean(scores.filter((_, i) => (i % 2 === 0) === first).map((s) => s.storedId), ROUNDS, 7)) : '–');
    console.log(`| ${known ? 'known' : 'new'} | ${name} | ${col('ids')} | ${col('attribution')} | ${stored(true)} | ${stored(false)} | ${tally.get(name)} |`);
  }
}
