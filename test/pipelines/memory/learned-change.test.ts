import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { Fact } from '../../../graph/memory-store.js';
import type { TextEmbedder } from '../../../pipelines/embeddings/text-embedder.js';
import type { Decider, Decision, DecisionInput } from '../../../pipelines/memory/decide.js';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import {
  CHANGE_CLASSES, CHANGE_MODEL_FORMAT, changeModelFor, changeModelPath, changeProbabilities, featureWidth, LearnedChangeDecider,
  parseChangeModel, weighable, type ChangeModelFile,
} from '../../../pipelines/memory/learned-change.js';

/**
 * A model on the `cos` features ([cosine, by-other]) over 2-dimensional vectors: the weights make UPDATE win by far when
 * the two facts are close in meaning and ADD when they are far, so each test steers the answer by the vectors alone.
 */
function cosModel(over: Partial<ChangeModelFile> = {}): ChangeModelFile {
  return {
    format: CHANGE_MODEL_FORMAT, embedder: 'toy', dimension: 2, features: 'cos', classes: [...CHANGE_CLASSES], cut: 0.6, floor: 0.3,
    mean: [0, 0], scale: [1, 1],
    // Rows UPDATE, DELETE, KEEP, ADD: weight on cos, weight on by-other, bias.
    weights: [[12, 0, -6], [0, 0, -4], [0, 0, -4], [-12, 0, 6]],
    ...over,
  };
}

/** An embedder with fixed vectors per text, counting its calls. */
function toyEmbedder(vectors: Record<string, [number, number]>): TextEmbedder & { calls: number } {
  return {
    space: { model: 'toy', dimension: 2 },
    calls: 0,
    async embed(texts: string[]) {
      this.calls += 1;
      return texts.map((t) => {
        const v = vectors[t];
        if (!v) throw new Error(`no toy vector for ${t}`);
        return Float32Array.from(v);
      });
    },
    async close() {},
  };
}

const stored = (content: string, id = 'f1'): Fact => ({
  id, content, speakerId: 'lena', addresseeIds: [], subjectId: 'lena', kind: 'fact', layer: 'fact', slot: null, value: null,
  time: '2026-10-01T10:00:00.000Z', eventTime: null, referIds: ['u1'], validFrom: '2026-10-01T10:00:00.000Z', validTo: null,
  validUntil: null, planObject: null, supersedes: null, supersededBy: null, confidence: 0.9, sessionId: 's1', source: 'test',
  createdAt: '2026-10-01T10:00:00.000Z',
} as unknown as Fact);

const input = (content: string, candidates: Fact[], speakerId = 'lena'): DecisionInput => ({
  fact: { content, subjectId: 'lena', speakerId, referIds: ['u2'] } as unknown as ExtractedFact,
  candidates: candidates.map((fact, i) => ({ fact, score: 0.9 - i * 0.1 })),
  retractedFacts: [],
});

const rulesSaying = (decision: Decision): Decider => ({ decide: async () => decision });
const addRules = rulesSaying({ op: 'ADD' });
const toy = (over?: Partial<ChangeModelFile>) => parseChangeModel(cosModel(over), 'toy model');

test('learned change: where the rules add, a confident change against the nearest fact is taken, naming it', async () => {
  const embedder = toyEmbedder({ 'Lena lives in Lisbon': [1, 0], 'Lena lives in Porto now': [0.95, 0.312], 'Lena has a dog': [1, 0] });
  const decider = new LearnedChangeDecider(addRules, toy(), embedder);
  assert.deepEqual(await decider.decide(input('Lena lives in Porto now', [stored('Lena lives in Lisbon', 'f1'), stored('Lena has a dog', 'f2')])),
    { op: 'UPDATE', targetId: 'f1' });
  const p = changeProbabilities(toy(), Float32Array.from([1, 0]), Float32Array.from([0.95, 0.312]), false);
  assert.ok(p.UPDATE > 0.9 && Math.abs(Object.values(p).reduce((a, b) => a + b, 0) - 1) < 1e-9, JSON.stringify(p));
});

test('learned change: DELETE and KEEP name their target as the rules would', async () => {
  const embedder = toyEmbedder({ a: [1, 0], b: [1, 0] });
  const del = parseChangeModel(cosModel({ weights: [[0, 0, -4], [12, 0, -6], [0, 0, -4], [-12, 0, 6]] }), 'delete model');
  assert.deepEqual(await new LearnedChangeDecider(addRules, del, embedder).decide(input('b', [stored('a', 'f9')])), { op: 'DELETE', targetIds: ['f9'] });
  const keep = parseChangeModel(cosModel({ weights: [[0, 0, -4], [0, 0, -4], [12, 0, -6], [-12, 0, 6]] }), 'keep model');
  assert.deepEqual(await new LearnedChangeDecider(addRules, keep, embedder).decide(input('b', [stored('a', 'f9')])), { op: 'KEEP', targetId: 'f9' });
});

