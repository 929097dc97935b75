/**
 * Embedded store search micro-benchmark: exact cosine top-k over N × 512 vectors (default 100k)
 * and FTS5 BM25 over N documents (light queries, matching a few hundred documents, and a heavy one
 * matching every document), each with and without payload filters and with candidate pools of
 * 50 / 500 / 3000 ids. The baseline is the previous implementation measured in the same run:
 * `BaselineMatrix` below (sort per insert, a payload predicate per row) and the previous single
 * joined FTS5 query. Also checks that the new code returns the baseline's results (vectors: same
 * ids, scores and order; BM25: same scores, same ids apart from ties at the cut, see the note on
 * dropped common words below).
 * Vector cases also time the server's WebAssembly SIMD pre-pass against a usearch pre-pass
 * (`bench/challengers/`), both in `VectorMatrix`, in the same run, alternating run by run.
 * Run: node dist/bench/store-search.js [--rows 100000] [--runs 30] [--vectors-only]
 */
import { openDatabase, toJson } from '../graph/sqlite/database.js';
import { SqliteLexicalIndex, toFtsQuery } from '../graph/sqlite/sqlite-lexical-index.js';
import { VectorMatrix } from '../graph/sqlite/vector-matrix.js';
import { usearchPrepass } from './challengers/usearch-prepass.js';
import type { LexicalFilter } from '../graph/lexical-index.js';
import type { VectorFilter, VectorPayload } from '../graph/vector-store.js';
import type { SqliteDatabase } from '../graph/sqlite/database.js';
import { argString } from './lib/cli.js';

// ---- Baseline: the previous implementation, copied verbatim in behaviour. ----

/** The previous `VectorMatrix` (sort of the best list per insert, a payload predicate per row). */
class BaselineMatrix<P> {
  private data: Float32Array;
  private ids: string[] = [];
  private payloads: P[] = [];
  private readonly rowOf = new Map<string, number>();

  constructor(private readonly dimension: number, capacity = 1024) {
    this.data = new Float32Array(dimension * capacity);
  }

  set(id: string, vector: Float32Array, payload: P): void {
    let row = this.rowOf.get(id);
    if (row === undefined) {
      row = this.ids.length;
      if ((row + 1) * this.dimension > this.data.length) {
        const grown = new Float32Array(this.data.length * 2);
        grown.set(this.data);
        this.data = grown;
      }
      this.ids.push(id);
      this.payloads.push(payload);
      this.rowOf.set(id, row);
    } else {
      this.payloads[row] = payload;
    }
    const offset = row * this.dimension;
    let norm = 0;
    for (let i = 0; i < this.dimension; i++) norm += (vector[i] ?? 0) ** 2;
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let i = 0; i < this.dimension; i++) this.data[offset + i] = (vector[i] ?? 0) * scale;
  }

  topK(query: Float32Array, k: number, accept: (payload: P) => boolean, only?: string[]): { id: string; score: number; payload: P }[] {
    if (k <= 0) return [];
    let qNorm = 0;
    for (let i = 0; i < this.dimension; i++) qNorm += (query[i] ?? 0) ** 2;
    const q = new Float32Array(this.dimension);
    const scale = qNorm > 0 ? 1 / Math.sqrt(qNorm) : 0;
    for (let i = 0; i < this.dimension; i++) q[i] = (query[i] ?? 0) * scale;
    const best: { row: number; score: number }[] = [];
    const consider = (row: number): void => {
      if (!accept(this.payloads[row] as P)) return;
      const offset = row * this.dimension;
      let dot = 0;
      for (let i = 0; i < this.dimension; i++) dot += (q[i] as number) * (this.data[offset + i] as number);
      if (best.length < k) {
        best.push({ row, score: dot });
        best.sort((a, b) => b.score - a.score);
      } else if (dot > (best[best.length - 1] as { score: number }).score) {
        best[best.length - 1] = { row, score: dot };
        best.sort((a, b) => b.score - a.score);
      }
    };
    if (only) {
      for (const id of new Set(only)) {
        const row = this.rowOf.get(id);
        if (row !== undefined) consider(row);
      }
    } else {
      for (let row = 0; row < this.ids.length; row++) consider(row);
    }
    return best.map(({ row, score }) => ({ id: this.ids[row] as string, score, payload: this.payloads[row] as P }));
  }
}

