import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cannotLinkFrom, externalIdCannotLinks, planMerges, type MergeCandidate } from '../../../pipelines/speaker/merge.js';

const at = (deg: number): Float32Array => Float32Array.from([Math.cos((deg * Math.PI) / 180), Math.sin((deg * Math.PI) / 180)]);
const c = (id: string, deg: number, utterances: number, known = false): MergeCandidate => ({ participantId: id, prototype: at(deg), utterances, known });

describe('planMerges', () => {
  test('merges a close fragment into the id with more utterances', () => {
    assert.deepEqual(planMerges([c('a', 0, 5), c('b', 10, 3), c('x', 90, 4)], { mergeTau: 0.9 }), [{ from: 'b', into: 'a' }]);
  });
  test('no merge below mergeTau or with too few utterances', () => {
    assert.deepEqual(planMerges([c('a', 0, 5), c('b', 40, 5)], { mergeTau: 0.9 }), []);
    assert.deepEqual(planMerges([c('a', 0, 5), c('b', 5, 1)], { mergeTau: 0.9 }), []);
    assert.deepEqual(planMerges([c('a', 0, 5), c('b', 5, 1)], { mergeTau: 0.9, minUtterances: 1 }), [{ from: 'b', into: 'a' }]);
  });
  test('never merges ids that overlapped or addressed each other, even transitively', () => {
    assert.deepEqual(planMerges([c('a', 0, 5), c('b', 5, 5)], { mergeTau: 0.9, cannotLink: [['a', 'b']] }), []);
    const out = planMerges([c('a', 0, 5), c('b', 4, 5), c('d', 8, 2)], { mergeTau: 0.9, cannotLink: [['a', 'd']] });
    assert.equal(out.length, 1);
    assert.ok(!out.some((m) => (m.from === 'd' && m.into === 'a') || (m.from === 'a' && m.into === 'd')));
  });
  test('a known id survives; two known ids are never merged; chains resolve to the final root', () => {
    assert.deepEqual(planMerges([c('new', 0, 9), c('old', 5, 2, true)], { mergeTau: 0.9 }), [{ from: 'new', into: 'old' }]);
    assert.deepEqual(planMerges([c('o1', 0, 9, true), c('o2', 2, 9, true)], { mergeTau: 0.9 }), []);
    const chain = planMerges([c('a', 0, 3), c('b', 1, 2), c('k', 3, 2, true)], { mergeTau: 0.99 });
    assert.ok(chain.every((m) => m.into === 'k'), JSON.stringify(chain));
    assert.deepEqual(chain.map((m) => m.from).sort(), ['a', 'b']);
  });
});

describe('cannotLinkFrom', () => {
  test('pairs from overlapping speech and vocative address, not from plain turn-taking', () => {
    const pairs = cannotLinkFrom([
      { speakerId: 'a', startMs: 0, endMs: 1000 },
      { speakerId: 'b', startMs: 900, endMs: 2000 },
      { speakerId: 'c', startMs: 2500, endMs: 3000, namedAddresseeIds: ['a'] },
      { speakerId: 'd', startMs: 3100, endMs: 4000 },
    ]).map((p) => [...p].sort().join('-'));
    assert.deepEqual(pairs.sort(), ['a-b', 'a-c']);
  });
});

describe('externalIdCannotLinks', () => {
  test('two ids holding different external ids are never merged, however alike their voices', () => {
    const people = [
      { id: 'a', externalId: '+15550001' }, { id: 'b', externalId: '+15550002' }, { id: 'c', externalId: null },
    ];
    const apart = externalIdCannotLinks(people);
    assert.deepEqual(apart, [['a', 'b']]);
    // Same voice (same prototype): without the pair a and b would merge; with it only the unlabelled c joins.
    assert.deepEqual(planMerges([c('a', 0, 5), c('b', 1, 4)], { mergeTau: 0.9 }), [{ from: 'b', into: 'a' }]);
    assert.deepEqual(planMerges([c('a', 0, 5), c('b', 1, 4)], { mergeTau: 0.9, cannotLink: apart }), []);
    assert.deepEqual(planMerges([c('a', 0, 5), c('c', 1, 4)], { mergeTau: 0.9, cannotLink: apart }), [{ from: 'c', into: 'a' }]);
  });
});