test('learned change: the rules keep their own change, and the model is not even asked', async () => {
  const embedder = toyEmbedder({});
  for (const decision of [{ op: 'DELETE', targetIds: ['f2'] }, { op: 'KEEP', targetId: 'f2' }, { op: 'NOOP', reason: 'value_not_held' }] as Decision[]) {
    assert.deepEqual(await new LearnedChangeDecider(rulesSaying(decision), toy(), embedder).decide(input('x', [stored('y')])), decision);
  }
  assert.equal(embedder.calls, 0);
});

test('learned change: no candidate, a cosine under the floor, an answer under the cut or an ADD answer leave the rules\' ADD', async () => {
  const embedder = toyEmbedder({ near: [1, 0], same: [1, 0], far: [0, 1], mid: [0.5, 0.866] });
  const decider = new LearnedChangeDecider(addRules, toy(), embedder);
  assert.deepEqual(await decider.decide(input('same', [])), { op: 'ADD' });
  assert.equal(embedder.calls, 0, 'nothing to weigh, nothing embedded');
  // cos 0 < floor 0.3.
  assert.deepEqual(await decider.decide(input('far', [stored('near')])), { op: 'ADD' });
  // cos 0.5 ≥ floor; UPDATE and ADD tie (12·0.5 − 6 = 0 = −12·0.5 + 6): p(UPDATE) ≈ 0.5 < cut 0.6.
  const p = changeProbabilities(toy(), Float32Array.from([1, 0]), Float32Array.from([0.5, 0.866]), false);
  assert.ok(p.UPDATE < 0.6, JSON.stringify(p));
  assert.deepEqual(await decider.decide(input('mid', [stored('near')])), { op: 'ADD' });
  // With the floor raised over the pair's cosine, even a confident answer is not taken.
  assert.deepEqual(await new LearnedChangeDecider(addRules, toy({ floor: 0.99, cut: 0.5 }), toyEmbedder({ a: [1, 0], b: [0.95, 0.312] }))
    .decide(input('b', [stored('a')])), { op: 'ADD' });
  // An ADD answer: the ADD row wins at cosine 0.
  const add = parseChangeModel(cosModel({ floor: -1 }), 'floorless');
  assert.deepEqual(await new LearnedChangeDecider(addRules, add, embedder).decide(input('far', [stored('near')])), { op: 'ADD' });
});

test('learned change: the by-other flag reaches the model (a report by someone else)', async () => {
  // UPDATE only when told by someone else: the by-other weight carries it.
  const byOther = parseChangeModel(cosModel({ weights: [[0, 12, -6], [0, 0, -4], [0, 0, -4], [0, -12, 6]] }), 'by-other model');
  const embedder = toyEmbedder({ a: [1, 0], b: [1, 0] });
  const decider = new LearnedChangeDecider(addRules, byOther, embedder);
  assert.deepEqual(await decider.decide(input('b', [stored('a')], 'lena')), { op: 'ADD' });
  assert.deepEqual(await decider.decide(input('b', [stored('a')], 'ben')), { op: 'UPDATE', targetId: 'f1' });
});

test('learned change: a malformed model is refused, naming the problem', () => {
  const bad: [Partial<ChangeModelFile> | Record<string, unknown>, RegExp][] = [
    [{ format: 'other/1' }, /format is "other\/1"/],
    [{ classes: ['ADD', 'UPDATE', 'DELETE', 'KEEP'] as never }, /classes must be UPDATE, DELETE, KEEP, ADD in that order/],
    [{ cut: 1.5 }, /cut must be a probability/],
    [{ floor: 2 }, /floor must be a cosine/],
    [{ features: 'nope' as never }, /features must be one of/],
    [{ mean: [0] }, /mean and scale must each hold 2 finite numbers/],
    [{ weights: [[1, 2, 3]] }, /weights must hold 4 rows of 3 finite numbers/],
    [{ weights: [[1, 2, Number.NaN], [0, 0, 0], [0, 0, 0], [0, 0, 0]] }, /weights must hold/],
    [{ dimension: 0 }, /dimension must be a positive integer/],
  ];
  for (const [over, why] of bad) assert.throws(() => parseChangeModel({ ...cosModel(), ...over }, 'm.json'), (err: Error) => /^m\.json: not a change model: /.test(err.message) && why.test(err.message), JSON.stringify(over));
  assert.throws(() => parseChangeModel(null, 'm.json'), /not a JSON object/);
  assert.equal(featureWidth('ab+interact', 384), 1538);
  assert.equal(featureWidth('ab+interact+shape', 384), 1543);
});

