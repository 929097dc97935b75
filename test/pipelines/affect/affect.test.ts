import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase, type SqliteDatabase } from '../../../graph/sqlite/database.js';
import { SqliteMemoryStore } from '../../../graph/sqlite/sqlite-memory-store.js';
import type { Utterance } from '../../../graph/types.js';
import { ONNX_TEXT_MODELS, OnnxTextEmbedder } from '../../../pipelines/embeddings/onnx-text-embedder.js';
import type { TextEmbedder } from '../../../pipelines/embeddings/text-embedder.js';
import { textModelInstalled } from '../../../pipelines/embeddings/text-embedder-choice.js';
import { UseLiteEmbedder } from '../../../pipelines/embeddings/use-lite-embedder.js';
import { modelsDir } from '../../../pipelines/models/repo-root.js';
import { TextAffectClassifier } from '../../../pipelines/affect/text-affect.js';
import { affectTarget } from '../../../pipelines/affect/attribution.js';
import { computeProsody, arousal } from '../../../pipelines/affect/prosody.js';
import { analyseTurnAffect } from '../../../pipelines/affect/affect-turn.js';
import { createPersonaConsolidator } from '../../../pipelines/affect/persona.js';

function tone(hz: number, seconds: number, amp: number): Float32Array {
  const x = new Float32Array(Math.round(16_000 * seconds));
  for (let i = 0; i < x.length; i++) x[i] = amp * Math.sin((2 * Math.PI * hz * i) / 16_000) + 0.3 * amp * Math.sin((4 * Math.PI * hz * i) / 16_000);
  return x;
}

const BGE = ONNX_TEXT_MODELS['bge-small-en-v1.5-q'];
const ENCODERS: { name: string; make: () => TextEmbedder; skip: string | undefined }[] = [
  { name: 'real USE-lite', make: () => new UseLiteEmbedder(), skip: undefined },
  {
    name: 'real bge-small-en-v1.5-q', make: () => new OnnxTextEmbedder({ spec: BGE, modelsDir: modelsDir() }),
    skip: textModelInstalled(modelsDir(), BGE.name) ? undefined : `${BGE.name} is not installed in ${modelsDir()}`,
  },
];

for (const encoder of ENCODERS) describe(`text emotion on the text embedder's own vectors (${encoder.name})`, { skip: encoder.skip }, () => {
  const embedder = encoder.make();
  const classifier = new TextAffectClassifier(embedder);
  after(() => embedder.close());

  test('the few-shot vote names the emotion', async () => {
    const [joy, anger, sad, calm] = await classifier.classify([
      'I am so happy, this is fantastic news!', 'I am absolutely furious with my landlord', 'I feel so sad since my grandmother died',
      'The meeting is on the second floor']);
    assert.equal(joy?.label, 'joy');
    assert.ok((joy?.valence ?? 0) > 0);
    assert.equal(anger?.label, 'anger');
    assert.ok((anger?.valence ?? 0) < 0);
    assert.equal(sad?.label, 'sadness');
    assert.equal(calm?.label, 'neutral');
  });

  test('classifying the vectors embed() gave for texts answers as classifying the texts', async () => {
    const texts = ['I am so happy, this is fantastic news!', 'I am absolutely furious with my landlord', 'The meeting is at noon.'];
    const byText = await classifier.classify(texts);
    const byVector = await classifier.classifyVectors(await embedder.embed(texts));
    assert.deepEqual(byVector.map((r) => r.label), byText.map((r) => r.label));
    for (const [i, r] of byVector.entries()) assert.ok(Math.abs(r.confidence - (byText[i]?.confidence ?? -1)) < 1e-6, `${texts[i]}: same confidence`);
  });
});

/**
 * Test double: a text's vector is fixed by hand (unit axes and their mixes), so which examples are nearest is
 * known exactly; counts how often the examples are embedded and can fail its first call.
 */
class AxisEmbedder implements TextEmbedder {
  readonly space = { model: 'axis-double', dimension: 3 };
  calls = 0;
  failNext = false;
  constructor(private readonly vectors: Record<string, number[]>) {}
  async embed(texts: string[]): Promise<Float32Array[]> {
    this.calls++;
    if (this.failNext) {
      this.failNext = false;
      throw new Error('model still loading');
    }
    return texts.map((t) => {
      const v = this.vectors[t];
      if (!v) throw new Error(`no vector for ${t}`);
      return Float32Array.from(v);
    });
  }
  async close(): Promise<void> {}
}

