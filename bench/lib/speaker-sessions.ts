import { openDatabase } from '../../graph/sqlite/database.js';
import { SqliteVoiceprintStore } from '../../graph/sqlite/sqlite-voiceprint-store.js';
import { planMerges, sessionMergeCandidates } from '../../pipelines/speaker/merge.js';
import { clusterSessionIds, sessionIdsFrom, type CalibratedMerge, type SessionId } from '../../pipelines/speaker/session-clustering.js';
import { idsOnMergePrints, kindMergeFor, type KindMerge } from './speaker-kind-merge.js';
import { absorptionFor, type SmallIdAbsorption } from '../../pipelines/speaker/small-id-absorption.js';
import { pooledClaims, type PooledClaim } from '../../pipelines/speaker/stored-claim.js';
import { reclusterUtterances, type ReclusterOptions } from '../../pipelines/speaker/utterance-reclustering.js';
import type { FirstTurnRevision } from '../../pipelines/speaker/first-turn-revision.js';
import type { StayPrior } from '../../pipelines/speaker/session-rules.js';
import type { SpeakerDecisionParams } from '../../pipelines/speaker/speaker-decision.js';
import type { SpeakerThresholds } from '../../pipelines/speaker/speaker-thresholds.js';
import type { BandOffsets, VoiceBand } from '../../pipelines/speaker/voice-bands.js';
import { SpeakerTracker, type CentroidUpdate, type SpeakerAssignment, type StoredClaim } from '../../pipelines/speaker/speaker-tracker.js';

/** An embedded utterance of a known speaker in a simulated session. */
export interface EvalUtterance {
  speaker: string;
  vector: Float32Array;
  /** Length of the utterance's audio, in seconds (for speech-time weighting). */
  seconds: number;
  /** The print the kind merge clusters on (`RunOptions.kindMerge`; e.g. the fused print); absent: `vector`. */
  mergeVector?: Float32Array;
}

/** Who one utterance was attributed to, after the session's merge. */
export interface Attribution {
  speaker: string;
  id: string;
  session: number;
  seconds: number;
}

/** What the end-of-session merge did in one run. */
export interface MergeTally {
  /** Sessions where some speaker held two or more ids with enough utterances to be merged. */
  mustMergeSessions: number;
  /** …of which at least one merge joined two ids of one speaker. */
  firedWhereMust: number;
  /** Utterances the utterance-level re-clustering moved, how many to an id whose majority speaker is theirs, and its new ids. */
  moved: number;
  movedRight: number;
  splits: number;
  /** Merges that joined ids of one speaker (by each id's majority speaker). */
  correctMerges: number;
  /** Merges that joined ids of different speakers. */
  wrongMerges: number;
  /** Pairs of eligible ids of different speakers (chances to merge wrongly). */
  differentPairs: number;
  /** Pairs of eligible ids of one speaker (by majority) in a session, and how many of them ended as one id. */
  samePairs: number;
  samePairsJoined: number;
  /** Different-speaker pairs of eligible ids that ended as one id (directly or through a chain). */
  differentPairsJoined: number;
}

/** An empty tally. */
export function emptyTally(): MergeTally {
  return { moved: 0, movedRight: 0, splits: 0, mustMergeSessions: 0, firedWhereMust: 0, correctMerges: 0, wrongMerges: 0, differentPairs: 0, samePairs: 0, samePairsJoined: 0, differentPairsJoined: 0 };
}

/** How one session of a run ended: its tracker's stay count (`SpeakerTracker.stayCount`) and what its merge did. */
export interface SessionEnd {
  stays: number;
  transitions: number;
  merges: MergeTally;
}

