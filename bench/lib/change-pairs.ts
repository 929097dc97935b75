/**
 * The labelled statement pairs of bench/data/changes.jsonl and closures*.jsonl (a stored statement `a`, a later one
 * `b`, the decision `expect`), and the rules' decision on each read back from the real consolidation handler. Shared
 * by memory-changes (the rules alone) and change-classifier (a learned classifier beside the rules).
 */
import { readFileSync } from 'node:fs';
import type { TextEmbedder } from '../../pipelines/embeddings/text-embedder.js';
import type { MemoryOp } from '../../pipelines/memory/consolidate.js';
import type { Decider } from '../../pipelines/memory/decide.js';
import { consolidationRig, type MemoryBuild } from './memory-build.js';

export type Op = 'UPDATE' | 'DELETE' | 'KEEP' | 'ADD';
export interface Said { by: 'self' | 'other'; text: string }
/** `self`: the person's name (default Lena); the listener is Ben, and Ben reports to Cy when `by` is `other`. */
export interface Pair { id: number; family: string; self?: string; a: Said; others?: Said[]; b: Said; expect: Op }
/**
 * `aFacts` / `bFacts`: the contents, kinds and slots of the facts consolidation stored from the first and the second statement (closed
 * ones included), as the decider saw them: what a learned change model is trained on (bench/change-classifier.ts).
 */
export interface Result { pair: Pair; got: Op; othersClosed: boolean; split: string; aFacts: StoredShape[]; bFacts: StoredShape[] }
/** A stored fact as a change model reads it. */
export interface StoredShape { content: string; kind: string; slot: string | null }

export const OPS: Op[] = ['UPDATE', 'DELETE', 'KEEP', 'ADD'];

/** The pairs of one jsonl file; a pair without both texts, a known `expect` or a valid `self` throws, naming it. */
export function loadPairs(file: string): Pair[] {
  const pairs = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Pair);
  for (const p of pairs) {
    if (!p.a?.text || !p.b?.text || !OPS.includes(p.expect)) throw new Error(`${file}: pair ${p.id} needs a.text, b.text and expect in ${OPS.join(' / ')}`);
    if (p.self !== undefined && (typeof p.self !== 'string' || !/^[A-Z]/.test(p.self) || ['Ben', 'Cy'].includes(p.self))) {
      throw new Error(`${file}: pair ${p.id}: self must be a capitalised name other than Ben and Cy (the listener and the one Ben reports to)`);
    }
  }
  return pairs;
}

const shapeOf = (f: StoredShape): StoredShape => ({ content: f.content, kind: f.kind, slot: f.slot });

/** Every pair through one build's consolidation (its rules, or `decider`), each in a tenant of its own. */
export async function runPairs(build: MemoryBuild, embedder: TextEmbedder, pairs: Pair[], heldOut: boolean, decider?: Decider): Promise<Result[]> {
  const ops: MemoryOp[] = [];
  const { db, graph, memory, handler } = consolidationRig(build, embedder, (_t, _s, o) => ops.push(...o), decider);
  const results: Result[] = [];
  for (const pair of pairs) {
    const tenant = `c${pair.id}`;
    const lena = (await graph.createParticipant(tenant, { name: pair.self ?? 'Lena' })).id;
    const ben = (await graph.createParticipant(tenant, { name: 'Ben' })).id;
    const cy = (await graph.createParticipant(tenant, { name: 'Cy' })).id;
    const say = async (session: string, time: string, by: 'self' | 'other', text: string): Promise<string> => {
      await graph.openSession(tenant, session, time);
      const [speaker, addressee] = by === 'self' ? [lena, ben] : [ben, cy];
      const [u] = await graph.addUtterances(tenant, [{ sessionId: session, speakerId: speaker, addresseeIds: [addressee], text,
        startMs: null, endMs: null, time, confidence: null, audioRef: null }]);
      await handler({ id: `${tenant}-${u!.id}`, name: 'memory.consolidate', attempt: 1, data: { tenant, sessionId: session, utteranceId: u!.id } },
        new AbortController().signal);
      return u!.id;
    };
    const aId = await say('s1', '2026-10-01T10:00:00.000Z', pair.a.by, pair.a.text);
    const otherIds: string[] = [];
    for (const [i, o] of (pair.others ?? []).entries()) otherIds.push(await say('s1', `2026-10-01T10:0${i + 1}:00.000Z`, o.by, o.text));
    const before = ops.length;
    const bId = await say('s2', '2026-11-01T10:00:00.000Z', pair.b.by, pair.b.text);
    const factsOf = async (id: string) => memory.listFacts(tenant, { ids: (await memory.processedFacts(tenant, id)) ?? [], includeHistory: true });
    const aFacts = await factsOf(aId);
    const otherFacts = (await Promise.all(otherIds.map(factsOf))).flat();
    const bOps = ops.slice(before);
    const closedAs = (fs: typeof aFacts): Op | null => fs.some((f) => f.validTo !== null && f.supersededBy !== null) ? 'UPDATE'
      : fs.some((f) => f.validTo !== null) ? 'DELETE' : null;
    const othersClosed = closedAs(otherFacts) !== null;
    let got: Op = closedAs(aFacts) ?? closedAs(otherFacts) ?? 'ADD';
    if (got === 'ADD' && bOps.some((o) => o.op === 'KEEP' && aFacts.some((f) => f.id === o.memory_id))) got = 'KEEP';
    results.push({ pair, got, othersClosed, split: heldOut ? 'held-out' : pair.id % 2 === 1 ? 'dev' : 'held-out',
      aFacts: aFacts.map(shapeOf), bFacts: (await factsOf(bId)).map(shapeOf) });
  }
  db.close();
  return results;
}

/** A pair is right when the decision matches and no other open plan was closed. */
export const right = (r: Result): boolean => r.got === r.pair.expect && !r.othersClosed;
