import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase, type SqliteDatabase } from '../../../graph/sqlite/database.js';
import { SqliteMemoryStore } from '../../../graph/sqlite/sqlite-memory-store.js';
import type { Utterance } from '../../../graph/types.js';
import { UseLiteEmbedder } from '../../../pipelines/embeddings/use-lite-embedder.js';
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

describe('affect', () => {
  const embedder = new UseLiteEmbedder();
  const classifier = new TextAffectClassifier(embedder);
  let db: SqliteDatabase;
  before(() => void (db = openDatabase(':memory:')));
  after(async () => {
    await embedder.close();
    db.close();
  });

  test('text emotion from the few-shot classifier on real USE-lite', async () => {
    const [joy, anger, sad] = await classifier.classify([
      'I am so happy, this is fantastic news!', 'I am absolutely furious with my landlord', 'I feel so sad since my grandmother died']);
    assert.equal(joy?.label, 'joy');
    assert.ok((joy?.valence ?? 0) > 0);
    assert.equal(anger?.label, 'anger');
    assert.ok((anger?.valence ?? 0) < 0);
    assert.equal(sad?.label, 'sadness');
  });

  test('classifying the vectors embed() gave for texts answers as classifying the texts', async () => {
    const texts = ['I am so happy, this is fantastic news!', 'I am absolutely furious with my landlord', 'The meeting is at noon.'];
    const byText = await classifier.classify(texts);
    const byVector = await classifier.classifyVectors(await embedder.embed(texts));
    assert.deepEqual(byVector.map((r) => r.label), byText.map((r) => r.label));
    for (const [i, r] of byVector.entries()) assert.ok(Math.abs(r.confidence - (byText[i]?.confidence ?? -1)) < 1e-6, `${texts[i]}: same confidence`);
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