/** Options of {@link runSessions}. */
export interface RunOptions {
  thresholds: Pick<SpeakerThresholds, 'tauMatch' | 'tauUpdate' | 'alpha'>;
  /** End-of-session merge threshold; null runs no merge. */
  mergeTau: number | null;
  /** Utterances an id needs in the session to take part in the merge. Default 2 (1 for `clusters`). */
  minUtterances?: number;
  /**
   * How the merge sees an id: `clusters`, average-linkage clustering over all of the session's utterance
   * embeddings weighted by voiced seconds (production since the end of issue #17, mergeTau is its
   * linkage threshold); the pairwise greedy merge on the mean of the id's session embeddings
   * (`session-mean`, the first issue #17 merge) or on its online prototype (`prototype`, before). Default `clusters`.
   */
  mergeOn?: 'clusters' | 'session-mean' | 'prototype';
  /** Utterances shorter than this (seconds) go through `assignShort` (as production does); 0 for none. */
  shortSeconds?: number;
  /** The calibrated open-set decision (`speaker-decision.ts`); absent: cosine thresholds alone. */
  decision?: SpeakerDecisionParams | null;
  /** With `clusters`: the calibrated merge rule instead of the cosine linkage threshold `mergeTau` (which must be non-null to merge). */
  mergeCalibrated?: CalibratedMerge | null;
  /** With the cosine rule of `clusters`: small new ids join at a lower linkage (`session-clustering.ts` `absorb`). */
  absorb?: SmallIdAbsorption | null;
  /**
   * After the merge: the utterance-level re-clustering (`utterance-reclustering.ts`) over the session's utterances,
   * its moves applied to this session's attributions (the tracker's prototypes are left as they are). Absent: none.
   */
  recluster?: Omit<ReclusterOptions, 'known'> | null;
  /** With `decision`: the per-session stay prior (`session-rules.ts`). */
  stay?: StayPrior | null;
  /** With `decision`: the first-turn revision (`first-turn-revision.ts`). */
  revise?: FirstTurnRevision | null;
  /** Prototype updates as a seconds-weighted centroid (`SpeakerTrackerOptions.centroid`). */
  centroid?: CentroidUpdate | null;
  /** With `decision`: what a turn needs to claim a stored id not yet heard in the session (`SpeakerTrackerOptions.storedClaim`). */
  storedClaim?: StoredClaim | null;
  /** With `decision`: end-of-session claims of stored ids by the session's new ids from their pooled speech (`stored-claim.ts`). */
  pooledClaim?: PooledClaim | null;
  /**
   * Every turn heard through `turn` with the decision's band offsets applied online (`SpeakerTrackerOptions.bandOffsets`,
   * as a production session of that band); with `pooled`, the end-of-session claims pay them too (`pooledClaims`'s
   * `band`). Absent: every turn wideband, no offsets.
   */
  band?: { turn: VoiceBand; offsets: BandOffsets; pooled: boolean } | null;
  /**
   * The kind merge (bench/lib/speaker-kind-merge.ts): in a meeting-like session (the tracker's stay rate at least
   * `minStayRate`) the `clusters` merge runs on the utterances' `mergeVector` at `linkageTau` instead of the rule above
   * (which every other session keeps). Absent: none.
   */
  kindMerge?: KindMerge | null;
  /** Told each session's ids as the merge sees them, with each id's majority speaker (calibration pairs). */
  onSessionEnd?: (ids: SessionId[], owner: ReadonlyMap<string, string>) => void;
}

/**
 * Run the real tracker over `sessions` in order, prototypes persisted across them in a real (in-memory)
 * SQLite voiceprint store, with the production end-of-session merge after each session.
 */