describe('the few-shot vote (a test double embedder with known vectors)', () => {
  const vectors = { j1: [1, 0, 0], j2: [0.9, 0.1, 0], a1: [0, 1, 0], a2: [0.1, 0.9, 0], n1: [0, 0, 1], q: [1, 0.05, 0], mid: [0.5, 0.5, 0.01] };
  const examples: [string, string][] = [['j1', 'joy'], ['j2', 'joy'], ['a1', 'anger'], ['a2', 'anger'], ['n1', 'neutral']];

  test('the k nearest examples vote; the confidence is the winning share; valence follows the label', async () => {
    const c = new TextAffectClassifier(new AxisEmbedder(vectors), { examples });
    const [r] = await c.classify(['q']);
    assert.equal(r?.label, 'joy');
    assert.ok(Math.abs((r?.confidence ?? 0) - 2 / 3) < 1e-9, `two of three votes: ${r?.confidence}`);
    assert.ok(Math.abs((r?.valence ?? 0) - 0.8 * (2 / 3)) < 1e-9);
    const [one] = await new TextAffectClassifier(new AxisEmbedder(vectors), { examples, k: 1 }).classify(['q']);
    assert.deepEqual([one?.label, one?.confidence], ['joy', 1]);
  });

  test('a tie goes to the label first in the examples', async () => {
    const [r] = await new TextAffectClassifier(new AxisEmbedder(vectors), { examples, k: 4 }).classify(['mid']);
    assert.deepEqual([r?.label, r?.confidence], ['joy', 0.5]);
    const flipped = [...examples.slice(2, 4), ...examples.slice(0, 2), examples[4]!];
    const [f] = await new TextAffectClassifier(new AxisEmbedder(vectors), { examples: flipped, k: 4 }).classify(['mid']);
    assert.deepEqual([f?.label, f?.confidence], ['anger', 0.5]);
  });

  test('the examples are embedded once; a failed first embedding is tried again', async () => {
    const e = new AxisEmbedder(vectors);
    e.failNext = true;
    const c = new TextAffectClassifier(e, { examples });
    await assert.rejects(c.classifyVectors([Float32Array.from([1, 0, 0])]), /still loading/);
    assert.equal((await c.classifyVectors([Float32Array.from([1, 0, 0])]))[0]?.label, 'joy');
    await c.classifyVectors([Float32Array.from([0, 1, 0])]);
    assert.equal(e.calls, 2, 'one failed call, then the examples once');
    assert.deepEqual(await c.classify([]), []);
  });

  test('no examples, or a k below 1, is refused', () => {
    assert.throws(() => new TextAffectClassifier(new AxisEmbedder(vectors), { examples: [] }), /at least one/);
    assert.throws(() => new TextAffectClassifier(new AxisEmbedder(vectors), { examples, k: 0 }), /positive integer/);
  });
});

describe('affect', () => {
  const embedder = new UseLiteEmbedder();
  const classifier = new TextAffectClassifier(embedder);
  let db: SqliteDatabase;
  before(() => void (db = openDatabase(':memory:')));
  after(async () => {
    await embedder.close();
    db.close();
  });

  test('attribution finds what the emotion is about', () => {
    assert.equal(affectTarget('I love my new job so much'), 'new job');
    assert.equal(affectTarget('I hate the traffic on the bridge'), 'traffic');
    assert.equal(affectTarget('I am so happy'), null);
  });

  test('prosody: pitch, energy, rate', () => {
    const low = computeProsody(tone(120, 1, 0.1), 3);
    const high = computeProsody(tone(220, 1, 0.3), 5);
    assert.ok(Math.abs((low.f0MeanHz ?? 0) - 120) < 6, `f0 ${low.f0MeanHz}`);
    assert.ok(Math.abs((high.f0MeanHz ?? 0) - 220) < 10, `f0 ${high.f0MeanHz}`);
    assert.ok(high.rms > low.rms * 2.5);
    assert.equal(high.wordsPerSecond, 5);
    assert.equal(computeProsody(new Float32Array(16_000), 0).f0MeanHz, null);
    assert.ok(arousal(high) > arousal(low));
  });

  test('per-turn evidence becomes a stable persona node only when it repeats', async () => {
    const memory = new SqliteMemoryStore(db);
    const consolidatePersona = createPersonaConsolidator(memory);
    const u = (id: string, text: string, sessionId: string): Utterance => ({ id, sessionId, speakerId: 'p_ana', addresseeIds: [], text,
      startMs: 0, endMs: 1000, time: '2026-01-01T00:00:00.000Z', confidence: null, audioRef: null, seq: 1 });
    const first = await analyseTurnAffect({ classifier, memory }, 't', u('u1', 'I absolutely love my new job, it is wonderful', 's1'), tone(180, 1, 0.2));
    assert.equal(first.target, 'new job');
    assert.ok(first.prosody && first.arousal !== null);
    assert.equal((await consolidatePersona('t', 'p_ana')).length, 0, 'one observation is not stable');
    await analyseTurnAffect({ classifier, memory }, 't', u('u2', 'I am so happy with my new job', 's2'));
    const stable = await consolidatePersona('t', 'p_ana');
    assert.equal(stable.length, 1);
    assert.equal(stable[0]?.target, 'new job');
    assert.equal(stable[0]?.label, 'joy');
    assert.ok((stable[0]?.valence ?? 0) > 0);
    const neutral = await analyseTurnAffect({ classifier, memory }, 't', u('u3', 'The meeting is on the second floor', 's2'));
    assert.equal(neutral.node, null);
  });
});
