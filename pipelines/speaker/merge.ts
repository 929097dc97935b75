import { cosine, l2Normalise } from './speaker-embedder.js';

/** One speaker id as the end-of-session merge sees it. */
export interface MergeCandidate {
  participantId: string;
  /** L2-normalised prototype (or this session's mean embedding). */
  prototype: Float32Array;
  /** Utterances attributed to the id (this session plus stored updates, as the caller decides). */
  utterances: number;
  /** True when the id existed before this session; two known ids are never merged here. */
  known: boolean;
}

/** Options of `planMerges`. */
export interface MergeOptions {
  /** Prototype cosine needed (stricter than the tracker's tauMatch). */
  mergeTau: number;
  /** Each side needs at least this many utterances. Default 2. */
  minUtterances?: number;
  /** Pairs that must never be merged (overlapping speech, one addressed the other by name). */
  cannotLink?: Iterable<readonly [string, string]>;
}

/**
 * Conservative end-of-session merge of fragmented ids. Greedy agglomeration: repeatedly join the most
 * similar pair of groups whose prototypes have cosine ≥ mergeTau, each with enough utterances, with
 * no cannot-link between any of their members and not both holding a known id. Returns `{from, into}`
 * pairs with `into` the surviving id (the known id, else the one with more utterances); apply them
 * in order.
 */
export function planMerges(candidates: MergeCandidate[], options: MergeOptions): { from: string; into: string }[] {
  const minUtt = options.minUtterances ?? 2;
  const forbidden = new Set<string>();
  for (const [a, b] of options.cannotLink ?? []) forbidden.add(`${a}\u0000${b}`).add(`${b}\u0000${a}`);
  type Group = { root: MergeCandidate; members: string[]; proto: Float32Array; utterances: number; known: boolean };
  const groups: Group[] = candidates
    .filter((c) => c.utterances >= minUtt)
    .map((c) => ({ root: c, members: [c.participantId], proto: Float32Array.from(c.prototype), utterances: c.utterances, known: c.known }));
  const merges: { from: string; into: string }[] = [];
  for (;;) {
    let best: [number, number, number] | null = null;
    for (let i = 0; i < groups.length; i++)
      for (let j = i + 1; j < groups.length; j++) {
        const gi = groups[i]!;
        const gj = groups[j]!;
        if (gi.known && gj.known) continue;
        if (gi.members.some((a) => gj.members.some((b) => forbidden.has(`${a}\u0000${b}`)))) continue;
        const s = cosine(gi.proto, gj.proto);
        if (s >= options.mergeTau && (!best || s > best[2])) best = [i, j, s];
      }
    if (!best) return merges;
    const a = groups[best[0]]!;
    const b = groups[best[1]]!;
    const [into, from] = a.known || (!b.known && a.utterances >= b.utterances) ? [a, b] : [b, a];
    const total = into.utterances + from.utterances;
    into.proto = l2Normalise(Float32Array.from(into.proto, (x, k) => (x * into.utterances + from.proto[k]! * from.utterances) / total));
    into.utterances = total;
    into.known ||= from.known;
    into.members.push(...from.members);
    for (const m of from.members) {
      const prior = merges.filter((x) => x.into === m);
      for (const p of prior) p.into = into.root.participantId;
    }
    merges.push({ from: from.root.participantId, into: into.root.participantId });
    groups.splice(groups.indexOf(from), 1);
  }
}

/**
 * Merge candidates of one session: every id heard in it, represented by the mean of all of this
 * session's embeddings attributed to it (a pooled, steadier estimate than the online prototype), with
 * its utterance count; `known` when the id existed before the session.
 */
export function sessionMergeCandidates(
  prototypes: readonly { participantId: string; known: boolean }[],
  stats: readonly { participantId: string; utterances: number; embeddingSum: Float32Array }[],
): MergeCandidate[] {
  const known = new Map(prototypes.map((p) => [p.participantId, p.known]));
  return stats
    .filter((s) => known.has(s.participantId) && s.utterances > 0)
    .map((s) => ({ participantId: s.participantId, prototype: l2Normalise(Float32Array.from(s.embeddingSum)), utterances: s.utterances, known: known.get(s.participantId)! }));
}

/** A stored utterance as far as cannot-link evidence goes. */
export interface UtteranceEvidence {
  speakerId: string;
  startMs: number | null;
  endMs: number | null;
  /** Addressees named explicitly (vocative), not inferred replies. */
  namedAddresseeIds?: string[];
}

/**
 * Pairs of participants the application told apart (each holds an external id, and they differ):
 * never one person, however alike their voices.
 */
export function externalIdCannotLinks(people: { id: string; externalId: string | null }[]): [string, string][] {
  const told = people.filter((p) => p.externalId);
  return told.flatMap((a, i) => told.slice(i + 1).filter((b) => b.externalId !== a.externalId).map((b): [string, string] => [a.id, b.id]));
}

/** Pairs of ids that overlapped in time or addressed each other by name: never the same person. */
export function cannotLinkFrom(utterances: UtteranceEvidence[]): [string, string][] {
  const pairs = new Map<string, [string, string]>();
  const add = (a: string, b: string): void => {
    if (a !== b) pairs.set([a, b].sort().join('\u0000'), [a, b]);
  };
  for (const u of utterances) for (const n of u.namedAddresseeIds ?? []) add(u.speakerId, n);
  const timed = utterances.filter((u) => u.startMs !== null && u.endMs !== null).sort((x, y) => x.startMs! - y.startMs!);
  for (let i = 0; i < timed.length; i++)
    for (let j = i + 1; j < timed.length && timed[j]!.startMs! < timed[i]!.endMs!; j++) add(timed[i]!.speakerId, timed[j]!.speakerId);
  return [...pairs.values()];
}
