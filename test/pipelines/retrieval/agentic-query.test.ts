import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Utterance } from '../../../graph/types.js';
import { answerQuestion } from '../../../pipelines/retrieval/agentic-query.js';
import { Retriever } from '../../../pipelines/retrieval/retriever.js';
import { memoryFixture, SNIPPETS, type MemoryFixture } from './memory-fixture.js';

const T = 't_agentic';

describe('agentic question answering (deterministic policy; real USE-lite, SQLite, consolidation)', () => {
  let f: MemoryFixture;
  let retriever: Retriever;
  const said: Utterance[] = [];
  const idOf = (fragment: string): string => {
    const u = said.find((s) => s.text.includes(fragment));
    assert.ok(u, fragment);
    return u.id;
  };

  before(async () => {
    f = await memoryFixture(T, ['Ana', 'Ben', 'Clara']);
    for (const s of SNIPPETS) said.push(await f.say(s.session, s.speaker, s.to, s.text, s.time));
    retriever = new Retriever(f, f.entities, f.embedder, { minPool: 1 });
  });
  after(async () => {
    await f.close();
  });

  test('answers with source turns (facts mapped to their utterances), rounds and timings', async () => {
    const a = await answerQuestion(retriever, T, { question: 'What did Ana promise Ben?', k: 3 });
    assert.ok(a.evidence.length > 0 && a.evidence.length <= 3);
    assert.equal(a.evidence[0]?.id, idOf('I promise I will send you the budget report'));
    for (const item of a.evidence) {
      assert.equal(item.layer, 'interaction');
      assert.deepEqual(item.refer_ids, [item.id]);
    }
    assert.equal(new Set(a.evidence.map((i) => i.id)).size, a.evidence.length, 'de-duplicated');
    assert.ok(a.rounds >= 1 && a.rounds <= 3);
    assert.equal(typeof a.timings.total_ms, 'number');
    assert.equal(typeof a.timings.round1_ms, 'number');
    assert.equal(a.evidence[0]?.speaker?.name, 'Ana');
  });

  test('participant-aware: the same words, the named speaker\'s turn first', async () => {
    const ben = await answerQuestion(retriever, T, { question: 'What did Ben say about the cat?', k: 5 });
    const ana = await answerQuestion(retriever, T, { question: 'What did Ana say about the cat?', k: 5 });
    assert.equal(ben.evidence[0]?.speaker?.name, 'Ben');
    assert.equal(ana.evidence[0]?.speaker?.name, 'Ana');
    assert.equal(ana.evidence[0]?.id, idOf('My cat Miko has been sick'));
  });

  test('context-aware: a reply without the question\'s words is found through its neighbour', async () => {
    const a = await answerQuestion(retriever, T, { question: 'What did Ben answer when Ana said her cat was sick all week?', k: 3 });
    assert.ok(a.evidence.some((i) => i.id === idOf('Poor Miko, you should take him to the vet')), a.evidence.map((i) => i.text).join(' | '));
  });

  test('explicit speaker filter, tenants and cancellation', async () => {
    const a = await answerQuestion(retriever, T, { question: 'Who talked about the cat Miko?', k: 5, speakerId: f.people.Ben as string });
    assert.ok(a.evidence.length > 0);
    assert.ok(a.evidence.every((i) => i.speaker?.id === f.people.Ben));
    assert.deepEqual((await answerQuestion(retriever, 'nobody', { question: 'How is Miko?' })).evidence, []);
    const aborted = new AbortController();
    aborted.abort();
    await assert.rejects(answerQuestion(retriever, T, { question: 'How is Miko?', signal: aborted.signal }), { name: 'AbortError' });
  });
});
