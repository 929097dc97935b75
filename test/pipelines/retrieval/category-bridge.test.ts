import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { answerQuestion } from '../../../pipelines/retrieval/agentic-query.js';
import { categoryEntities, namesOneOf } from '../../../pipelines/retrieval/category-bridge.js';
import { categoryHead } from '../../../pipelines/retrieval/category-head.js';
import { Retriever } from '../../../pipelines/retrieval/retriever.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';

describe('categoryHead: the category word a question asks for', () => {
  test('the head noun of "what <noun>s", "which <noun>", "what kind of <noun>", in its base form', () => {
    const head = (q: string): string | null => categoryHead(q, null)?.head ?? null;
    assert.equal(head('What instruments does Mia play?'), 'instrument');
    assert.equal(head('Which book did Leo read last month?'), 'book');
    assert.equal(head('What kind of music does Mia like?'), 'music');
    assert.equal(head('What types of pottery has Mia made?'), 'pottery');
    assert.equal(head('In what sports is Leo good?'), 'sport');
    assert.equal(head('What martial arts has John done?'), 'art');
  });

  test('no category: a wh-word followed by a verb, a possessive, or a long clause', () => {
    for (const q of ['What did Mia say about the trip?', 'What is Mia\'s job?', 'What Jon thinks about the new office plan?', 'Who plays the violin?']) {
      assert.equal(categoryHead(q, null), null, q);
    }
  });
});

describe('agentic question answering: a category word finds its instance (categoryWeight)', () => {
  const T = 't_category';
  let f: MemoryFixture;
  let retriever: Retriever;
  // Mia plays many things; only one turn names an instrument, without "instrument" or "play", among many other words
  // (so that the question's vector is not close to it either).
  const MIA = [
    'I play football with my cousins on Sundays.', 'We played cards until midnight yesterday.', 'I play chess with my dad every week.',
    'The kids played outside in the park all afternoon.', 'We play board games when it rains.', 'I played tennis at the club on Monday.',
    'I play video games with my brother.', 'We played volleyball on the beach.',
    'After dinner I usually tidy the kitchen, answer my emails, walk the dog and then spend an hour with my violin before bed.',
  ];
  before(async () => {
    f = await memoryFixture(T, ['Mia', 'Leo']);
    const lines = MIA.flatMap((text, i) => [
      { speaker: 'Mia', addressees: ['Leo'], text, time: `2026-03-0${1 + i}T10:00:00Z` },
      { speaker: 'Leo', addressees: ['Mia'], text: 'Nice, sounds fun.', time: `2026-03-0${1 + i}T10:00:30Z` },
    ]);
    await f.sayBatch('s1', lines);
    retriever = new Retriever(f, f.entities, f.embedder, { minPool: 1 });
  });
  after(async () => {
    await f.close();
  });

  // The fixture's embedder is USE-lite, whose cosines between words run lower than bge-small's (the default's scale).
  const USE_LITE = { categoryMinScore: 0.55 };
  const violinRank = async (options: object): Promise<number> => {
    const items = (await answerQuestion(retriever, T, { question: 'What instruments does Mia play?', k: 5 }, options)).evidence;
    return items.findIndex((i) => /violin/.test(i.source_text ?? i.text));
  };

  test('the violin is an instrument by its name\'s vector: found with the category list and boost, not without them', async () => {
    assert.equal(await violinRank({ categoryWeight: 0, categoryBoost: 0 }), -1, 'without the change the memories that say "play" fill the top 5');
    const rank = await violinRank({ categoryWeight: 1, categoryBoost: 1, ...USE_LITE });
    assert.ok(rank >= 0, 'with the category list and boost the violin turn is in the top 5');
  });

  test('the entities: the category\'s instance first, its own word left out, nothing below the least score', async () => {
    const found = await categoryEntities(retriever.nouns, retriever.embedder, T, { head: 'instrument', phrase: 'instrument' }, { minScore: 0.55 });
    assert.equal(found[0]?.key, 'violin');
    assert.ok(found.every((e) => e.score >= 0.55));
    assert.ok(retriever.nouns.cached(T) > 0);
    retriever.forget(T);
    assert.equal(retriever.nouns.cached(T), 0, 'erasure forgets the name vectors');
  });

  test('a bad weight or boost is refused', async () => {
    await assert.rejects(answerQuestion(retriever, T, { question: 'What instruments does Mia play?' }, { categoryWeight: -1 }), /categoryWeight/);
    await assert.rejects(answerQuestion(retriever, T, { question: 'What instruments does Mia play?' }, { categoryBoost: Number.NaN }), /categoryBoost/);
  });

  test('namesOneOf: whole words only, several words as one phrase', () => {
    const holds = namesOneOf(['violin', 'acoustic guitar']);
    assert.ok(holds('An hour with my Violin.'));
    assert.ok(holds('my acoustic  guitar'));
    assert.ok(!holds('violinist'));
    assert.ok(!holds('a guitar'));
    assert.ok(!namesOneOf([])('violin'));
  });
});