/** The previous store's payload predicate. */
function baselineMatches(payload: VectorPayload, filter: VectorFilter | undefined): boolean {
  if (!filter) return true;
  if (filter.layer !== undefined) {
    const layers = Array.isArray(filter.layer) ? filter.layer : [filter.layer];
    if (!layers.includes(payload.layer)) return false;
  }
  if (filter.sessionId !== undefined && payload.sessionId !== filter.sessionId) return false;
  if (filter.speakerId !== undefined && payload.speakerId !== filter.speakerId) return false;
  if (filter.addresseeId !== undefined && !(payload.addresseeIds ?? []).includes(filter.addresseeId)) return false;
  return true;
}

/** The previous lexical search: one FTS5 query joined to the docs table, every filter in SQL. */
function baselineLexical(db: SqliteDatabase, tenant: string, fts: string, k: number, filter?: LexicalFilter): { id: string; score: number }[] {
  const where = ['d.tenant = @tenant'];
  const params: Record<string, unknown> = { tenant, fts, k };
  if (filter?.layer !== undefined) {
    where.push('d.layer IN (SELECT value FROM json_each(@layers))');
    params.layers = toJson(Array.isArray(filter.layer) ? filter.layer : [filter.layer]);
  }
  if (filter?.speakerId !== undefined) {
    where.push('d.speaker_id = @speakerId');
    params.speakerId = filter.speakerId;
  }
  if (filter?.ids !== undefined) {
    where.push('d.id IN (SELECT value FROM json_each(@ids))');
    params.ids = toJson(filter.ids);
  }
  // The tenant's own FTS5 table (one per tenant since BM25 statistics are per tenant).
  const table = db.prepare('SELECT fts FROM lexical_tenants WHERE tenant = ?').pluck().get(tenant) as string;
  const rows = db.prepare(`SELECT d.id AS id, bm25(${table}) AS rank FROM ${table}
      JOIN lexical_docs d ON d.rowid = ${table}.rowid
      WHERE ${table} MATCH @fts AND ${where.join(' AND ')} ORDER BY rank LIMIT @k`)
    .all(params) as { id: string; rank: number }[];
  return rows.map((r) => ({ id: r.id, score: -r.rank }));
}

// ---- Benchmark ----

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
function timed<T>(runs: number, f: (i: number) => T): { ms: number[]; out: T[] } {
  const ms: number[] = [];
  const out: T[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    out.push(f(i));
    ms.push(performance.now() - t0);
  }
  return { ms, out };
}

const rows = Number(argString('rows', '100000'));
const runs = Number(argString('runs', '30'));
const dim = 512;
const rand = seeded(11);
const topics = 2000;
const unit = (): Float32Array => Float32Array.from({ length: dim }, () => rand() - 0.5);
const bases = Array.from({ length: topics }, unit);
const people = Array.from({ length: 20 }, (_, i) => `p${i}`);
const base = new BaselineMatrix<VectorPayload>(dim);
const next = new VectorMatrix<VectorPayload>(dim);
const challenger = new VectorMatrix<VectorPayload>(dim, 1024, usearchPrepass);
const ids: string[] = [];
for (let i = 0; i < rows; i++) {
  const t = bases[Math.floor(rand() * topics)] as Float32Array;
  const v = Float32Array.from(t, (x) => x + (rand() - 0.5) * 0.3);
  const payload: VectorPayload = {
    layer: i % 10 === 0 ? 'fact' : 'interaction', sessionId: `s${Math.floor(i / 100)}`,
    speakerId: people[i % 20], addresseeIds: [people[(i + 1) % 20] as string],
  };
  ids.push(`u_${i}`);
  base.set(`u_${i}`, v, payload);
  next.set(`u_${i}`, v, payload);
  challenger.set(`u_${i}`, v, payload);
}
const queries = Array.from({ length: 16 }, () => Float32Array.from(bases[Math.floor(rand() * topics)] as Float32Array, (x) => x + (rand() - 0.5) * 0.3));
const pool = (n: number): string[] => Array.from({ length: n }, () => ids[Math.floor(rand() * rows)] as string);
const pools = { 50: Array.from({ length: 8 }, () => pool(50)), 500: Array.from({ length: 8 }, () => pool(500)), 3000: Array.from({ length: 8 }, () => pool(3000)) };

