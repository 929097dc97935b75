/**
 * The end-of-session merge of meeting-like sessions on other prints (issue #17 item 2, helper kindmerge;
 * bench/speaker-fuse.ts `--kind-merge`): one tracker (the shipped default's prints, its one voiceprint store) runs
 * every session live; at the end of a session whose tracker stayed with the voice just heard at least `minStayRate`
 * of its turn-to-turn transitions (meeting-like, as `absorptionFor`'s `minStayRate` reads the stay rate), the merge
 * clusters the session's ids on each utterance's merge print (the fused print) at `linkageTau` instead of the default
 * merge on the tracker's prints; every other session keeps the default merge. The ids pool the utterances the tracker
 * attributed to them (revisions applied), as the default merge pools `sessionStats`; the merges join ids in the one
 * store as the default merge's do.
 */
import type { SessionId } from '../../pipelines/speaker/session-clustering.js';
import { meetingLike } from '../../pipelines/speaker/small-id-absorption.js';

/** The kind merge: the stay-rate cut of a meeting-like session and the linkage threshold on the merge prints. */
export interface KindMerge {
  /** In [0, 1]: the base tracker's stay rate at or above which a session is meeting-like. */
  minStayRate: number;
  /** The average-linkage cosine threshold of the merge on the merge prints. */
  linkageTau: number;
}

/** Check a kind merge: a stay-rate cut in [0, 1], a cosine linkage threshold. */
export function validateKindMerge(k: KindMerge): void {
  if (!(k.minStayRate >= 0 && k.minStayRate <= 1)) throw new RangeError(`stay-rate cut must be in [0, 1], not ${k.minStayRate}`);
  if (!(k.linkageTau >= -1 && k.linkageTau <= 1)) throw new RangeError(`linkage threshold must be a cosine in [-1, 1], not ${k.linkageTau}`);
}

/** One arm of a kind-merge grid given as a pair: the merge print's fusion weight and the fixed linkage threshold. */
export interface KindMergeArm {
  /** In [0, 1]: the fusion weight of the merge print (1: the first embedder's print alone). */
  w: number;
  /** The average-linkage cosine threshold of the merge on those prints. */
  linkageTau: number;
}

/** `W:TAU,W:TAU,…` (bench/speaker-fuse.ts `--kind-merge-arms`) as arms, in order; each weight and threshold checked. */
export function parseKindMergeArms(text: string): KindMergeArm[] {
  return text.split(',').map((part) => {
    const [w, tau, ...rest] = part.trim().split(':').map((x) => (x.trim() === '' ? NaN : Number(x)));
    if (w === undefined || tau === undefined || rest.length > 0 || !Number.isFinite(w) || !Number.isFinite(tau)) throw new RangeError(`kind merge arms are W:TAU pairs, not "${part}"`);
    if (!(w >= 0 && w <= 1)) throw new RangeError(`fusion weight must be in [0, 1], not ${w}`);
    validateKindMerge({ minStayRate: 0, linkageTau: tau });
    return { w, linkageTau: tau };
  });
}

/** The kind merge to run at the end of a session with `stays` of `transitions`: `k` when meeting-like, else null. */
export function kindMergeFor(k: KindMerge | null | undefined, stays: number, transitions: number): KindMerge | null {
  if (!k) return null;
  validateKindMerge(k);
  return meetingLike(stays, transitions, k.minStayRate) ? k : null;
}

/**
 * `ids` (the session's ids as the default merge sees them) with each id's utterances replaced by the merge prints of
 * the utterances attributed to it (`attributed`, in session order); ids left without any are dropped.
 */
export function idsOnMergePrints(ids: readonly SessionId[], attributed: readonly { id: string; seconds: number; print: Float32Array }[]): SessionId[] {
  return ids
    .map((x) => ({ ...x, utterances: attributed.filter((a) => a.id === x.participantId && a.seconds > 0).map((a) => ({ vector: a.print, seconds: a.seconds })) }))
    .filter((x) => x.utterances.length > 0);
}
