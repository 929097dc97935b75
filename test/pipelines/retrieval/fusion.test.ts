import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fuseRanked, reciprocalRankFusion, scoreGap, type RankedList } from '../../../pipelines/retrieval/rrf.js';

const ids = (out: { id: string }[]): string[] => out.map((o) => o.id);
const scoreOf = (out: { id: string; score: number }[], id: string): number | undefined => out.find((o) => o.id === id)?.score;

// BM25 puts `a` far ahead of everything; dense barely prefers `b` over `a`.
const bm25: RankedList = { ids: ['a', 'c', 'd', 'b'], scores: [12, 3, 2.5, 2] };
const dense: RankedList = { ids: ['b', 'a', 'c', 'd'], scores: [0.81, 0.8, 0.5, 0.4] };

describe('fusion of ranked lists (fuseRanked)', () => {
  test('rrf is reciprocal rank fusion, whatever the scores', () => {
    assert.deepEqual(fuseRanked([bm25, dense], { k: 5 }), reciprocalRankFusion([bm25, dense], 5));
    assert.deepEqual(fuseRanked([bm25, dense], { method: 'rrf', k: 5 }), reciprocalRankFusion([bm25, dense], 5));
  });

  test('rank fusion ties a wide win with a narrow one; CombSUM over min-max scores keeps the margin', () => {
    // BM25: `a` far ahead; dense: `b` barely ahead of `c`. Each is first in one list and third in the other.
    const lists: RankedList[] = [{ ids: ['a', 'c', 'b', 'd'], scores: [12, 3, 2.9, 2] }, { ids: ['b', 'c', 'a', 'd'], scores: [0.81, 0.8, 0.5, 0.4] }];
    const rrf = reciprocalRankFusion(lists, 5);
    assert.equal(scoreOf(rrf, 'a'), scoreOf(rrf, 'b'));
    const sum = fuseRanked(lists, { method: 'combsum-minmax' });
    assert.deepEqual(ids(sum), ['a', 'b', 'c', 'd']);
    // a: 1 (BM25 best) + (0.5 − 0.4) / (0.81 − 0.4); b: (2.9 − 2) / (12 − 2) + 1.
    assert.ok(Math.abs(scoreOf(sum, 'a')! - (1 + 0.1 / 0.41)) < 1e-9);
    assert.ok(Math.abs(scoreOf(sum, 'b')! - (0.09 + 1)) < 1e-9);
  });

  test('min-max: an id missing from a list scores 0 there; weights scale each list', () => {
    const out = fuseRanked([{ ids: ['x', 'y'], scores: [4, 2] }, { ids: ['z', 'y'], scores: [1, 0], weight: 3 }], { method: 'combsum-minmax' });
    assert.deepEqual(out, [{ id: 'z', score: 3 }, { id: 'x', score: 1 }, { id: 'y', score: 0 }]);
  });

  test('CombMNZ multiplies the sum by the number of lists holding the id', () => {
    const lists: RankedList[] = [{ ids: ['x', 'y', 'w'], scores: [10, 5, 0] }, { ids: ['y', 'v', 'u'], scores: [1, 0.9, 0] }];
    const sum = fuseRanked(lists, { method: 'combsum-minmax' });
    const mnz = fuseRanked(lists, { method: 'combmnz-minmax' });
    assert.equal(scoreOf(sum, 'y'), 1.5);
    assert.equal(scoreOf(mnz, 'y'), 3);
    assert.equal(scoreOf(mnz, 'x'), 1);
    assert.deepEqual(ids(mnz).slice(0, 2), ['y', 'x']);
  });

  test('z scores are standard scores within the list, shifted so its lowest is 0', () => {
    const out = fuseRanked([{ ids: ['p', 'q', 'r'], scores: [3, 2, 1] }], { method: 'combsum-z' });
    const sd = Math.sqrt(2 / 3);
    assert.deepEqual(ids(out), ['p', 'q', 'r']);
    assert.ok(Math.abs(scoreOf(out, 'p')! - 2 / sd) < 1e-9);
    assert.ok(Math.abs(scoreOf(out, 'q')! - 1 / sd) < 1e-9);
    assert.equal(scoreOf(out, 'r'), 0);
  });

  test('a list without scores (or with one missing) is read by rank: 1 / (k + rank), normalised', () => {
    const out = fuseRanked([{ ids: ['p', 'q', 'r'] }], { method: 'combsum-minmax', k: 1 });
    // 1/2, 1/3, 1/4 → 1, (1/3 − 1/4) / (1/2 − 1/4) = 1/3, 0.
    assert.ok(Math.abs(scoreOf(out, 'q')! - 1 / 3) < 1e-9);
    const short = fuseRanked([{ ids: ['p', 'q', 'r'], scores: [1, 9] }], { method: 'combsum-minmax', k: 1 });
    assert.deepEqual(ids(short), ['p', 'q', 'r']);
  });

  test('a duplicate id keeps its first (best) score; all-equal scores give 1 each', () => {
    const out = fuseRanked([{ ids: ['p', 'q', 'p'], scores: [5, 1, 0] }], { method: 'combsum-minmax' });
    assert.deepEqual(out, [{ id: 'p', score: 1 }, { id: 'q', score: 0 }]);
    assert.deepEqual(fuseRanked([{ ids: ['p', 'q'], scores: [2, 2] }], { method: 'combsum-z' }), [{ id: 'p', score: 1 }, { id: 'q', score: 1 }]);
  });

  test('scoreGap: how far the best score stands out of the list, 0 to 1', () => {
    assert.equal(scoreGap(bm25), (12 - 3) / (12 - 2));
    assert.equal(scoreGap({ ids: ['a', 'b', 'c'], scores: [1, 1, 0] }), 0);
    assert.equal(scoreGap({ ids: ['a', 'b'], scores: [5, 1] }), 0, 'fewer than three: no gap read');
    assert.equal(scoreGap({ ids: ['a', 'b', 'c'] }), 0, 'no scores');
    assert.equal(scoreGap({ ids: ['a', 'b', 'c'], scores: [2, 2, 2] }), 0);
  });

  test('rrf-gap: RRF with each list weighted 1 + gapWeight × its gap, so the list whose head stands out wins the tie', () => {
    // Two lists that disagree on the head: under RRF `a` and `b` tie; BM25's head stands out, dense's does not.
    const lists: RankedList[] = [bm25, { ids: ['b', 'a', 'c', 'd'], scores: [0.81, 0.8, 0.79, 0.4] }];
    const plain = reciprocalRankFusion([{ ids: ['a', 'b'] }, { ids: ['b', 'a'] }], 5);
    assert.equal(plain[0]!.score, plain[1]!.score);
    const out = fuseRanked(lists, { method: 'rrf-gap', k: 5, gapWeight: 1 });
    assert.equal(ids(out)[0], 'a');
    const g1 = scoreGap(lists[0]!);
    const g2 = scoreGap(lists[1]!);
    assert.ok(Math.abs(scoreOf(out, 'a')! - ((1 + g1) / 6 + (1 + g2) / 7)) < 1e-12);
    assert.deepEqual(fuseRanked(lists, { method: 'rrf-gap', k: 5, gapWeight: 0 }), reciprocalRankFusion(lists, 5));
  });

  test('an unknown method or a negative gap weight is refused', () => {
    assert.throws(() => fuseRanked([bm25], { method: 'combmax' as never }), RangeError);
    assert.throws(() => fuseRanked([bm25], { method: 'rrf-gap', gapWeight: -1 }), RangeError);
  });
});