const table: string[][] = [];
const vectorTable: string[][] = [];
let mismatches = 0;
let leftOut = 0;
const vectorCase = (name: string, filterOf: (i: number) => VectorFilter | undefined): void => {
  const b = timed(runs, (i) => {
    const f = filterOf(i);
    return base.topK(queries[i % queries.length] as Float32Array, 5, (p) => baselineMatches(p, f), f?.ids);
  });
  // Alternate the two pre-passes run by run, so load on a shared machine falls on both alike.
  const u: number[] = [];
  const n: number[] = [];
  for (let i = 0; i < runs; i++) {
    const q = queries[i % queries.length] as Float32Array;
    const first = i % 2 === 0 ? [challenger, u] as const : [next, n] as const;
    const second = i % 2 === 0 ? [next, n] as const : [challenger, u] as const;
    const want = JSON.stringify((b.out[i] ?? []).map((h) => [h.id, h.score]));
    for (const [matrix, ms] of [first, second]) {
      const t0 = performance.now();
      const hits = matrix.topK(q, 5, filterOf(i));
      ms.push(performance.now() - t0);
      if (want !== JSON.stringify(hits.map((h) => [h.id, h.score]))) mismatches++;
    }
  }
  table.push([`vector top-5, ${name}`, pct(b.ms, 50).toFixed(2), pct(b.ms, 95).toFixed(2), pct(n, 50).toFixed(2), pct(n, 95).toFixed(2)]);
  vectorTable.push([name, pct(n, 50).toFixed(2), `${Math.min(...n).toFixed(2)}–${pct(n, 95).toFixed(2)}`,
    pct(u, 50).toFixed(2), `${Math.min(...u).toFixed(2)}–${pct(u, 95).toFixed(2)}`, (pct(u, 50) / pct(n, 50)).toFixed(2)]);
};
vectorCase(`${rows} rows, no filter`, () => undefined);
vectorCase(`${rows} rows, empty filter {}`, () => ({}));
vectorCase(`${rows} rows, speaker`, (i) => ({ speakerId: people[i % 20] as string }));
vectorCase(`${rows} rows, layer + addressee`, (i) => ({ layer: ['interaction'], addresseeId: people[i % 20] as string }));
for (const size of [50, 500, 3000] as const) {
  vectorCase(`pool of ${size}`, (i) => ({ ids: pools[size][i % 8] as string[] }));
  vectorCase(`pool of ${size} + speaker`, (i) => ({ ids: pools[size][i % 8] as string[], speakerId: people[i % 20] as string }));
}

const vectorsOnly = process.argv.includes('--vectors-only');
const db = openDatabase(':memory:');
const lexical = new SqliteLexicalIndex(db);
const words = ['weather', 'sister', 'morning', 'coffee', 'meeting', 'cat', 'couch', 'bread', 'train', 'doctor'];
const names = Array.from({ length: topics }, (_, i) => words[i] ?? `project${i}`);
const phrases = ['again last week', 'and it went well', 'but nobody agreed', 'for the third time', 'over dinner'];
const docs = ids.map((id, i) => ({
  id, text: `Person${i % 20} talked about the ${names[Math.floor(rand() * topics)]} ${phrases[i % phrases.length]}`,
  layer: i % 10 === 0 ? 'fact' : 'interaction', sessionId: `s${Math.floor(i / 100)}`,
  speakerId: people[i % 20] as string, addresseeIds: [people[(i + 1) % 20] as string],
}));
for (let i = 0; i < docs.length && !vectorsOnly; i += 10_000) await lexical.index('default', docs.slice(i, i + 10_000));
/** "about" is in every document: FTS5 must rank every row. The others match a few hundred. */
const heavy = ['tell me about the last meeting'];
const light = ['my cat likes to sleep on the couch', 'please call my sister tomorrow morning', 'the doctor said i need more rest',
  'we should buy more bread and milk'];
