import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TopK, VectorMatrix } from '../../graph/sqlite/vector-matrix.js';
import type { VectorFilter, VectorPayload } from '../../graph/vector-store.js';

const v = (...xs: number[]): Float32Array => Float32Array.from(xs);

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Float32 copy of `x` scaled to unit length, as the matrix stores it. */
function unit(x: Float32Array): Float32Array {
  let norm = 0;
  for (const a of x) norm += a ** 2;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  return Float32Array.from(x, (a) => a * scale);
}

/** Reference: score every row with a plain float64 loop, sort by score, ties in row order. */
function bruteForce(rows: { id: string; vec: Float32Array; payload: VectorPayload }[], query: Float32Array, k: number,
  accept: (p: VectorPayload) => boolean): { id: string; score: number }[] {
  const q = unit(query);
  const scored = rows.map((r, i) => {
    const x = unit(r.vec);
    let dot = 0;
    for (let d = 0; d < q.length; d++) dot += (q[d] as number) * (x[d] as number);
    return { id: r.id, score: dot, i, ok: accept(r.payload) };
  }).filter((r) => r.ok);
  scored.sort((a, b) => (b.score - a.score) || (a.i - b.i));
  return scored.slice(0, k).map(({ id, score }) => ({ id, score }));
}

function small(): VectorMatrix<VectorPayload> {
  const m = new VectorMatrix<VectorPayload>(3, 2);
  m.set('a', v(1, 0, 0), { layer: 'fact', speakerId: 'p1', addresseeIds: ['p2'], sessionId: 's1' });
  m.set('b', v(0.9, 0.1, 0), { layer: 'fact', speakerId: 'p2', addresseeIds: ['p1', 'p3'], sessionId: 's1' });
  m.set('c', v(0, 1, 0), { layer: 'interaction', speakerId: 'p1', sessionId: 's2' });
  m.set('d', v(-1, 0, 0), { layer: 'fact', speakerId: 'p3', sessionId: 's2' });
  return m;
}

const ids = (hits: { id: string }[]): string[] => hits.map((h) => h.id);

describe('TopK', () => {
  test('keeps the best offers, best first, earlier offer first among ties', () => {
    const t = new TopK(3);
    [[10, 0.5], [11, 0.9], [12, 0.5], [13, 0.1], [14, 0.9], [15, 0.5]].forEach(([row, score]) => t.offer(row as number, score as number));
    assert.deepEqual(t.sorted(), [{ row: 11, score: 0.9 }, { row: 14, score: 0.9 }, { row: 10, score: 0.5 }]);
    assert.equal(t.full, true);
    assert.equal(t.worst, 0.5);
  });

  test('capacity 0 keeps nothing; fewer offers than capacity keeps them all', () => {
    const none = new TopK(0);
    none.offer(1, 1);
    assert.deepEqual(none.sorted(), []);
    const some = new TopK(5);
    some.offer(1, 0.2);
    some.offer(2, 0.7);
    assert.deepEqual(some.sorted(), [{ row: 2, score: 0.7 }, { row: 1, score: 0.2 }]);
    assert.equal(some.full, false);
  });
});