test('learned change: a model file is found by its embedder; none, a bad file or another embedder\'s are told apart', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'parley-change-model-'));
  try {
    const file = path.join(dir, 'toy-change.json');
    assert.equal(changeModelFor({ model: 'toy', dimension: 2 }, file), null, 'no file: no model');
    writeFileSync(file, JSON.stringify(cosModel()));
    assert.equal(changeModelFor({ model: 'toy', dimension: 2 }, file)?.cut, 0.6);
    assert.throws(() => changeModelFor({ model: 'other', dimension: 2 }, file), /trained for toy \(2 dimensions\), not other \(2\)/);
    writeFileSync(file, '{ not json');
    assert.throws(() => changeModelFor({ model: 'toy', dimension: 2 }, file), /toy-change\.json: not a change model: /);
    assert.throws(() => new LearnedChangeDecider(addRules, toy(), { ...toyEmbedder({}), space: { model: 'toy', dimension: 3 } }),
      /the model reads toy \(2\), the embedder is toy \(3\)/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('learned change: the shipped model of the default text embedder loads and is valid', () => {
  const model = changeModelFor({ model: 'bge-small-en-v1.5-q', dimension: 384 });
  assert.ok(model, `expected ${changeModelPath('bge-small-en-v1.5-q')}`);
  assert.equal(model.embedder, 'bge-small-en-v1.5-q');
  assert.ok(model.cut > 0 && model.cut <= 1 && model.floor > -1 && model.floor < 1);
  assert.equal(changeModelFor({ model: 'use-lite', dimension: 512 }), null, 'no model for USE-lite: the rules decide alone');
});

test('learned change: a temporary state, a state said ahead, or a fact another clause changes by the rules is left to the rules', async () => {
  const embedder = toyEmbedder({ 'Lena lives in Lisbon': [1, 0], 'Lena is in Porto': [0.95, 0.312] });
  const decider = new LearnedChangeDecider(addRules, toy(), embedder);
  const base = input('Lena is in Porto', [stored('Lena lives in Lisbon')]);
  assert.deepEqual(await decider.decide(base), { op: 'UPDATE', targetId: 'f1' }, 'the pair alone is a confident change');
  assert.deepEqual(await decider.decide({ ...base, ownEnd: '2026-12-05T00:00:00.000Z' }), { op: 'ADD' }, 'a stay until Friday');
  assert.deepEqual(await decider.decide({ ...base, time: '2026-12-01T10:00:00.000Z', fact: { ...base.fact, validFrom: '2027-01-01T00:00:00.000Z' } }),
    { op: 'ADD' }, 'a state from next month');
  // The rules close f1 on another fact of the same words: the model stands down on this one; a sibling closing f7 does not hold it back.
  assert.deepEqual(await decider.decide({ ...base, siblingTargets: ['f1'] }), { op: 'ADD' });
  assert.deepEqual(await decider.decide({ ...base, siblingTargets: ['f7'] }), { op: 'UPDATE', targetId: 'f1' });
  // What the rules alone close or keep, for consolidation's pre-pass over a turn's facts.
  assert.deepEqual(await new LearnedChangeDecider(rulesSaying({ op: 'UPDATE', targetId: 'f3', alsoReplaces: ['f4'] }), toy(), embedder).ruledTargets(base), ['f3', 'f4']);
  assert.deepEqual(await decider.ruledTargets(base), []);
});

test('learned change: only the new fact\'s own subject\'s fact, not a stay, not one of the same words, is weighed', async () => {
  const embedder = toyEmbedder({ 'Lena lives in Lisbon': [1, 0], 'Lena is in Porto': [0.95, 0.312] });
  const decider = new LearnedChangeDecider(addRules, toy(), embedder);
  const base = input('Lena is in Porto', [stored('Lena lives in Lisbon')]);
  assert.deepEqual(await decider.decide(base), { op: 'UPDATE', targetId: 'f1' });
  const theirs = { ...stored('Lena lives in Lisbon'), subjectId: 'ben' } as Fact;
  assert.deepEqual(await decider.decide({ ...base, candidates: [{ fact: theirs, score: 0.9 }] }), { op: 'ADD' }, 'Ben\'s fact, a candidate for the rules\' own checks');
  const stay = { ...stored('Lena lives in Lisbon'), validUntil: '2026-12-05T00:00:00.000Z' } as Fact;
  assert.deepEqual(await decider.decide({ ...base, candidates: [{ fact: stay, score: 0.9 }] }), { op: 'ADD' }, 'a stay is the rules\' to end');
  const sameTurn = { ...stored('Lena lives in Lisbon'), referIds: ['u2'] } as Fact;
  assert.deepEqual(await decider.decide({ ...base, candidates: [{ fact: sameTurn, score: 0.9 }] }), { op: 'ADD' }, 'written from the same words');
  assert.equal(weighable(base)?.id, 'f1');
  assert.equal(weighable({ ...base, candidates: [] }), null);
});
