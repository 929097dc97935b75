import type { GraphStore } from '../../graph/graph-store.js';
import type { TenantId, Utterance } from '../../graph/types.js';
import { ASKS } from './answered-question.js';

/** Options for `spreadToNeighbours`. */
export interface NeighbourOptions {
  /** Share of a turn's score the turns after it receive (replies often hold the answer); default 0.3. */
  weight?: number;
  /** Share of a turn's score the turns before it receive; default `weight`. */
  backWeight?: number;
  /** Candidates (best first) whose neighbours are looked at; default 30. */
  top?: number;
  /** Extra forward share (factor − 1) after a turn that ends in a question: its reply answers it; default 0. */
  questionBoost?: number;
  /** Turns either side that receive a share (the share halves with each step); default 1. */
  window?: number;
  /**
   * Divisor of the forward share for a later turn by the same speaker (a story carried on after the
   * partner's reaction), instead of halving per step; default: halving.
   */
  sameSpeakerDecay?: number;
  /**
   * Session prior: each turn of a session gains this share of the session's summed candidate
   * score (relative to the best session's), times the best candidate's score; default 0.
   */
  sessionWeight?: number;
}

/**
 * Context-aware scoring: evidence turns cluster (a question and its answer, a story told over
 * several turns), so each candidate turn gains `weight` × the scores of the turns just before and
 * after it in the same session, and those neighbours become candidates themselves. Returns new
 * scores, best first; `utterances` collects every utterance read (for hydration).
 */
export async function spreadToNeighbours(
  graph: Pick<GraphStore, 'getUtterances' | 'recentUtterances'>,
  tenant: TenantId,
  scored: { id: string; score: number }[],
  utterances: Map<string, Utterance>,
  options: NeighbourOptions = {},
): Promise<{ id: string; score: number }[]> {
  const weight = options.weight ?? 0.3;
  const backWeight = options.backWeight ?? weight;
  const window = options.window ?? 1;
  const askedBoost = options.questionBoost ?? 0;
  const sameDecay = options.sameSpeakerDecay;
  const top = scored.slice(0, options.top ?? 30);
  if ((weight <= 0 && backWeight <= 0) || top.length === 0) return scored;
  const missing = top.map((s) => s.id).filter((id) => !utterances.has(id));
  for (const u of await graph.getUtterances(tenant, missing)) utterances.set(u.id, u);
  const bySeq = new Map<string, Utterance>();
  const hits = top.map((s) => utterances.get(s.id)).filter((u): u is Utterance => u !== undefined);
  for (const u of await neighbourhood(graph, tenant, hits, window)) {
    bySeq.set(`${u.sessionId}|${u.seq}`, u);
    if (!utterances.has(u.id)) utterances.set(u.id, u);
  }
  const base = new Map(scored.map((s) => [s.id, s.score]));
  const out = new Map(base);
  for (const { id, score } of top) {
    const u = utterances.get(id);
    if (!u) continue;
    for (let d = 1; d <= window; d++) {
      const forward = ASKS.test(u.text) ? weight * (1 + askedBoost) : weight;
      for (const [seq, w] of [[u.seq - d, backWeight], [u.seq + d, forward]] as const) {
        const n = bySeq.get(`${u.sessionId}|${seq}`);
        const decay = sameDecay !== undefined && seq > u.seq && n?.speakerId === u.speakerId ? Math.min(sameDecay, 2 ** (d - 1)) : 2 ** (d - 1);
        if (n) out.set(n.id, (out.get(n.id) ?? 0) + (w * score) / decay);
      }
    }
  }
  const sessionWeight = options.sessionWeight ?? 0;
  if (sessionWeight > 0) {
    // Every candidate of a top session shares its prior, however far from the top turns.
    const unread = [...out.keys()].filter((id) => !utterances.has(id));
    for (const u of await graph.getUtterances(tenant, unread)) utterances.set(u.id, u);
    const perSession = new Map<string, number>();
    for (const { id, score } of top) {
      const s = utterances.get(id)?.sessionId;
      if (s) perSession.set(s, (perSession.get(s) ?? 0) + score);
    }
    const best = Math.max(...perSession.values());
    const head = top[0]?.score ?? 0;
    for (const [id, score] of out) {
      const s = utterances.get(id)?.sessionId;
      const share = s ? (perSession.get(s) ?? 0) / best : 0;
      out.set(id, score + sessionWeight * share * head);
    }
  }
  return [...out.entries()].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score);
}

/**
 * The turns within `window` of each of `hits` in its session (the hits included), one read per
 * stretch where their windows touch: what scoring needs, never a whole transcript, so a query costs
 * the same in a day-long session as in a short one. Gaps in a session's sequence (erased turns) are
 * covered: each read takes every turn up to the stretch's end, as many as the stretch could hold.
 */
async function neighbourhood(
  graph: Pick<GraphStore, 'recentUtterances'>, tenant: TenantId, hits: Utterance[], window: number,
): Promise<Utterance[]> {
  const seqs = new Map<string, number[]>();
  for (const u of hits) seqs.set(u.sessionId, [...(seqs.get(u.sessionId) ?? []), u.seq]);
  const stretches: { sessionId: string; from: number; to: number }[] = [];
  for (const [sessionId, list] of seqs) {
    list.sort((a, b) => a - b);
    for (const seq of list) {
      const last = stretches.at(-1);
      if (last && last.sessionId === sessionId && seq - window <= last.to + 1) last.to = seq + window;
      else stretches.push({ sessionId, from: seq - window, to: seq + window });
    }
  }
  const reads = await Promise.all(stretches.map((s) => graph.recentUtterances(tenant, s.sessionId, s.to - s.from + 1, s.to + 1)));
  return reads.flat();
}
