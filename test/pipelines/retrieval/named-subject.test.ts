import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { answerQuestion } from '../../../pipelines/retrieval/agentic-query.js';
import { Retriever } from '../../../pipelines/retrieval/retriever.js';
import { anaBenChat, memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';

const T = 't_named_subject';

/** Both painted the lake and say so in the same words; only the speaker tells the two turns apart. */
const CHAT = anaBenChat([
  ['Ana', 'My lake painting was inspired by the fog.'],
  ['Ben', 'Nice. We should go sailing on the lake soon.'],
  ['Ana', 'The weather was cold all weekend.'],
  ['Ben', 'My lake painting was inspired by my grandfather and his old cabin.'],
  ['Ana', 'I bought new brushes at the market.'],
  ['Ben', 'The cabin still has his fishing rods.'],
], '2026-05-02');

describe('the named-speaker boost when the subject rule finds no subject (subjectFallback; real USE-lite, SQLite)', () => {
  let f: MemoryFixture | undefined;
  let retriever: Retriever;
  before(async () => {
    f = await memoryFixture(T, ['Ana', 'Ben']);
    await f.sayBatch('s1', CHAT);
    retriever = new Retriever(f, f.entities, f.embedder, { minPool: 1 });
  });
  after(() => f?.close());

  const painterFirst = async (question: string, options: object): Promise<string | null | undefined> => {
    const items = (await answerQuestion(retriever, T, { question, k: 6 }, options)).evidence;
    return items.find((i) => /lake painting/.test(i.source_text ?? i.text))?.speaker?.name;
  };
  // Only BM25 over all turns (the searches over Ben's own turns, facts and dense off): what is left between the two turns is the boost.
  const bm25Only = { speakerWeight: 0, factWeight: 0, denseWeight: 0 };

  test('"What inspired Ben\'s lake painting?" names Ben as no subject: by default he is boosted all the same', async () => {
    const question = "What inspired Ben's lake painting?";
    assert.equal(await painterFirst(question, { ...bm25Only, subjectFallback: false }), 'Ana', 'subjects only: no one boosted, Ana\'s shorter turn first');
    assert.equal(await painterFirst(question, bm25Only), 'Ben', 'the person the question names is boosted: his turn first');
  });

  test('a question with a subject is unchanged: the subject is boosted with or without the fallback', async () => {
    for (const options of [bm25Only, { ...bm25Only, subjectFallback: false }]) assert.equal(await painterFirst('What did Ben say inspired his lake painting?', options), 'Ben');
  });
});