export async function runSessions(sessions: EvalUtterance[][], modelId: string, o: RunOptions): Promise<{ attributions: Attribution[]; merges: MergeTally; revisions: RevisionTally; sessions: SessionEnd[] }> {
  const db = openDatabase(':memory:');
  const store = new SqliteVoiceprintStore(db);
  const mergeOn = o.mergeOn ?? 'clusters';
  const minUtterances = o.minUtterances ?? (mergeOn === 'clusters' ? 1 : 2);
  let next = 0;
  const attributions: Attribution[] = [];
  const tally = emptyTally();
  const revisions: RevisionTally = { moved: 0, right: 0 };
  const ends: SessionEnd[] = [];
  try {
    for (const [s, utts] of sessions.entries()) {
      const tracker = await SpeakerTracker.open({ tenant: 'eval', modelId, thresholds: o.thresholds, storeVoiceprints: true, store, createParticipant: async () => `p${++next}`, decision: o.decision ?? null, stay: o.stay ?? null, revise: o.revise ?? null, centroid: o.centroid ?? null, storedClaim: o.storedClaim ?? null, bandOffsets: o.band?.offsets ?? null });
      const band = o.band?.turn ?? 'wideband';
      const here: Attribution[] = [];
      const before = { ...tally };
      let previous: string | null = null;
      for (const u of utts) {
        const short: SpeakerAssignment | null = u.seconds < (o.shortSeconds ?? 0) ? await tracker.assignShort(u.vector, previous, u.seconds, band) : null;
        const a: SpeakerAssignment = short ?? (await tracker.assign(u.vector, u.seconds, { band }));
        previous = a.participantId;
        here.push({ speaker: u.speaker, id: a.participantId, session: s, seconds: u.seconds });
        for (const r of a.revised ?? []) {
          here[r.turn]!.id = r.into;
          revisions.moved++;
          if (here[r.turn]!.speaker === u.speaker) revisions.right++;
        }
      }
      {
        // With no merge (mergeTau null) the tally still counts the eligible id pairs, none joined.
        const stats = tracker.sessionStats();
        const candidates = mergeOn === 'prototype'
          ? tracker.prototypes().filter((p) => stats.some((x) => x.participantId === p.participantId))
            .map((p) => ({ participantId: p.participantId, prototype: p.vector, utterances: stats.find((x) => x.participantId === p.participantId)!.utterances, known: p.known }))
          : sessionMergeCandidates(tracker.prototypes(), stats);
        const owner = majoritySpeakers(here);
        const eligible = candidates.filter((c) => c.utterances >= minUtterances).map((c) => c.participantId);
        const bySpeaker = new Map<string, number>();
        for (const id of eligible) bySpeaker.set(owner.get(id)!, (bySpeaker.get(owner.get(id)!) ?? 0) + 1);
        const must = [...bySpeaker.values()].some((n) => n >= 2);
        for (let i = 0; i < eligible.length; i++)
          for (let j = i + 1; j < eligible.length; j++) if (owner.get(eligible[i]!) !== owner.get(eligible[j]!)) tally.differentPairs++;
        const sessionIds = sessionIdsFrom(tracker.prototypes(), stats);
        o.onSessionEnd?.(sessionIds, owner);
        const { stays, transitions } = tracker.stayCount();
        const absorb = absorptionFor(o.absorb, stays, transitions);
        const rule = o.mergeCalibrated ? { calibrated: o.mergeCalibrated } : { linkageTau: o.mergeTau ?? 1, ...(absorb ? { absorb } : {}) };
        const kind = kindMergeFor(o.kindMerge, stays, transitions);
        const merges = o.mergeTau === null ? [] : kind && mergeOn === 'clusters'
          ? clusterSessionIds(idsOnMergePrints(sessionIds, here.map((a, i) => ({ id: a.id, seconds: utts[i]!.seconds, print: utts[i]!.mergeVector ?? utts[i]!.vector }))), { linkageTau: kind.linkageTau, minUtterances })
          : mergeOn === 'clusters'
          ? clusterSessionIds(sessionIds, { ...rule, minUtterances })
          : planMerges(candidates, { mergeTau: o.mergeTau, minUtterances });
        let fired = false;
        for (const m of merges) {
          if (owner.get(m.from) === owner.get(m.into)) { tally.correctMerges++; fired = true; } else tally.wrongMerges++;
        }
        if (must) { tally.mustMergeSessions++; if (fired) tally.firedWhereMust++; }
        const known = new Set(tracker.prototypes().filter((p) => p.known).map((p) => p.participantId));
        await tracker.applyMerges(merges);
        const into = new Map(merges.map((m) => [m.from, m.into]));
        const final = (id: string): string => into.get(id) ?? id;
        for (let i = 0; i < eligible.length; i++)
          for (let j = i + 1; j < eligible.length; j++) {
            const joined = final(eligible[i]!) === final(eligible[j]!);
            if (owner.get(eligible[i]!) === owner.get(eligible[j]!)) { tally.samePairs++; if (joined) tally.samePairsJoined++; }
            else if (joined) tally.differentPairsJoined++;
          }
        for (const a of here) a.id = into.get(a.id) ?? a.id;
        if (o.pooledClaim && o.decision) {
          // After the clustering: the session's new ids claim stored ids from their pooled speech (not in the merge tally).
          const claims = pooledClaims(o.pooledClaim, o.decision.calibration, o.decision.logPriorNew, sessionIdsFrom(tracker.prototypes(), tracker.sessionStats()), tracker.prototypes(), [], o.band?.pooled ? { session: band, offsets: o.band.offsets } : null);
          await tracker.applyMerges(claims);
          const claimed = new Map(claims.map((m) => [m.from, m.into]));
          for (const a of here) a.id = claimed.get(a.id) ?? a.id;
        }
        if (o.recluster) recluster(here, utts, known, o.recluster, tally, () => `p${++next}`);
        ends.push({ stays, transitions, merges: tallyMinus(tally, before) });
      }
      attributions.push(...here);
    }
  } finally {
    db.close();
  }
  return { attributions, merges: tally, revisions, sessions: ends };
}