describe('VectorMatrix', () => {
  test('ranks by cosine; k larger than the matrix returns every row; k <= 0 returns none', () => {
    const m = small();
    assert.deepEqual(ids(m.topK(v(2, 0, 0), 10)), ['a', 'b', 'c', 'd']);
    assert.ok(Math.abs((m.topK(v(2, 0, 0), 1)[0]?.score ?? 0) - 1) < 1e-6);
    assert.deepEqual(m.topK(v(1, 0, 0), 0), []);
    assert.deepEqual(m.topK(v(1, 0, 0), -1), []);
  });

  test('ties keep row order in a full scan and pool order in a pool scan', () => {
    const m = new VectorMatrix<VectorPayload>(2);
    for (const id of ['x', 'y', 'z', 'w']) m.set(id, v(1, 1), { layer: 'fact' });
    assert.deepEqual(ids(m.topK(v(1, 1), 2)), ['x', 'y']);
    assert.deepEqual(ids(m.topK(v(1, 1), 3, { ids: ['w', 'z', 'x', 'y'] })), ['w', 'z', 'x']);
  });

  test('payload filters match the stored payloads', () => {
    const m = small();
    const q = v(1, 0, 0);
    const cases: [VectorFilter, string[]][] = [
      [{ speakerId: 'p1' }, ['a', 'c']],
      [{ addresseeId: 'p1' }, ['b']],
      [{ addresseeId: 'p3' }, ['b']],
      [{ layer: 'interaction' }, ['c']],
      [{ layer: ['interaction', 'fact'] }, ['a', 'b', 'c', 'd']],
      [{ layer: [] }, []],
      [{ sessionId: 's2' }, ['c', 'd']],
      [{ sessionId: 's1', speakerId: 'p2' }, ['b']],
      [{ speakerId: 'nobody' }, []],
      [{ layer: 'persona' }, []],
      [{}, ['a', 'b', 'c', 'd']],
    ];
    for (const [filter, want] of cases) assert.deepEqual(ids(m.topK(q, 5, filter)), want, JSON.stringify(filter));
  });

  test('pools restrict the scan; unknown and repeated ids are ignored; an empty pool finds nothing', () => {
    const m = small();
    const q = v(1, 0, 0);
    assert.deepEqual(ids(m.topK(q, 5, { ids: ['d', 'c', 'zz', 'c'] })), ['c', 'd']);
    assert.deepEqual(ids(m.topK(q, 5, { ids: ['a', 'b', 'c'], speakerId: 'p1' })), ['a', 'c']);
    assert.deepEqual(m.topK(q, 5, { ids: [] }), []);
    assert.deepEqual(ids(m.topK(q, 1, { ids: ['d', 'b'] })), ['b']);
  });

  test('removal swaps the last row in with its payload and filter fields', () => {
    const m = small();
    m.remove('a');
    m.remove('missing');
    assert.equal(m.size, 3);
    assert.deepEqual(ids(m.topK(v(1, 0, 0), 5)), ['b', 'c', 'd']);
    assert.deepEqual(ids(m.topK(v(1, 0, 0), 5, { speakerId: 'p3' })), ['d']);
    assert.equal(m.topK(v(-1, 0, 0), 1)[0]?.payload.speakerId, 'p3');
    m.remove('d');
    m.remove('c');
    m.remove('b');
    assert.equal(m.size, 0);
    assert.deepEqual(m.topK(v(1, 0, 0), 5), []);
    m.set('e', v(0, 0, 1), { layer: 'fact', speakerId: 'p9' });
    assert.deepEqual(ids(m.topK(v(0, 0, 1), 5, { speakerId: 'p9' })), ['e']);
  });

  test('re-setting an id replaces its vector and filter fields', () => {
    const m = small();
    m.set('a', v(0, 0, 1), { layer: 'interaction', speakerId: 'p7' });
    assert.equal(m.size, 4);
    assert.deepEqual(ids(m.topK(v(0, 0, 1), 1)), ['a']);
    assert.deepEqual(ids(m.topK(v(1, 0, 0), 5, { speakerId: 'p1' })), ['c']);
    assert.deepEqual(ids(m.topK(v(1, 0, 0), 5, { speakerId: 'p7', layer: 'interaction' })), ['a']);
  });

  test('large scans and pools (SIMD pre-pass) return exactly the plain float64 results, ties and filters included', () => {
    const dim = 32;
    const rand = seeded(3);
    const m = new VectorMatrix<VectorPayload>(dim, 16);
    assert.equal(m.prepassEnabled, true);
    const rows: { id: string; vec: Float32Array; payload: VectorPayload }[] = [];
    const centres = Array.from({ length: 8 }, () => Float32Array.from({ length: dim }, () => rand() - 0.5));
    for (let i = 0; i < 6000; i++) {
      // Every tenth row repeats a centre exactly, so exact ties cross the top-k boundary.
      const c = centres[i % 8] as Float32Array;
      const vec = i % 10 === 0 ? Float32Array.from(c) : Float32Array.from(c, (x) => x + (rand() - 0.5) * 0.02);
      const payload: VectorPayload = { layer: i % 3 === 0 ? 'fact' : 'interaction', speakerId: `p${i % 7}`, addresseeIds: [`p${(i + 1) % 7}`] };
      rows.push({ id: `r${i}`, vec, payload });
      m.set(`r${i}`, vec, payload);
    }
    for (const id of ['r5', 'r17', 'r400']) {
      m.remove(id);
      rows.splice(rows.findIndex((r) => r.id === id), 1, rows.at(-1) as (typeof rows)[number]);
      rows.pop();
    }
    const filters: [VectorFilter | undefined, (p: VectorPayload) => boolean][] = [
      [undefined, () => true],
      [{ layer: 'fact' }, (p) => p.layer === 'fact'],
      [{ speakerId: 'p2' }, (p) => p.speakerId === 'p2'],
      [{ layer: ['interaction'], addresseeId: 'p4' }, (p) => p.layer === 'interaction' && (p.addresseeIds ?? []).includes('p4')],
    ];
    const pool = Array.from({ length: 700 }, () => `r${Math.floor(rand() * 6100)}`);
    const inPool = [...new Set(pool)].map((id) => rows.find((r) => r.id === id)).filter((r) => r !== undefined);
    for (let t = 0; t < 8; t++) {
      const query = t < 4 ? Float32Array.from(centres[t] as Float32Array) : Float32Array.from({ length: dim }, () => rand() - 0.5);
      for (const [filter, accept] of filters) {
        for (const k of [1, 5, 40]) {
          const got = m.topK(query, k, filter).map(({ id, score }) => ({ id, score }));
          assert.deepEqual(got, bruteForce(rows, query, k, accept), `query ${t}, k ${k}, ${JSON.stringify(filter)}`);
          const pooled = m.topK(query, k, { ...filter, ids: pool }).map(({ id, score }) => ({ id, score }));
          assert.deepEqual(pooled, bruteForce(inPool, query, k, accept), `pool, query ${t}, k ${k}, ${JSON.stringify(filter)}`);
        }
      }
    }
  });
});
