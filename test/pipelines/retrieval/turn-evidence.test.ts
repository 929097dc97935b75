import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { answerQuestion } from '../../../pipelines/retrieval/agentic-query.js';
import { Retriever } from '../../../pipelines/retrieval/retriever.js';
import { askingTurnIds, asksQuestion, evidenceIds, hasContent, newestAsking } from '../../../pipelines/retrieval/turn-evidence.js';
import { anaBenChat, memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';

test('hasContent: acknowledgements and function words alone hold no content; a content word or a number does', () => {
  for (const text of ['Noted.', 'Okay, got it.', 'Thanks!', 'Sure, see ya. Bye!', 'Sounds great!', 'Yes.', "That's true.", '']) {
    assert.equal(hasContent(text), false, text);
  }
  for (const text of ['Noted, the flight is on Friday.', 'Salmon.', '5', 'Eva', 'Yes, in Porto.']) assert.equal(hasContent(text), true, text);
});

test('asksQuestion: the same words, case and punctuation aside; a blank question asks nothing', () => {
  assert.equal(asksQuestion('what does my cat Miko eat', 'What does my cat Miko eat?'), true);
  assert.equal(asksQuestion('What does my cat eat?', 'What does my cat Miko eat?'), false);
  assert.equal(asksQuestion('?', '?!'), false);
});

describe('a content-free reply to the question before it is evidence; a standalone filler is not', () => {
  const T = 't_bare_reply';
  let f: MemoryFixture;
  let ids: Record<string, string>;
  before(async () => {
    f = await memoryFixture(T, ['Ana', 'Ben']);
    const said = await f.sayBatch('s1', anaBenChat([
      ['Ben', 'Do you eat meat?'], ['Ana', 'No.'], ['Ben', 'Noted.'], ['Ana', 'Okay.'], ['Ana', 'Yes, I do.'],
      ['Ben', 'Done.'], ['Ana', 'I also work at the bakery on Main Street.'],
    ], '2026-06-01'));
    ids = Object.fromEntries(said.map((u) => [u.text, u.id]));
  });
  after(async () => {
    await f.close();
  });

  test('evidenceIds: "No." after another speaker\'s question is kept; "Noted." / "Okay." / a reply to one\'s own question are not', async () => {
    const turns = await f.graph.getUtterances(T, Object.values(ids));
    const kept = await evidenceIds(f.graph, T, turns);
    assert.equal(kept.has(ids['No.'] as string), true, 'answers "Do you eat meat?"');
    assert.equal(kept.has(ids['I also work at the bakery on Main Street.'] as string), true, 'content');
    for (const t of ['Noted.', 'Okay.', 'Yes, I do.', 'Done.', 'Do you eat meat?']) {
      assert.equal(kept.has(ids[t] as string), t === 'Do you eat meat?', t);
    }
  });

  test('asked "Does Ana eat meat?", the answer "No." is in the evidence; "Noted." is not (nor in the memory context)', async () => {
    const retriever = new Retriever(f, f.entities, f.embedder, { minPool: 1 });
    const { evidence } = await answerQuestion(retriever, T, { question: 'Does Ana eat meat?', k: 10 });
    const texts = evidence.map((i) => i.text);
    assert.ok(texts.includes('No.'), texts.join(' | '));
    assert.ok(!texts.includes('Noted.') && !texts.includes('Okay.'), texts.join(' | '));
    // memory.context keeps a reply by the same rule, but its search alone does not reach "No." here (no neighbour spreading).
    const context = (await retriever.retrieve({ tenant: T, text: 'Does Ana eat meat?', k: 10 })).items.map((i) => i.text);
    assert.ok(!context.includes('Noted.') && !context.includes('Okay.'), context.join(' | '));
  });
});

test('askingTurnIds: only the newest turn with the question\'s words asked it; an earlier identical turn stays evidence', async () => {
  const f = await memoryFixture('t_asking_turn', ['Ana', 'Ben']);
  try {
    const said = await f.sayBatch('s1', anaBenChat([['Ana', 'Is it raining?'], ['Ben', 'Yes, heavily.'], ['Ben', 'Is it raining?']], '2026-06-02'));
    assert.deepEqual(await askingTurnIds(f.graph, 't_asking_turn', 's1', 'is it raining'), [said[2]!.id]);
    assert.deepEqual(await askingTurnIds(f.graph, 't_asking_turn', 's1', 'Is it snowing?'), []);
  } finally {
    await f.close();
  }
});

// The evidence rule had its own filler words ("um", "uh", "erm", "lol", "haha" as written), the memory text rule its
// patterns ("ummm", "uhh", "errm", "hahaha"): one list now, so a drawn-out filler is no content word either.
test('hasContent: a drawn-out filler or laugh holds no content, as the memory text rules read it', () => {
  for (const text of ['Ummm.', 'Uhh, hahaha!', 'Errm, okay.', 'Uuum, yes.']) assert.equal(hasContent(text), false, text);
  for (const text of ['Ummm, salmon.', 'Hahaha, Porto!']) assert.equal(hasContent(text), true, text);
});

test('newestAsking: of several turns saying the question, only the newest asked it', () => {
  const turns = [{ id: 'a', text: 'Where did Kim move?' }, { id: 'b', text: 'Paris.' }, { id: 'c', text: 'where did kim move' }];
  assert.deepEqual(newestAsking(turns, 'Where did Kim move?'), ['c']);
  assert.deepEqual(newestAsking(turns, '?'), []);
  assert.deepEqual(newestAsking(turns, 'Who moved?'), []);
});

describe('names and backchannels are no content: "Okay, bye Ben!" and "Good to hear." are no evidence (answers2)', () => {
  const T = 't_names_no_content';
  let f: MemoryFixture;
  let ids: Record<string, string>;
  before(async () => {
    f = await memoryFixture(T, ['Ana', 'Ben']);
    const said = await f.sayBatch('s1', anaBenChat([
      ['Ana', 'My back is fine now, I can lift things again.'], ['Ben', 'Good to hear.'], ['Ana', 'Okay, bye Ben!'],
      ['Ben', 'Thanks Ana.'], ['Ben', 'Paris, Ana!'], ['Ana', 'Ben, the flight is on Friday.'], ['Ben', 'Makes sense.'],
    ], '2026-06-03'));
    ids = Object.fromEntries(said.map((u) => [u.text, u.id]));
  });
  after(async () => {
    await f.close();
  });

  test('hasContent: a word of the names given is no content', () => {
    assert.equal(hasContent('Okay, bye Ben!', new Set(['ben'])), false);
    assert.equal(hasContent('Okay, bye Ben!'), true, 'without names, as before');
    assert.equal(hasContent('Good to hear.'), false);
  });

  test('evidenceIds: a turn of greetings and the people\'s names is left out; a place or a fact with a name is kept', async () => {
    const kept = await evidenceIds(f.graph, T, await f.graph.getUtterances(T, Object.values(ids)));
    for (const t of ['Good to hear.', 'Okay, bye Ben!', 'Thanks Ana.', 'Makes sense.']) assert.equal(kept.has(ids[t] as string), false, t);
    for (const t of ['My back is fine now, I can lift things again.', 'Paris, Ana!', 'Ben, the flight is on Friday.']) {
      assert.equal(kept.has(ids[t] as string), true, t);
    }
    const before = await evidenceIds(f.graph, T, await f.graph.getUtterances(T, Object.values(ids)), { namesAsContent: true });
    assert.equal(before.has(ids['Okay, bye Ben!'] as string), true, 'namesAsContent: as before');
  });

  test('neither is served to a question, nor in the memory context', async () => {
    const retriever = new Retriever(f, f.entities, f.embedder, { minPool: 1 });
    const { evidence } = await answerQuestion(retriever, T, { question: 'How is Ana\'s back now?', k: 10 });
    const texts = evidence.map((i) => i.text);
    assert.ok(!texts.some((t) => /bye Ben|Good to hear|Thanks Ana/.test(t)), texts.join(' | '));
    const context = (await retriever.retrieve({ tenant: T, text: 'bye Ben, good to hear, thanks Ana', k: 10 })).items.map((i) => i.text);
    assert.ok(!context.some((t) => /bye Ben|Good to hear|Thanks Ana/.test(t)), context.join(' | '));
  });
});
