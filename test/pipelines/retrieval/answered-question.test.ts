import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openDatabase, type SqliteDatabase } from '../../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../../graph/sqlite/sqlite-graph-store.js';
import type { Utterance } from '../../../graph/types.js';
import { answerQuestion } from '../../../pipelines/retrieval/agentic-query.js';
import { answeredFactor, questionsAnswered } from '../../../pipelines/retrieval/answered-question.js';
import { Retriever } from '../../../pipelines/retrieval/retriever.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';

const T = 't_answered';

describe('the question a reply answers (answeredWeight)', () => {
  let db: SqliteDatabase;
  let graph: SqliteGraphStore;
  let turns: Utterance[] = [];
  before(async () => {
    db = openDatabase(':memory:');
    graph = new SqliteGraphStore(db);
    const a = (await graph.createParticipant(T, { name: 'Ana' })).id;
    const b = (await graph.createParticipant(T, { name: 'Ben' })).id;
    const c = (await graph.createParticipant(T, { name: 'Cleo' })).id;
    await graph.openSession(T, 's1', '2026-01-01T10:00:00Z');
    const lines: [string, string][] = [
      [b, 'So what genre is your first screenplay?'], [a, 'A mix of drama and romance!'],
      [a, 'Is it finished yet? [shares a photo of a notebook]'], [a, 'I still have to write the ending.'],
      [b, 'Hmm, that reminds me.'], [b, 'Of what?'], [c, 'The erased one.'], [a, 'My sister loved it.'],
    ];
    turns = await graph.addUtterances(T, lines.map(([speakerId, text], i) => ({
      sessionId: 's1', speakerId, addresseeIds: [speakerId === a ? b : a], text, startMs: null, endMs: null,
      time: `2026-01-01T10:0${i}:00Z`, confidence: null, audioRef: null,
    })));
    await graph.deleteParticipant(T, c); // Cleo's turn is erased: a gap in the session's sequence
  });
  after(() => db.close());

  test('a reply maps to the other speaker\'s question just before it; a turn after its own question, a statement or an erased turn does not', async () => {
    const asked = await questionsAnswered(graph, T, turns.filter((_, i) => i !== 6));
    const at = (i: number): string | undefined => asked.get((turns[i] as Utterance).id)?.text;
    assert.equal(at(1), 'So what genre is your first screenplay?');
    assert.equal(at(3), undefined, 'the question before it is the same speaker\'s own');
    assert.equal(at(4), undefined, 'a statement before it');
    assert.equal(at(0), undefined, 'the first turn answers nothing');
    assert.equal(at(7), 'Of what?', 'the erased turn between is skipped: the question before it is read');
  });

  test('answeredFactor: 1 + weight × the share of the content words the question adds to the reply', () => {
    const terms = ['genre', 'first', 'screenplay'];
    assert.equal(answeredFactor('A mix of drama and romance!', 'So what genre is your first screenplay?', terms, 1), 2);
    assert.ok(Math.abs(answeredFactor('My first screenplay mixes drama and romance.', 'What genre is it?', terms, 0.5) - (1 + 0.5 / 3)) < 1e-9);
    assert.equal(answeredFactor('A mix of drama and romance!', undefined, terms, 1), 1, 'no question answered');
    assert.equal(answeredFactor('A mix of drama and romance!', 'So what genre is your first screenplay?', [], 1), 1, 'no content words');
    assert.equal(answeredFactor('A mix of drama and romance!', 'So what genre is your first screenplay?', terms, 0), 1, 'off');
    assert.throws(() => answeredFactor('x', 'y?', terms, -1), /answeredWeight/);
    assert.throws(() => answeredFactor('x', 'y?', terms, Number.NaN), /answeredWeight/);
  });
});

describe('agentic question answering: a reply read with the question it answers', () => {
  const T2 = 't_answered_agentic';
  let f: MemoryFixture;
  let retriever: Retriever;
  before(async () => {
    f = await memoryFixture(T2, ['Ana', 'Ben']);
    await f.sayBatch('s1', [
      ['Ben', 'So what genre is your first screenplay?'], ['Ana', 'A mix of drama and romance!'],
      ['Ben', 'Nice, I like those.'], ['Ana', 'I wrote most of it at night.'],
    ].map(([speaker, text], i) => ({ speaker: speaker as string, addressees: [speaker === 'Ana' ? 'Ben' : 'Ana'], text: text as string, time: `2026-05-02T10:0${i}:00Z` })));
    await f.sayBatch('s2', [
      ['Ana', 'My screenplay contest entry was rejected last year.'], ['Ben', 'Their loss, honestly.'],
      ['Ana', 'I read a book about structure.'], ['Ben', 'Was it any good?'],
    ].map(([speaker, text], i) => ({ speaker: speaker as string, addressees: [speaker === 'Ana' ? 'Ben' : 'Ana'], text: text as string, time: `2026-05-09T10:0${i}:00Z` })));
    retriever = new Retriever(f, f.entities, f.embedder, { minPool: 1 });
  });
  after(async () => {
    await f.close();
  });

  const rankOfReply = async (options: object): Promise<number> => {
    const items = (await answerQuestion(retriever, T2, { question: 'What genre is Ana\'s first screenplay?', k: 5 }, options)).evidence;
    const at = items.findIndex((i) => (i.source_text ?? i.text).includes('drama and romance'));
    return at < 0 ? Infinity : at;
  };

  test('the reply that holds none of the question\'s words ranks higher with answeredWeight (default 0.5) than without', async () => {
    const off = await rankOfReply({ answeredWeight: 0 });
    const on = await rankOfReply({});
    assert.ok(on < off, `reply rank ${on} with the default weight, ${off} without`);
    assert.equal(await rankOfReply({ answeredWeight: 1 }), 0, 'first with weight 1');
  });

  test('a negative weight is refused', async () => {
    await assert.rejects(answerQuestion(retriever, T2, { question: 'What genre is Ana\'s first screenplay?', k: 5 }, { answeredWeight: -1 }), /answeredWeight/);
  });
});
