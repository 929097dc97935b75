import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { clusterSessionIds, sessionIdsFrom, type SessionId } from '../../../pipelines/speaker/session-clustering.js';
import { cannotLinkFrom } from '../../../pipelines/speaker/merge.js';
import { withNamedAddressees } from '../../../pipelines/speaker/vocative-links.js';
import { SpeakerTracker } from '../../../pipelines/speaker/speaker-tracker.js';

const at = (deg: number): Float32Array => Float32Array.from([Math.cos((deg * Math.PI) / 180), Math.sin((deg * Math.PI) / 180)]);
/** An id whose utterances point at the given angles (degrees), each `seconds` long. */
const id = (participantId: string, degrees: number[], seconds = 2, known = false): SessionId =>
  ({ participantId, known, utterances: degrees.map((d) => ({ vector: at(d), seconds })) });
const cos = (deg: number): number => Math.cos((deg * Math.PI) / 180);

describe('clusterSessionIds', () => {
  test('the band rule: in a phone session every join of the calibrated rule pays the offset; the cosine rule takes none', () => {
    // LLR = 10·cosine; linkage cos(20°) = 0.940, LLR 9.40.
    const calibrated = { calibration: { a: 0, b: 10, c: 0, e: 0 }, threshold: 9 };
    const ids = (): SessionId[] => [id('a', [0]), id('b', [20])];
    assert.equal(clusterSessionIds(ids(), { calibrated }).length, 1);
    assert.deepEqual(clusterSessionIds(ids(), { calibrated, bandOffset: 1 }), []);
    assert.equal(clusterSessionIds(ids(), { calibrated, bandOffset: 0.3 }).length, 1);
    assert.throws(() => clusterSessionIds(ids(), { calibrated, bandOffset: -1 }), /bandOffset must be/);
    assert.throws(() => clusterSessionIds(ids(), { linkageTau: 0.85, bandOffset: 1 }), /calibrated rule only/);
  });

  test('joins the fragments of one voice into the id with more speech, leaves another voice alone', () => {
    const out = clusterSessionIds([id('a', [0, 2, 4]), id('b', [3]), id('x', [90, 92])], { linkageTau: cos(10) });
    assert.deepEqual(out, [{ from: 'b', into: 'a' }]);
  });

  test('linkage is the mean over utterance pairs, not the closest pair', () => {
    // One utterance of b is close to a (5°), the other far (60°): the mean pair cosine stays below tau.
    const ids = [id('a', [0]), id('b', [5, 60])];
    assert.deepEqual(clusterSessionIds(ids, { linkageTau: cos(20) }), []);
    assert.equal(clusterSessionIds(ids, { linkageTau: 0.6 }).length, 1);
  });

  test('utterances weigh by voiced seconds', () => {
    const b = (short: number, long: number): SessionId => ({ participantId: 'b', known: false, utterances: [
      { vector: at(0), seconds: short }, { vector: at(70), seconds: long },
    ] });
    // Mostly far speech: no merge; mostly close speech: merge. Same angles, only the durations differ.
    assert.deepEqual(clusterSessionIds([id('a', [0], 10), b(0.5, 6)], { linkageTau: cos(30) }), []);
    assert.deepEqual(clusterSessionIds([id('a', [0], 10), b(6, 0.5)], { linkageTau: cos(30) }), [{ from: 'b', into: 'a' }]);
  });

  test('average linkage after a join: a third id joins only when close to the joined group as a whole', () => {
    // c is close enough to b (16°) but not to a and b together (mean of 24° and 16°): single linkage would join it.
    const out = clusterSessionIds([id('a', [0], 4), id('b', [8], 4), id('c', [24], 4)], { linkageTau: cos(20) });
    assert.deepEqual(out, [{ from: 'b', into: 'a' }]);
    const chain = clusterSessionIds([id('a', [0], 4), id('b', [4], 4), id('c', [10], 1)], { linkageTau: cos(12) });
    assert.deepEqual(chain.map((m) => m.from).sort(), ['b', 'c']);
    assert.ok(chain.every((m) => m.into === 'a'), JSON.stringify(chain));
  });

  test('cannot-links hold across joined groups; known ids survive and two known ids never join', () => {
    const apart = clusterSessionIds([id('a', [0]), id('b', [1]), id('c', [2])], { linkageTau: 0.9, cannotLink: [['a', 'c']] });
    assert.equal(apart.length, 1);
    assert.ok(!apart.some((m) => [m.from, m.into].sort().join() === 'a,c'));
    assert.deepEqual(clusterSessionIds([id('new', [0, 1, 2]), id('old', [1], 2, true)], { linkageTau: 0.9 }), [{ from: 'new', into: 'old' }]);
    assert.deepEqual(clusterSessionIds([id('o1', [0], 2, true), id('o2', [1], 2, true)], { linkageTau: 0.9 }), []);
    // The chain resolves to the final survivor: a and b first, then the group into the known k.
    const chain = clusterSessionIds([id('a', [0], 5), id('b', [0.5], 5), id('k', [1], 1, true)], { linkageTau: 0.99 });
    assert.ok(chain.every((m) => m.into === 'k'), JSON.stringify(chain));
  });

  test('people who addressed each other by name are never joined, so nobody is left addressing themself', () => {
    const people = [{ id: 'p_ana', name: 'Ana', aliases: [] }, { id: 'p_ben', name: 'Ben', aliases: [] }];
    const line = (speakerId: string, text: string, startMs: number) => ({ speakerId, text, startMs, endMs: startMs + 1000 });
    const ids = [id('p_ana', [0, 1]), id('p_ben', [0.5, 1.5])];
    const named = cannotLinkFrom(withNamedAddressees([line('p_ana', 'Ben, are you there?', 0), line('p_ben', 'Yes, go on.', 2000)], people));
    assert.deepEqual(clusterSessionIds(ids, { linkageTau: 0.9, cannotLink: named }), []);
    const plain = cannotLinkFrom(withNamedAddressees([line('p_ana', 'Are you there?', 0), line('p_ben', 'Yes, go on.', 2000)], people));
    assert.equal(clusterSessionIds(ids, { linkageTau: 0.9, cannotLink: plain }).length, 1);
  });

  test('linkage is the duration-weighted mean cosine over every pair, whatever the vectors\' lengths', () => {
    let seed = 3;
    const random = (): number => (seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5;
    const utterances = (n: number, bias: number): SessionId['utterances'] => Array.from({ length: n }, (_, i) => ({
      // Unnormalised vectors (norms 0.1–3) and one zero vector, which counts as cosine 0.
      vector: i === 0 ? new Float32Array(16) : Float32Array.from({ length: 16 }, (_, d) => (random() + (d === 0 ? bias : 0)) * (0.1 + 3 * (random() + 0.5))),
      seconds: 0.3 + 4 * (random() + 0.5),
    }));
    const a: SessionId = { participantId: 'a', known: false, utterances: utterances(7, 1) };
    const b: SessionId = { participantId: 'b', known: false, utterances: utterances(5, 1) };
    let sum = 0;
    let weight = 0;
    for (const x of a.utterances) for (const y of b.utterances) {
      let dot = 0;
      let nx = 0;
      let ny = 0;
      x.vector.forEach((v, d) => { dot += v * y.vector[d]!; nx += v * v; ny += y.vector[d]! ** 2; });
      sum += x.seconds * y.seconds * (nx > 0 && ny > 0 ? dot / Math.sqrt(nx * ny) : 0);
      weight += x.seconds * y.seconds;
    }
    const linkage = sum / weight;
    assert.equal(clusterSessionIds([a, b], { linkageTau: linkage - 1e-9 }).length, 1, `joins just below ${linkage}`);
    assert.deepEqual(clusterSessionIds([a, b], { linkageTau: linkage + 1e-9 }), [], `stays apart just above ${linkage}`);
  });

  test('a day-long session: each utterance is read a few times, not once per utterance of every other id', () => {
    let reads = 0;
    const counted = (participantId: string, degrees: number[]): SessionId => {
      const list = id(participantId, degrees).utterances;
      return { participantId, known: false, utterances: new Proxy(list, {
        get: (target, key, receiver) => {
          if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
          return Reflect.get(target, key, receiver) as unknown;
        },
      }) };
    };
    const out = clusterSessionIds([counted('a', Array.from({ length: 300 }, (_, i) => i % 5)), counted('b', Array.from({ length: 300 }, (_, i) => 1 + (i % 3)))], { linkageTau: cos(10) });
    assert.deepEqual(out, [{ from: 'b', into: 'a' }]);
    assert.ok(reads <= 10 * 600, `${reads} reads of 600 utterances`);
  });

  test('absorb: a small new id joins the nearest group at the lower linkage; whole voices still need linkageTau', () => {
    // The dominant voice at 0° (12 s), a split-off fragment of it at 40° (1.5 s), another voice at 120° (8 s).
    const ids = (): SessionId[] => [id('main', [0, 2, 4, 6], 3), id('split', [40], 1.5), id('other', [120, 122], 4)];
    assert.deepEqual(clusterSessionIds(ids(), { linkageTau: 0.9 }), []);
    const absorb = { maxSeconds: 4, minLinkage: 0.5 };
    assert.deepEqual(clusterSessionIds(ids(), { linkageTau: 0.9, absorb }), [{ from: 'split', into: 'main' }]);
    // 'other' (8 s) is not small: at linkage cos(118°) < 0 it stays apart even with minLinkage −1 for the small ones.
    assert.deepEqual(clusterSessionIds(ids(), { linkageTau: 0.9, absorb: { maxSeconds: 4, minLinkage: -1 } }), [{ from: 'split', into: 'main' }]);
    // Too far for minLinkage, or not small enough: no join.
    assert.deepEqual(clusterSessionIds(ids(), { linkageTau: 0.9, absorb: { maxSeconds: 4, minLinkage: 0.8 } }), []);
    assert.deepEqual(clusterSessionIds(ids(), { linkageTau: 0.9, absorb: { maxSeconds: 1.5, minLinkage: 0.5 } }), []);
  });

  test('absorb: the small id goes into the other even when that holds less speech than some, a known small id is never absorbed, cannot-links hold', () => {
    // Both small: the shorter one is absorbed into the longer.
    assert.deepEqual(clusterSessionIds([id('a', [0], 1), id('b', [30], 2)], { linkageTau: 0.95, absorb: { maxSeconds: 3, minLinkage: 0.5 } }), [{ from: 'a', into: 'b' }]);
    // A known id with little speech in this session is not small: two ids far apart stay apart.
    assert.deepEqual(clusterSessionIds([id('old', [0], 1, true), id('b', [50, 50, 50], 3)], { linkageTau: 0.95, absorb: { maxSeconds: 3, minLinkage: 0.5 } }), []);
    // A small new id next to a known one joins it, and the known id survives.
    assert.deepEqual(clusterSessionIds([id('old', [0], 5, true), id('b', [40], 1)], { linkageTau: 0.95, absorb: { maxSeconds: 3, minLinkage: 0.5 } }), [{ from: 'b', into: 'old' }]);
    assert.deepEqual(clusterSessionIds([id('a', [0], 5), id('b', [40], 1)], { linkageTau: 0.95, absorb: { maxSeconds: 3, minLinkage: 0.5 }, cannotLink: [['a', 'b']] }), []);
  });

  test('absorb: settings are checked, and it is for the cosine rule only', () => {
    const ids = [id('a', [0]), id('b', [10])];
    assert.throws(() => clusterSessionIds(ids, { linkageTau: 0.9, absorb: { maxSeconds: 0, minLinkage: 0.5 } }), /maxSeconds/);
    assert.throws(() => clusterSessionIds(ids, { linkageTau: 0.9, absorb: { maxSeconds: 3, minLinkage: 2 } }), /minLinkage/);
    const calibrated = { calibration: { a: 0, b: 10, c: 0, e: 0 }, threshold: 9 };
    assert.throws(() => clusterSessionIds(ids, { calibrated, absorb: { maxSeconds: 3, minLinkage: 0.5 } }), /cosine rule/);
  });

  test('minimum utterances; a threshold that is not a cosine is an error', () => {
    assert.deepEqual(clusterSessionIds([id('a', [0, 1]), id('b', [2])], { linkageTau: 0.9, minUtterances: 2 }), []);
    assert.equal(clusterSessionIds([id('a', [0, 1]), id('b', [2])], { linkageTau: 0.9 }).length, 1);
    assert.throws(() => clusterSessionIds([], { linkageTau: Number.NaN }), RangeError);
    assert.throws(() => clusterSessionIds([], { linkageTau: 1.5 }), RangeError);
  });

  test('the tracker keeps each utterance with its voiced seconds for the clustering, through applyMerges', async () => {
    let n = 0;
    const tr = await SpeakerTracker.open({ tenant: 't', modelId: 'm', thresholds: { tauMatch: 0.999, tauUpdate: 0.9999, alpha: 0.1 },
      storeVoiceprints: false, createParticipant: async () => `p${++n}` });
    await tr.assign(at(0), 3);
    await tr.assign(at(3), 0.5);
    await assert.rejects(() => tr.assign(at(2), 0), RangeError);
    const ids = sessionIdsFrom(tr.prototypes(), tr.sessionStats());
    assert.deepEqual(ids.map((x) => [x.participantId, x.utterances.map((u) => u.seconds)]), [['p1', [3]], ['p2', [0.5]]]);
    const merges = clusterSessionIds(ids, { linkageTau: 0.99 });
    assert.deepEqual(merges, [{ from: 'p2', into: 'p1' }]);
    await tr.applyMerges(merges);
    assert.deepEqual(tr.sessionStats().map((s) => [s.participantId, s.embeddings.map((e) => e.seconds)]), [['p1', [3, 0.5]]]);
  });
});