const layers = ['interaction', 'fact', 'profile'];
const lexicalCase = async (name: string, texts: string[], filterOf: (i: number) => LexicalFilter | undefined): Promise<void> => {
  const b = timed(runs, (i) => baselineLexical(db, 'default', toFtsQuery(texts[i % texts.length] as string) ?? '', 20, filterOf(i)));
  const nms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const hits = await lexical.search('default', texts[i % texts.length] as string, 20, filterOf(i));
    nms.push(performance.now() - t0);
    // Ties in BM25 have no set order: compare the score lists and the ids above the last score.
    // Words in half of all documents or more are dropped from the query (FTS5 gives them an idf
    // of 1e-6): scores may move by such a word's share, and documents that matched only such
    // words (score < 1e-3) may be left out.
    const want = (b.out[i] ?? []).filter((h) => h.score >= 1e-3);
    leftOut += (b.out[i] ?? []).length - want.length;
    const got = hits.slice(0, want.length);
    const last = want.at(-1)?.score ?? 0;
    const strict = (hs: { id: string; score: number }[]): string[] => hs.filter((h) => h.score > last + 1e-4).map((h) => h.id).sort();
    const scoresMatch = got.length === want.length && want.every((h, j) => Math.abs(h.score - (got[j]?.score ?? Infinity)) < 1e-4);
    if (!scoresMatch || JSON.stringify(strict(want)) !== JSON.stringify(strict(got))) mismatches++;
  }
  table.push([`BM25 top-20, ${name}`, pct(b.ms, 50).toFixed(2), pct(b.ms, 95).toFixed(2), pct(nms, 50).toFixed(2), pct(nms, 95).toFixed(2)]);
};
for (const [kind, texts] of vectorsOnly ? [] : [['light', light], ['heavy', heavy]] as const) {
  await lexicalCase(`${kind} query, ${rows} docs, no filter`, texts, () => undefined);
  await lexicalCase(`${kind} query, ${rows} docs, layers (retriever)`, texts, () => ({ layer: layers }));
  await lexicalCase(`${kind} query, ${rows} docs, layers + speaker`, texts, (i) => ({ layer: layers, speakerId: people[i % 20] as string }));
  for (const size of [50, 500, 3000] as const) {
    await lexicalCase(`${kind} query, pool of ${size} + layers`, texts, (i) => ({ layer: layers, ids: pools[size][i % 8] as string[] }));
  }
}
db.close();

const head = ['case', 'baseline p50', 'baseline p95', 'new p50', 'new p95'];
console.log(`\nstore search, ${rows} rows × ${dim} dims, ${runs} runs per case (ms); queries cycle over fixed sets; new = WebAssembly pre-pass (${next.prepassEnabled ? 'on' : 'off'})`);
console.log(`| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|`);
for (const r of table) console.log(`| ${r.join(' | ')} |`);
const vhead = ['vector top-5 case', 'WebAssembly p50', 'WebAssembly min–p95', 'usearch p50', 'usearch min–p95', 'p50 ratio (usearch / Wasm)'];
console.log(`\npre-pass side by side, same matrices and queries, runs alternated (ms); usearch pre-pass: ${challenger.prepassEnabled ? 'on' : 'off'}`);
console.log(`| ${vhead.join(' | ')} |\n|${vhead.map(() => '---').join('|')}|`);
for (const r of vectorTable) console.log(`| ${r.join(' | ')} |`);
console.log(`results differing from the baseline: ${mismatches}; BM25 hits left out that matched only words in half of all documents: ${leftOut}`);
