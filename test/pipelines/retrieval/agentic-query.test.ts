import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Utterance } from '../../../graph/types.js';
import { answerQuestion, embedderDefaults, namedSpeakerFactor, statedPart, statedShares, subjectSearchFactors } from '../../../pipelines/retrieval/agentic-query.js';
import { Retriever } from '../../../pipelines/retrieval/retriever.js';
import { WordNet } from '../../../pipelines/retrieval/wordnet.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { writeWordNet } from '../../helpers/wordnet.js';
import { idOfSaid, memoryFixture, snippetsFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';

const T = 't_agentic';

describe('agentic question answering (deterministic policy; real USE-lite, SQLite, consolidation)', () => {
  let f: MemoryFixture;
  let retriever: Retriever;
  const said: Utterance[] = [];
  const idOf = (fragment: string): string => idOfSaid(said, fragment);

  before(async () => {
    ({ f, retriever } = await snippetsFixture(T, said));
  });
  after(async () => {
    await f.close();
  });

  test('answers with memory items of every layer (a fact standing for its source turn), rounds and timings', async () => {
    const a = await answerQuestion(retriever, T, { question: 'What did Ana promise Ben?', k: 3 });
    assert.ok(a.evidence.length > 0 && a.evidence.length <= 3);
    const promise = idOf('I promise I will send you the budget report');
    assert.ok(a.evidence[0]?.refer_ids.includes(promise), a.evidence.map((i) => `${i.layer}: ${i.text}`).join(' | '));
    assert.equal(a.evidence[0]?.layer, 'fact', 'the commitment, distilled, comes first');
    for (const item of a.evidence) {
      if (item.layer === 'interaction') assert.deepEqual(item.refer_ids, [item.id]);
      assert.equal(item.superseded, false);
    }
    assert.equal(a.evidence.filter((i) => i.refer_ids.includes(promise)).length, 1, 'the turn a fact restates is not served twice');
    assert.equal(new Set(a.evidence.map((i) => i.id)).size, a.evidence.length, 'de-duplicated');
    assert.ok(a.rounds >= 1 && a.rounds <= 3);
    assert.equal(typeof a.timings.total_ms, 'number');
    assert.equal(typeof a.timings.round1_ms, 'number');
    assert.equal(a.evidence[0]?.speaker?.name, 'Ana');
  });

  test('every fusion of the loop\'s lists (fusion) finds the promise; an unknown fusion is refused', async () => {
    const promise = idOf('I promise I will send you the budget report');
    for (const fusion of ['rrf', 'combsum-minmax', 'combmnz-minmax', 'combsum-z', 'rrf-gap'] as const) {
      const a = await answerQuestion(retriever, T, { question: 'What did Ana promise Ben?', k: 3 }, { fusion });
      assert.ok(a.evidence[0]?.refer_ids.includes(promise), `${fusion}: ${a.evidence.map((i) => `${i.layer}: ${i.text}`).join(' | ')}`);
    }
    await assert.rejects(answerQuestion(retriever, T, { question: 'What did Ana promise Ben?', k: 3 }, { fusion: 'combmax' as never }), RangeError);
  });

  test('participant-aware: the same words, the named speaker\'s turn first', async () => {
    const ben = await answerQuestion(retriever, T, { question: 'What did Ben say about the cat?', k: 5 });
    const ana = await answerQuestion(retriever, T, { question: 'What did Ana say about the cat?', k: 5 });
    assert.equal(ben.evidence[0]?.speaker?.name, 'Ben', ben.evidence.map((i) => `${i.layer} ${i.speaker?.name}: ${i.text} ${i.score}`).join(' | '));
    assert.equal(ana.evidence[0]?.speaker?.name, 'Ana');
    assert.ok(ana.evidence[0]?.refer_ids.includes(idOf('My cat Miko has been sick')));
  });

  test('context-aware: a reply without the question\'s words is found through its neighbour', async () => {
    const a = await answerQuestion(retriever, T, { question: 'What did Ben answer when Ana said her cat was sick all week?', k: 3 });
    assert.ok(a.evidence.some((i) => i.refer_ids.includes(idOf('Poor Miko, you should take him to the vet'))), a.evidence.map((i) => i.text).join(' | '));
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

describe('agentic question answering: the time a question names and the answer it asks for', () => {
  const T2 = 't_agentic_time';
  let f: MemoryFixture;
  let retriever: Retriever;
  const said = new Map<string, Utterance>();
  before(async () => {
    f = await memoryFixture(T2, ['Ana', 'Ben']);
    const turns: [string, string, string, string][] = [
      ['s1', 'Ana', 'I cooked a big pot of lentil soup for the family.', '2026-10-01T19:00:00Z'],
      ['s2', 'Ana', 'I cooked lentil soup again, this time with carrots and cumin.', '2026-11-20T19:00:00Z'],
      ['s3', 'Ben', 'I love the cello, the cello is my favourite instrument.', '2026-11-21T10:00:00Z'],
      ['s4', 'Ben', 'I have played the cello since 2019, it keeps me calm in the evenings after a long day at work.', '2026-11-22T10:00:00Z'],
      ['s5', 'Ana', 'Could you send me a new charger for my laptop, please?', '2026-11-17T10:00:00Z'],
      ['s6', 'Ana', 'I have to ask you for a replacement cable for my printer, please.', '2026-11-24T10:00:00Z'],
    ];
    for (const [session, speaker, text, time] of turns) said.set(text.slice(0, 20), await f.say(session, speaker, [speaker === 'Ana' ? 'Ben' : 'Ana'], text, time));
  });
  after(async () => {
    await f.close();
  });
  const first = async (question: string, options = {}): Promise<string | undefined> =>
    (await answerQuestion(retriever, T2, { question, k: 2, now: new Date('2026-11-25T12:00:00Z') }, options)).evidence[0]?.text;
  /** The refer ids of the top five items. */
  const ask = async (question: string, options = {}): Promise<string[][]> =>
    (await answerQuestion(retriever, T2, { question, k: 5, now: new Date('2026-11-25T12:00:00Z') }, options)).evidence.map((i) => i.refer_ids);
  /** The ids of Ana's two requests: the charger (Tuesday 17 November), the cable (Tuesday 24 November). */
  const requests = (): [string, string] => [said.get('Could you send me a ')!.id, said.get('I have to ask you fo')!.id];

  test('a named month, or a relative time, picks the turns from then', async () => {
    retriever = new Retriever(f, f.entities, f.embedder, { minPool: 1 });
    assert.match((await first('What soup did Ana cook in October 2026?')) ?? '', /big pot/);
    assert.match((await first('What soup did Ana cook in November 2026?')) ?? '', /carrots/);
    assert.match((await first('What soup did Ana cook last week?')) ?? '', /carrots/);
  });

  test('a question that names a period puts what was said in it first, above what only its slack reaches', async () => {
    const [charger, cable] = requests();
    const lastWeek = await ask('What did Ana ask for last week?');
    assert.ok(lastWeek[0]?.includes(charger), JSON.stringify(lastWeek));
    // As before (the rolling week, asking read as an event told later, no period boost): this week's request wins on its words.
    const before = await ask('What did Ana ask for last week?', { periodBoost: 0, timeScope: { speechActs: false, calendarWeeks: false } });
    assert.ok(before[0]?.includes(cable), JSON.stringify(before));
    // Nothing was said two weeks ago: the question still answers.
    assert.ok((await ask('What did Ana ask for two weeks ago?')).some((ids) => ids.includes(cable) || ids.includes(charger)));
  });

  test('"the Tuesday after 17 November" is that Tuesday, not the 17th itself', async () => {
    const [charger, cable] = requests();
    const next = await ask('What did Ana ask for on the Tuesday after 17 November 2026?');
    assert.ok(next[0]?.includes(cable), JSON.stringify(next));
    // The old reading (the weekday dropped: the date itself): the 17th's request first.
    const old = await ask('What did Ana ask for on the Tuesday after 17 November 2026?', { timeScope: { relativeDays: false } });
    assert.ok(old[0]?.includes(charger), JSON.stringify(old));
  });

  test('a "when" question prefers the turn that names a time', async () => {
    assert.match((await first('When did Ben take up the cello?')) ?? '', /since 2019/);
    assert.match((await first('When did Ben take up the cello?', { answerTypeBoost: 0 })) ?? '', /favourite instrument|Ben loves the cello/, 'without the boost the shorter turn (or the fact distilled from it) wins');
  });
});

describe('agentic question answering: a diverse top k', () => {
  const T3 = 't_agentic_diverse';
  let f: MemoryFixture;
  let retriever: Retriever;
  before(async () => {
    f = await memoryFixture(T3, ['Ana', 'Ben']);
    const long = ['The garden beds need compost this spring.', 'Compost for the garden beds, yes, lots of compost.',
      'The compost pile by the garden beds is ready.', 'We should turn the compost for the garden beds.',
      'Garden beds and compost again, the beds love compost.'];
    for (const [i, text] of long.entries()) await f.say('s-long', i % 2 ? 'Ben' : 'Ana', [i % 2 ? 'Ana' : 'Ben'], text, `2026-11-01T10:0${i}:00Z`);
    await f.say('s-other', 'Ben', ['Ana'], 'I bought compost for our garden beds at the market.', '2026-11-10T10:00:00Z');
    retriever = new Retriever(f, f.entities, f.embedder, { minPool: 1 });
  });
  after(async () => {
    await f.close();
  });

  test('at most two items from one stretch of conversation (here: 5 turns either side) before items from elsewhere', async () => {
    const ask = (options = {}) => answerQuestion(retriever, T3, { question: 'What about compost for the garden beds?', k: 3 }, options);
    const sessions = async (options = {}): Promise<(string | null)[]> => (await ask(options)).evidence.map((i) => i.session_id);
    const capped = await sessions({ stretchCap: 2, stretchTurns: 5 });
    assert.equal(capped.length, 3);
    assert.ok(capped.includes('s-other'), `the other session's turn is served: ${capped.join(', ')}`);
    assert.ok(capped.filter((s) => s === 's-long').length <= 2);
    const uncapped = await sessions();
    assert.deepEqual(uncapped, ['s-long', 's-long', 's-long'], 'without the cap (the default) one stretch fills the top 3');
  });
});

describe('agentic question answering: WordNet synonyms as one more keyword search', () => {
  const T4 = 't_agentic_synonyms';
  const tmp = tempDir('parley-agentic-wn-');
  let f: MemoryFixture;
  let retriever: Retriever;
  let wordnet: WordNet;
  let answerId = '';
  before(async () => {
    writeWordNet(tmp.dir, 'noun', [{ words: ['car', 'auto', 'automobile'] }, { words: ['dog', 'domestic_dog'] }]);
    writeWordNet(tmp.dir, 'verb', [{ words: ['buy', 'purchase'] }], ['bought buy']);
    wordnet = new WordNet(tmp.dir);
    f = await memoryFixture(T4, ['Ana', 'Ben']);
    const turns = ['Did you go to the automobile show downtown?', 'The automobile show was crowded, I did not stay long.',
      'Automobile prices are crazy this year.', 'My sister wants to purchase a bike for her commute.',
      'We walked the dog along the river.', 'The weather was lovely for a walk.'];
    for (const [i, text] of turns.entries()) await f.say('s1', i % 2 ? 'Ben' : 'Ana', [i % 2 ? 'Ana' : 'Ben'], text, `2026-11-01T10:0${i}:00Z`);
    answerId = (await f.say('s2', 'Ben', ['Ana'], 'I finally got a red car, second hand, last Friday.', '2026-11-10T10:00:00Z')).id;
    retriever = new Retriever(f, f.entities, f.embedder, { minPool: 1 });
  });
  after(async () => {
    wordnet.close();
    await f.close();
    tmp.remove();
  });

  test('the synonym search finds a turn that says "car" for a question about an automobile (the other searches off)', async () => {
    const only = { bm25Weight: 0, speakerWeight: 0, factWeight: 0, denseWeight: 0 };
    const first = async (options: object): Promise<string[] | undefined> =>
      (await answerQuestion(retriever, T4, { question: 'Which automobile did Ben purchase?', k: 3 }, { wordnet, ...only, ...options })).evidence[0]?.refer_ids;
    assert.ok((await first({ synonymWeight: 1, synonymsOnly: true }))?.includes(answerId), 'the synonyms "car" and "buy" find the answer');
    assert.ok(!(await first({ synonymWeight: 0 }))?.includes(answerId), 'without synonyms nothing searches for "car"');
  });

  test('no WordNet: the synonym weight changes nothing', async () => {
    const absent = new WordNet(path.join(tmp.dir, 'absent'));
    const q = { question: 'Which automobile did Ben purchase?', k: 3 };
    const a = await answerQuestion(retriever, T4, q, { wordnet: absent, synonymWeight: 1 });
    const b = await answerQuestion(retriever, T4, q, { synonymWeight: 0 });
    assert.deepEqual(a.evidence.map((i) => i.id), b.evidence.map((i) => i.id));
  });
});

describe('agentic question answering: who said a thing stays true when the thing changes', () => {
  const T6 = 't_agentic_who_validity';
  let f: MemoryFixture;
  let retriever: Retriever;
  before(async () => {
    f = await memoryFixture(T6, ['Lena', 'Omar', 'Ben']);
    await f.say('lena-1', 'Lena', ['Omar'], 'I live in Richmond, close to the marina.', '2026-03-01T09:00:00Z');
    await f.say('lena-1', 'Omar', ['Lena'], 'Nice, I love the marina in spring.', '2026-03-01T09:01:00Z');
    await f.say('ben-1', 'Ben', ['Omar'], 'The marina in Richmond is close to the ferry, people live there for it.', '2026-04-01T09:00:00Z');
    await f.say('ben-1', 'Ben', ['Omar'], 'Richmond rents are close to Berkeley rents now.', '2026-04-01T09:01:00Z');
    await f.say('lena-2', 'Lena', ['Omar'], 'Big news: I moved to Berkeley last month.', '2026-10-05T09:00:00Z');
    retriever = new Retriever(f, f.entities, f.embedder, { minPool: 1 });
  });
  after(async () => {
    await f.close();
  });

  test('"Who said they live in Richmond…?": the replaced turn is not discounted (whoSupersededFactor, default 1), and still marked', async () => {
    const ask = async (options = {}): Promise<{ rank: number; superseded: boolean | undefined }> => {
      const items = (await answerQuestion(retriever, T6, { question: 'Who said they live in Richmond close to the marina?', k: 5 }, options)).evidence;
      const rank = items.findIndex((i) => /I live in Richmond/.test(i.source_text ?? i.text));
      return { rank: rank < 0 ? Infinity : rank, superseded: items[rank]?.superseded };
    };
    const plain = await ask({ whoSupersededFactor: 0.5 });
    const kept = await ask();
    assert.ok(Number.isFinite(kept.rank), 'served');
    assert.equal(kept.superseded, true, 'still marked as replaced');
    assert.ok(plain.rank > kept.rank, `discounted as in other questions (0.5, as before), the replaced turn ranks lower: ${plain.rank} against ${kept.rank}`);
  });
});

describe('agentic question answering: a question that names the wrong person (namedBoostMatch)', () => {
  const T7 = 't_agentic_named_match';
  let f: MemoryFixture;
  let retriever: Retriever;
  before(async () => {
    f = await memoryFixture(T7, ['Ana', 'Ben']);
    await f.say('s1', 'Ben', ['Ana'], 'I ran the charity race on Saturday and realized I love running with other people.', '2026-05-02T10:00:00Z');
    await f.say('s1', 'Ana', ['Ben'], 'That sounds wonderful, well done.', '2026-05-02T10:01:00Z');
    await f.say('s2', 'Ana', ['Ben'], 'Our office is collecting toys for a charity this month.', '2026-05-09T10:00:00Z');
    await f.say('s2', 'Ben', ['Ana'], 'I can bring some toys on Monday.', '2026-05-09T10:01:00Z');
    await f.sayBatch('s3', [
      ['Ana', 'I painted the kitchen blue over the weekend.'], ['Ben', 'Blue is a calm colour for a kitchen.'],
      ['Ana', 'My sister is visiting from Porto next week.'], ['Ben', 'Porto has great food, take her to the river.'],
      ['Ana', 'I started reading a novel about sailors.'], ['Ben', 'I prefer films about space, honestly.'],
      ['Ana', 'The bakery on our street closed down.'], ['Ben', 'That is sad, their bread was the best.'],
    ].map(([speaker, text], i) => ({ speaker: speaker as string, addressees: [speaker === 'Ana' ? 'Ben' : 'Ana'], text: text as string, time: `2026-05-16T10:0${i}:00Z` })));
    retriever = new Retriever(f, f.entities, f.embedder, { minPool: 1 });
  });
  after(async () => {
    await f.close();
  });

  const ranks = async (question: string, options: object): Promise<{ race: number; anaOffTopic: number }> => {
    const items = (await answerQuestion(retriever, T7, { question, k: 5 }, options)).evidence;
    const race = items.findIndex((i) => (i.source_text ?? i.text).includes('ran the charity race'));
    const off = items.map((i, n) => ({ i, n })).filter(({ i }) => i.speaker?.name === 'Ana' && !/charity|race|reali/i.test(i.source_text ?? i.text));
    return { race: race < 0 ? Infinity : race, anaOffTopic: Math.min(...off.map(({ n }) => n)) };
  };

  test('per turn: the named person\'s turns holding none of the question\'s content words no longer outrank the other person\'s close match', async () => {
    const question = 'What did Ana realize after the charity race?';
    const full = await ranks(question, { namedBoostMatch: 0, namedSearchMatch: 0 });
    const scaled = await ranks(question, { namedBoostMatch: 1, namedBoostMatchPerson: false });
    assert.ok(full.anaOffTopic < full.race, `the whole name boost lifts Ana's off-topic turns: ${JSON.stringify(full)}`);
    assert.ok(Number.isFinite(scaled.race) && scaled.race < scaled.anaOffTopic, `scaled by content match, Ben's race turn comes first: ${JSON.stringify(scaled)}`);
  });

  test('per person (default): Ana never stated anything about the race, so her turns lose the boost against Ben\'s statement', async () => {
    const question = 'What did Ana realize after the race?';
    const full = await ranks(question, { namedBoostMatch: 0, namedSearchMatch: 0 });
    const scaled = await ranks(question, {});
    assert.ok(full.anaOffTopic < full.race, `the whole name boost lifts Ana's off-topic turns: ${JSON.stringify(full)}`);
    assert.ok(Number.isFinite(scaled.race) && scaled.race < scaled.anaOffTopic, `Ben's race turn comes first: ${JSON.stringify(scaled)}`);
  });

  test('namedSpeakerFactor: the whole boost for the best match or when nothing matches, none for no match at share 1', () => {
    assert.equal(namedSpeakerFactor(0.6, 1, 1, 1), 1.6);
    assert.equal(namedSpeakerFactor(0.6, 1, 0, 1), 1);
    assert.equal(namedSpeakerFactor(0.6, 0, 0, 1), 1.6, 'share 0: as before');
    assert.equal(namedSpeakerFactor(0.6, 0.5, 0, 1), 1.3);
    assert.ok(Math.abs(namedSpeakerFactor(0.6, 1, 1 / 3, 2 / 3) - 1.3) < 1e-9, 'relative to the best candidate');
    assert.equal(namedSpeakerFactor(0.6, 1, 0, 0), 1.6, 'no content match anywhere: the whole boost');
    assert.ok(Math.abs(namedSpeakerFactor(0.6, 1, 0.5, 1, 2) - 1.15) < 1e-9, 'power 2: half the best match keeps a quarter of the boost');
  });


  test('embedderDefaults: per-embedder defaults for bge-small-en-v1.5 (fp32 and int8) only, under the caller\'s options', () => {
    assert.deepEqual(embedderDefaults('use-lite-en-0.2'), {});
    assert.deepEqual(embedderDefaults('text-embedding-3-small'), {});
    assert.deepEqual(embedderDefaults('bge-small-en-v1.5'), embedderDefaults('bge-small-en-v1.5-q'));
    assert.equal(embedderDefaults('bge-small-en-v1.5-q').denseWeight, 1, 'a strong dense retriever weighs as much as BM25');
  });

  test('statedPart: another person\'s questions are not matched against (they ask, they do not state)', () => {
    assert.equal(statedPart('Wow! Did you see that band?'), 'Wow!');
    assert.equal(statedPart('What pet do you have?'), '');
    assert.equal(statedPart('I ran the charity race. It was hard! Did you run?'), 'I ran the charity race. It was hard!');
  });

  test('a share outside 0–1 is refused', async () => {
    for (const bad of [-0.1, 1.5, Number.NaN]) {
      await assert.rejects(answerQuestion(retriever, T7, { question: 'What did Ana realize?' }, { namedBoostMatch: bad }), RangeError);
    }
  });
});

describe('agentic question answering: the subject\'s own searches when the question names the wrong person (namedSearchMatch)', () => {
  const T8 = 't_agentic_named_search';
  let f: MemoryFixture;
  let retriever: Retriever;
  before(async () => {
    f = await memoryFixture(T8, ['Ana', 'Ben']);
    // Ben adopted the puppy; Ana talks about dogs, shelters and adoption papers, but never about adopting a puppy herself.
    await f.sayBatch('s1', [
      ['Ana', 'The shelter near my office needs volunteers for the dogs on weekends.'],
      ['Ben', 'I adopted a puppy from the shelter.'],
      ['Ana', 'My neighbour walks two big dogs every morning.'],
      ['Ben', 'Toast chews everything, even my shoes.'],
      ['Ana', 'I signed the papers for the new flat yesterday.'],
      ['Ben', 'Congratulations on the flat!'],
      ['Ana', 'The dogs at the shelter were so happy to see us.'],
      ['Ben', 'I should volunteer there too one day.'],
    ].map(([speaker, text], i) => ({ speaker: speaker as string, addressees: [speaker === 'Ana' ? 'Ben' : 'Ana'], text: text as string, time: `2026-05-02T10:0${i}:00Z` })));
    await f.sayBatch('s2', [
      ['Ana', 'I adopted a new routine: running before work.'], ['Ben', 'Running early is hard for me.'],
      ['Ana', 'A puppy class meets in the park on Sundays.'], ['Ben', 'Toast is too young for classes.'],
      ['Ana', 'I went to the shelter again on Saturday.'], ['Ben', 'Did they find homes for the old dogs?'],
    ].map(([speaker, text], i) => ({ speaker: speaker as string, addressees: [speaker === 'Ana' ? 'Ben' : 'Ana'], text: text as string, time: `2026-05-09T10:0${i}:00Z` })));
    retriever = new Retriever(f, f.entities, f.embedder, { minPool: 1 });
  });
  after(async () => {
    await f.close();
  });

  const rankOfAdoption = async (options: object): Promise<number> => {
    const items = (await answerQuestion(retriever, T8, { question: 'What puppy did Ana adopt from the shelter?', k: 5 }, options)).evidence;
    const i = items.findIndex((item) => (item.source_text ?? item.text).includes('I adopted a puppy from the shelter'));
    return i < 0 ? Infinity : i;
  };

  test('Ana never said she adopted a puppy, Ben did: his turn ranks first once her own searches and boost follow what she stated', async () => {
    const before = await rankOfAdoption({ namedSearchMatch: 0, namedMatchPower: 1 });
    const searches = await rankOfAdoption({ namedSearchMatch: 1, namedMatchPower: 1 });
    const after = await rankOfAdoption({});
    assert.ok(before > 1, `with her searches at full weight, Ana's turns come first: Ben's turn at ${before}`);
    assert.ok(searches < before, `her searches weighted by what she stated: Ben's turn rises (${before} → ${searches})`);
    assert.equal(after, 0, 'by default (her match cubed), Ben\'s statement is the first evidence item');
  });

  test('the subject who did state it keeps the first place', async () => {
    const items = (await answerQuestion(retriever, T8, { question: 'What puppy did Ben adopt from the shelter?', k: 5 })).evidence;
    assert.ok((items[0]?.source_text ?? items[0]?.text ?? '').includes('I adopted a puppy from the shelter'), JSON.stringify(items.map((i) => i.text)));
  });

  test('subjectSearchFactors: scaled by the subject\'s best statement against the best other speaker\'s; questions do not count', () => {
    const turns = [
      { speakerId: 'ana', text: 'The shelter needs volunteers.' },
      { speakerId: 'ben', text: 'I adopted a puppy from the shelter.' },
      { speakerId: 'ana', text: 'Did you adopt a puppy from the shelter?' },
    ];
    const terms = ['puppy', 'adopt', 'shelter'];
    assert.ok(Math.abs((subjectSearchFactors(turns, ['ana'], terms, 1).get('ana') ?? NaN) - 1 / 3) < 1e-9);
    assert.ok(Math.abs((subjectSearchFactors(turns, ['ana'], terms, 0.5).get('ana') ?? NaN) - 2 / 3) < 1e-9);
    assert.ok(Math.abs((subjectSearchFactors(turns, ['ana'], terms, 1, 3).get('ana') ?? NaN) - 1 / 27) < 1e-9, 'power 3: the ratio cubed');
    assert.equal(subjectSearchFactors(turns, ['ben'], terms, 1).get('ben'), 1, 'the subject who stated it keeps the whole weight');
    assert.equal(subjectSearchFactors(turns.slice(0, 1), ['ana'], terms, 1).size, 0, 'nobody else stated any of it: no factor');
  });

  test('statedShares: a turn\'s stated share of the terms, worked out once per turn id for the question; subjectSearchFactors reads it', () => {
    const terms = ['puppy', 'adopt', 'shelter'];
    const stated = statedShares(terms);
    const ben = { id: 'u2', speakerId: 'ben', text: 'I adopted a puppy from the shelter.' };
    const ana = { id: 'u3', speakerId: 'ana', text: 'The shelter needs volunteers. Did you adopt a puppy?' };
    assert.equal(stated(ben), 1);
    assert.equal(stated(ana), 1 / 3, 'the question is not counted');
    // Kept by id: the same turn read again (here under another text, to tell) is not worked out again.
    assert.equal(stated({ ...ana, text: 'puppy adopt shelter' }), 1 / 3);
    assert.equal(statedShares(terms)({ ...ana, text: 'puppy adopt shelter' }), 1, 'a new question starts afresh');
    const reads = new Map<string, number>();
    const counted = (u: typeof ben): number => { reads.set(u.id, (reads.get(u.id) ?? 0) + 1); return stated(u); };
    assert.ok(Math.abs((subjectSearchFactors([ben, ana], ['ana'], terms, 1, 1, counted).get('ana') ?? NaN) - 1 / 3) < 1e-9);
    assert.deepEqual([...reads.values()], [1, 1], 'each turn read once');
  });

  test('a share outside 0–1, an exponent that is not positive or a depth that is not a positive whole number is refused', async () => {
    for (const bad of [-0.5, 2, Number.NaN]) {
      await assert.rejects(answerQuestion(retriever, T8, { question: 'What puppy did Ana adopt?' }, { namedSearchMatch: bad }), RangeError);
    }
    for (const bad of [0, -1, Number.NaN]) {
      await assert.rejects(answerQuestion(retriever, T8, { question: 'What puppy did Ana adopt?' }, { namedMatchPower: bad }), RangeError);
    }
    for (const bad of [0, 2.5, -3]) {
      await assert.rejects(answerQuestion(retriever, T8, { question: 'What puppy did Ana adopt?' }, { namedSearchDepth: bad }), RangeError);
    }
  });
});