/** What `after` counted beyond `before` (one session's part of a run's tally). */
export function tallyMinus(after: MergeTally, before: MergeTally): MergeTally {
  const out = emptyTally();
  for (const k of Object.keys(out) as (keyof MergeTally)[]) out[k] = after[k] - before[k];
  return out;
}

/** The sum of tallies. */
export function tallySum(ts: readonly MergeTally[]): MergeTally {
  const out = emptyTally();
  for (const t of ts) for (const k of Object.keys(out) as (keyof MergeTally)[]) out[k] += t[k];
  return out;
}

/** Apply the utterance-level re-clustering to a session's attributions, counting its moves in `tally`. */
function recluster(here: Attribution[], utts: EvalUtterance[], known: ReadonlySet<string>, o: Omit<ReclusterOptions, 'known'>, tally: MergeTally, newId: () => string): void {
  const r = reclusterUtterances(here.map((a, i) => ({ key: String(i), participantId: a.id, vector: utts[i]!.vector, seconds: utts[i]!.seconds })), { ...o, known });
  const created = new Map(r.splits.map((x) => [x.label, newId()]));
  tally.splits += r.splits.length;
  for (const m of r.moves) here[Number(m.key)]!.id = created.get(m.into) ?? m.into;
  const owner = majoritySpeakers(here);
  for (const m of r.moves) {
    const a = here[Number(m.key)]!;
    tally.moved++;
    if (owner.get(a.id) === a.speaker) tally.movedRight++;
  }
}

/** Turns the first-turn revision moved in a run, and how many of them the founding turn's speaker spoke. */
export interface RevisionTally {
  moved: number;
  right: number;
}

/** The baseline that never tells voices apart: one new id per session for everyone in it. */
export function oneIdPerSession(sessions: EvalUtterance[][]): Attribution[] {
  return sessions.flatMap((utts, s) => utts.map((u) => ({ speaker: u.speaker, id: `session-${s}`, session: s, seconds: u.seconds })));
}

function majoritySpeakers(as: Attribution[]): Map<string, string> {
  const counts = new Map<string, Map<string, number>>();
  for (const a of as) {
    const m = counts.get(a.id) ?? new Map<string, number>();
    m.set(a.speaker, (m.get(a.speaker) ?? 0) + 1);
    counts.set(a.id, m);
  }
  return new Map([...counts.entries()].map(([id, m]) => [id, [...m.entries()].sort((x, y) => y[1] - x[1])[0]![0]]));
}
