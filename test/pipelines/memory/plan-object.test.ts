import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { wink } from '../../../pipelines/wink.js';
import { readPlanObject } from '../../../pipelines/memory/plan-object.js';
import { cancelsByObject, settlesByObject } from '../../../pipelines/memory/plan-match.js';
import { settles } from '../../../pipelines/memory/changes.js';
import { RuleDecider } from '../../../pipelines/memory/decide.js';
import { defaultWordNet } from '../../../pipelines/retrieval/wordnet.js';
import type { Fact, PlanObject } from '../../../graph/memory-store.js';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { openDatabase, type SqliteDatabase } from '../../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../../graph/sqlite/sqlite-graph-store.js';
import { SqliteMemoryStore } from '../../../graph/sqlite/sqlite-memory-store.js';
import { SqliteVectorStore } from '../../../graph/sqlite/sqlite-vector-store.js';
import { SqliteLexicalIndex } from '../../../graph/sqlite/sqlite-lexical-index.js';
import { UseLiteEmbedder } from '../../../pipelines/embeddings/use-lite-embedder.js';
import { EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import { createConsolidationHandler, type ConsolidationJob } from '../../../pipelines/memory/consolidate.js';
import { storedFact } from '../../helpers/stored-fact.js';

const read = (s: string): PlanObject | null => readPlanObject(wink(), s);
const wordNetHere = (): boolean => defaultWordNet().available;

test('a plan object is the verb and the head nouns of its object, lemmatised', () => {
  assert.deepEqual(read("I'll build the raised beds next week."), { verb: 'build', objects: ['bed'], complements: [] }, 'a date is no object');
  assert.deepEqual(read('We could spend the grant on a new water tank.'), { verb: 'spend', objects: ['grant'], complements: ['tank'] });
  assert.deepEqual(read('The raised beds are finished.'), { verb: 'finish', objects: ['bed'], complements: [], past: true }, 'passive: the subject is the object');
  assert.deepEqual(read('I finished writing my book.'), { verb: 'write', objects: ['book'], complements: [], actionNamed: true });
  assert.deepEqual(read('Can you send me the list of seedlings?'), { verb: 'send', objects: ['list'], complements: ['seedling'] }, 'a pronoun object names nothing');
  assert.deepEqual(read("I'm going to clean out the garage."), { verb: 'clean', objects: ['garage'], complements: [], phrasal: 'clean_out' }, 'a particle belongs to the verb');
  assert.deepEqual(read("I'll keep pursuing my passion for writing.")?.objects, ['passion']);
  assert.deepEqual(read("I'll just need the dairy-free recipe.")?.objects, ['recipe'], 'the head, not a hyphenated modifier');
  assert.deepEqual(read('We decided to spend the grant on rain barrels instead of the water tank.')?.replaces, ['tank']);
  assert.equal(read('dairy-free options like almond milk instead')?.verb, null, 'no action named');
  assert.deepEqual(read('I think a rain barrel system would be cheaper.'), { verb: null, objects: ['system'], complements: [], which: ['rain', 'barrel'] },
    'with no action, the nouns before a head say which one');
  assert.deepEqual(read("I'm going to fix the leaking tap in the bathroom.")?.objects, ['tap'], 'a participle, and a noun tagged as a verb, stay in the phrase');
  assert.deepEqual(read('I want to buy the cake my sister likes.')?.objects, ['cake'], 'a clause after the noun is not its head');
  assert.deepEqual(read('Forget about the car repair, I can\'t do it.')?.complements, ['repair', 'car'], 'an action noun is about its modifier');
  assert.deepEqual(read('I cancelled the cooking class at the gym.')?.objects, ['class'], 'a thing is not about its modifier');
});

test("whose the thing is and whom it is for: the owner's 's and the receiver are people, not what the action is about", () => {
  assert.deepEqual(read("I need to return my sister's drill."), { verb: 'return', objects: ['drill'], complements: [], people: ['sister'] },
    "the thing after an owner's 's is the head, even tagged a verb");
  assert.deepEqual(read('I returned the drill to my sister on Monday.'),
    { verb: 'return', objects: ['drill'], complements: ['sister'], people: ['sister'], past: true });
  assert.deepEqual(read("I'll send my cousin a birthday card."), { verb: 'send', objects: ['card'], complements: ['cousin'], people: ['cousin'], which: ['birthday'] },
    'of two objects the first receives the second');
  assert.deepEqual(read('I sent the client the invoice this morning.')?.objects, ['invoice']);
  assert.deepEqual(read('I finished the jigsaw my aunt gave me.')?.objects, ['jigsaw'], 'a relative clause is no second object');
  assert.deepEqual(read("I'm going to paint the kids' bedroom.")?.objects, ['bedroom'], "a plural owner's apostrophe");
  assert.deepEqual(read("I'm going to paint the kids' bedroom.")?.people, ['kid']);
  assert.deepEqual(read('I have to write a thank-you card to my aunt.')?.objects, ['card'], 'a hyphenated compound modifies the noun after it');
  assert.deepEqual(read('I dropped the keys off at the landlord\'s office.'),
    { verb: 'drop', objects: ['key'], complements: ['office'], people: ['landlord'], phrasal: 'drop_off', past: true }, 'a particle after the object');
  assert.deepEqual(read('I need to get the car serviced next week.'), { verb: 'service', objects: ['car'], complements: [] },
    'get + object + participle: the participle is the action');
});

test('an outcome worded apart from the plan settles it: owner or receiver, phrasal verb; other people do not', () => {
  const done = (o: string, p: string): boolean => settlesByObject('done', { ...read(o)!, actionNamed: true }, read(p)!, o, p);
  assert.equal(done('I returned the drill to my sister on Monday.', "I need to return my sister's drill."), true);
  assert.equal(done("I returned my sister's drill yesterday.", "I'm going to return the drill to my brother."), false, 'another person');
  assert.equal(done('I sent my aunt a birthday card.', "I'll send my cousin a birthday card."), false, 'another receiver');
  assert.equal(done('I wrote a letter to my grandmother.', "I'll write my grandmother a letter."), true);
  assert.equal(done('I bought a birthday present for my mum yesterday.', "I'm going to buy my mum a birthday present."), true);
  assert.equal(cancelsByObject(read("I've decided not to lend my brother the camera.")!, read("I'm going to lend my camera to my cousin.")!), false);
  assert.equal(cancelsByObject(read("I've decided not to lend my cousin the camera.")!, read("I'm going to lend my camera to my cousin.")!), true);
});

test('a phrasal verb WordNet lists with the plan\'s verb names its action ("gave the drill back" / "return the drill")', { skip: !wordNetHere() }, () => {
  const done = (o: string, p: string): boolean => settlesByObject('done', { ...read(o)!, actionNamed: true }, read(p)!, o, p);
  assert.equal(done('I gave the drill back to Tom.', 'I need to return the drill to Tom.'), true);
  assert.equal(done('I took the jacket back to the shop.', "I'm going to return the jacket to the shop."), true);
  assert.equal(done('I gave the drill to Tom.', 'I need to return the drill to Tom.'), false, 'give alone is not return');
});

test('an action told as done: a past form or a participle, not hedged, negated or asked', () => {
  assert.equal(read('I picked up the parcel from the post office.')?.past, true);
  assert.equal(read('The fence was painted on Monday.')?.past, true);
  assert.equal(read("I'll pick up the parcel.")?.past, undefined);
  assert.equal(read("I didn't pick up the parcel.")?.past, undefined);
  assert.equal(read('If I picked up the parcel, it would be here.')?.past, undefined);
  assert.equal(read('Did you pick up the parcel?')?.past, undefined);
});

test('settling by plan object: the outcome names the plan\'s object; a named action must be the plan\'s', () => {
  const beds = read("I'll build the raised beds next week.")!;
  const flowers = read('I want to plant flowers around the raised beds.')!;
  const done = read('The raised beds are finished.')!;
  assert.equal(settlesByObject('done', done, beds, 'The raised beds are finished', 'Tom will build the raised beds'), true);
  assert.equal(settlesByObject('done', done, flowers, 'The raised beds are finished', 'Tom wants to plant flowers around the raised beds'), false,
    'the beds are only where the flowers go');
  const wrote = read('I finished writing my book.')!;
  assert.equal(settlesByObject('done', wrote, read('I might publish a book.')!, '', ''), false, 'writing a book does not publish it');
  assert.equal(settlesByObject('done', wrote, read("I'm going to write a book about my grandmother.")!, '', ''), true);
  const always = read('I always take the stairs instead of the lift.')!;
  assert.equal(settlesByObject('instead', always, read("I'll take the lift to the roof terrace.")!, 'I always take the stairs instead of the lift', ''), false,
    'a habit replaces no plan');
  const weekends = read('I cycle to the office every weekend instead of the bus.')!;
  assert.equal(settlesByObject('instead', weekends, read("I'll take the bus to the office on Monday.")!, 'I cycle to the office every weekend instead of the bus', ''), false,
    '"every weekend" is a habit too');
  const never = read('I never take the car, I walk to the market instead.')!;
  assert.equal(settlesByObject('instead', never, read("I'll take the car to the market.")!, 'I never take the car, I walk to the market instead', ''), false,
    '"never" is a habit too');
});

const fact = (over: Partial<Fact>): Fact => storedFact('2026-12-01T10:00:00.000Z', {
  id: 'f1', content: 'Tom will build the raised beds', speakerId: 'p_tom', subjectId: 'p_tom', kind: 'commitment', referIds: ['u1'], ...over,
});
const said = (content: string, sentence = content): ExtractedFact => ({
  content, kind: 'statement', subjectId: 'p_tom', speakerId: 'p_tom', addresseeIds: [], slot: null, value: null, retraction: false,
  confidence: 0.6, referIds: ['u2'], settles: settles(sentence) ?? undefined, planObject: read(sentence),
});
const planned = (id: string, content: string, sentence: string): Fact => fact({ id, content, kind: 'plan', planObject: read(sentence) });

describe('the decider closes the plan an outcome, an alternative or a decision is about, and only that one', () => {
  const d = new RuleDecider({ settleCosine: 0.4 });

  test('a shared word that is not the plan\'s object closes nothing', async () => {
    const publish = planned('f_pub', 'Tom might publish a book', 'I might publish a book.');
    assert.deepEqual(await d.decide({ fact: said('Tom finished writing his book', 'I finished writing my book.'), candidates: [{ fact: publish, score: 0.7 }], retractedFacts: [] }),
      { op: 'ADD' });
    const passion = planned('f_pas', "Tom will keep pursuing Tom's passion for writing", "I'll keep pursuing my passion for writing.");
    assert.deepEqual(await d.decide({ fact: said('Tom finished the sign-up for a writing club', 'I finished the sign-up for a writing club.'),
      candidates: [{ fact: passion, score: 0.6 }], retractedFacts: [] }), { op: 'ADD' });
  });

  test('of two plans sharing words with an outcome, the one whose object it names is closed', async () => {
    const flowers = planned('f_flowers', 'Tom wants to plant flowers around the raised beds', 'I want to plant flowers around the raised beds.');
    const beds = planned('f_beds', 'Tom will build the raised beds', "I'll build the raised beds.");
    assert.deepEqual(await d.decide({ fact: said('The raised beds are finished'), candidates: [{ fact: flowers, score: 0.8 }, { fact: beds, score: 0.7 }], retractedFacts: [] }),
      { op: 'UPDATE', targetId: 'f_beds' });
  });

  test('"instead" closes the plan it replaces; an alternative that names no action closes nothing', async () => {
    const beds = planned('f_beds', 'Tom will spend the morning on the raised beds', "I'll spend the morning on the raised beds.");
    const tank = planned('f_tank', 'Lena could spend the grant on a new water tank', 'We could spend the grant on a new water tank.');
    const barrels = 'We decided to spend the grant on rain barrels instead of the water tank.';
    assert.deepEqual(await d.decide({ fact: said('Tom and Lena decided to spend the grant on rain barrels instead of the water tank', barrels),
      candidates: [{ fact: beds, score: 0.7 }, { fact: tank, score: 0.6 }], retractedFacts: [] }), { op: 'UPDATE', targetId: 'f_tank' });
    const recipe = planned('f_recipe', 'Tom will just need the dairy-free recipe', "I'll just need the dairy-free recipe.");
    assert.deepEqual(await d.decide({ fact: said('Tom likes dairy-free options like almond milk instead', 'I like dairy-free options like almond milk instead.'),
      candidates: [{ fact: recipe, score: 0.7 }], retractedFacts: [] }), { op: 'ADD' });
  });

  test('a decision settles the proposal it chooses between, not a promise', async () => {
    const lake = planned('f_lake', 'Tom could hold the reunion at the lake house', 'We could hold the reunion at the lake house.');
    const decision = said('Tom decided to hold the reunion at the old school', 'We decided to hold the reunion at the old school.');
    assert.equal(decision.settles, 'decided');
    assert.deepEqual(await d.decide({ fact: decision, candidates: [{ fact: lake, score: 0.7 }], retractedFacts: [] }), { op: 'UPDATE', targetId: 'f_lake' });
    const promise = planned('f_promise', 'Tom will call everyone about the reunion', "I'll call everyone about the reunion.");
    assert.deepEqual(await d.decide({ fact: decision, candidates: [{ fact: promise, score: 0.7 }], retractedFacts: [] }), { op: 'ADD' });
    assert.equal(settles("I'll go with you to the station."), null, 'going with someone is no decision');
  });

  test('a decision settles the proposal whose object it names, not one that only shares a place', async () => {
    const fence = planned('f_fence', 'Tom should get a new fence for the yard', 'We should get a new fence for the yard.');
    const beans = said('Tom decided to grow beans in the yard', 'We decided to grow beans in the yard.');
    assert.deepEqual(await d.decide({ fact: beans, candidates: [{ fact: fence, score: 0.7 }], retractedFacts: [] }), { op: 'ADD' });
  });

  test('a cancellation deletes the plan whose object it names, not one sharing a place', async () => {
    const volunteer = planned('f_vol', 'Tom will volunteer at the community centre on Friday', "I'll volunteer at the community centre on Friday.");
    const cancelled = said('Tom cancelled the gym class at the community centre', 'I cancelled the gym class at the community centre.');
    assert.equal(cancelled.settles, 'cancelled');
    assert.deepEqual(await d.decide({ fact: cancelled, candidates: [{ fact: volunteer, score: 0.7 }], retractedFacts: [] }), { op: 'ADD' });
    const barbecue = planned('f_bbq', 'Tom will host a barbecue in the garden on Sunday', "I'll host a barbecue in the garden on Sunday.");
    const herbs = planned('f_herbs', 'Tom wants to grow herbs in the garden', 'I want to grow herbs in the garden.');
    assert.deepEqual(await d.decide({ fact: said('Tom called off the barbecue', 'We called off the barbecue.'),
      candidates: [{ fact: herbs, score: 0.8 }, { fact: barbecue, score: 0.7 }], retractedFacts: [] }), { op: 'DELETE', targetIds: ['f_bbq'] });
    const car = planned('f_car', 'Tom will fix your car this week', "I'll fix your car this week.");
    assert.deepEqual(await d.decide({ fact: said("Tom can't do the car repair", "Forget about the car repair, I can't do it."),
      candidates: [{ fact: car, score: 0.6 }], retractedFacts: [] }), { op: 'DELETE', targetIds: ['f_car'] }, 'the repair is of the car');
  });

  test('a cancellation naming the action deletes the plan of that action and object, not another object', async () => {
    const kitchen = planned('f_kitchen', 'Tom wants to paint the kitchen', 'I want to paint the kitchen.');
    const shed = planned('f_shed', 'Tom will paint the shed', "I'll paint the shed.");
    const notShed = { ...said('Tom is not going to paint the shed after all', "I'm not going to paint the shed after all."), retraction: true };
    assert.deepEqual(await d.decide({ fact: notShed, candidates: [{ fact: kitchen, score: 0.8 }, { fact: shed, score: 0.7 }], retractedFacts: [] }),
      { op: 'DELETE', targetIds: ['f_shed'] });
    const cook = planned('f_cook', 'Tom will cook dinner for everyone on Friday', "I'll cook dinner for everyone on Friday.");
    const noCooking = { ...said("Tom won't be cooking after all", "I won't be cooking after all."), settles: 'cancelled' as const, retraction: true };
    assert.deepEqual(await d.decide({ fact: noCooking, candidates: [{ fact: cook, score: 0.6 }], retractedFacts: [] }),
      { op: 'DELETE', targetIds: ['f_cook'] }, 'the action alone names the plan');
  });

  test('a cancellation that names nothing keeps the shared-word rule', async () => {
    const plumber = planned('f_plumber', 'Tom will call the plumber about the leak tomorrow', "I'll call the plumber about the leak tomorrow.");
    const bare = said('Tom has to cancel', 'Sorry, I have to cancel.');
    assert.equal(cancelsByObject(bare.planObject!, plumber.planObject!), null);
    assert.deepEqual(await d.decide({ fact: bare, candidates: [{ fact: plumber, score: 0.6 }], retractedFacts: [] }), { op: 'ADD' });
    const meeting = planned('f_meet', 'Tom will go to the meeting on Monday', "I'll go to the meeting on Monday.");
    assert.equal(cancelsByObject(read("I can't make it to the meeting after all.")!, meeting.planObject!), true, '"can\'t make it to" names the place');
  });

  test('facts stored before plan objects keep the shared-word rule', async () => {
    const old = fact({ id: 'f_old', content: 'Tom will build the raised beds', planObject: null });
    assert.deepEqual(await d.decide({ fact: said('The raised beds are finished'), candidates: [{ fact: old, score: 0.6 }], retractedFacts: [] }),
      { op: 'UPDATE', targetId: 'f_old' });
    const oldFlowers = fact({ id: 'f_old2', content: 'Tom wants more flowers in the garden', planObject: null });
    assert.deepEqual(await d.decide({ fact: said('The raised beds are finished'), candidates: [{ fact: oldFlowers, score: 0.6 }], retractedFacts: [] }),
      { op: 'ADD' }, 'no shared word: still nothing');
  });

  test('what someone else decided or did settles only what was told about them', async () => {
    const dog = fact({ id: 'f_dog', content: 'Tom could get a dog', kind: 'statement', planObject: read('We could get a dog.') });
    const theirs = (content: string, sentence: string, by: string): ExtractedFact => ({ ...said(content, sentence), planObject: { ...read(sentence)!, reportedBy: by } });
    assert.deepEqual(await d.decide({ fact: theirs("Tom's neighbours decided on a dog", 'Our neighbours decided on a dog.', 'neighbour'),
      candidates: [{ fact: dog, score: 0.7 }], retractedFacts: [] }), { op: 'ADD' }, 'the neighbours chose for themselves');
    assert.deepEqual(await d.decide({ fact: said('Tom decided on a dog', 'We decided on a dog.'), candidates: [{ fact: dog, score: 0.7 }], retractedFacts: [] }),
      { op: 'UPDATE', targetId: 'f_dog' });
    const car = fact({ id: 'f_car', content: "Tom's sister is going to sell her old car", kind: 'statement',
      planObject: { ...read('My sister is going to sell her old car.')!, reportedBy: 'sister' } });
    const done = (f: ExtractedFact): ExtractedFact => ({ ...f, settles: 'done', planObject: { ...f.planObject!, actionNamed: true } });
    assert.deepEqual(await d.decide({ fact: done(said('Tom sold his old car', 'I sold my old car.')), candidates: [{ fact: car, score: 0.7 }], retractedFacts: [] }),
      { op: 'ADD' }, 'the sister\'s plan is not the speaker\'s');
    assert.deepEqual(await d.decide({ fact: done(theirs("Tom's sister sold her car", 'My sister sold her car.', 'sister')), candidates: [{ fact: car, score: 0.7 }],
      retractedFacts: [] }), { op: 'UPDATE', targetId: 'f_car' });
    // An act by others on no thing of their own (`doneBy`): it settles a plan told about them, or one of the speaker's.
    const fence = fact({ id: 'f_fence', content: "Tom's parents are going to paint the fence", kind: 'statement',
      planObject: { ...read('My parents are going to paint the fence.')!, reportedBy: 'parent' } });
    const byParents = done({ ...said("Tom's parents painted the fence", 'My parents painted the fence.'),
      planObject: { ...read('My parents painted the fence.')!, doneBy: 'parent' } });
    assert.deepEqual(await d.decide({ fact: byParents, candidates: [{ fact: fence, score: 0.7 }], retractedFacts: [] }), { op: 'UPDATE', targetId: 'f_fence' });
    const own = fact({ id: 'f_own', content: 'Tom is going to paint the fence', kind: 'plan', planObject: read("I'm going to paint the fence.") });
    assert.deepEqual(await d.decide({ fact: byParents, candidates: [{ fact: own, score: 0.7 }], retractedFacts: [] }), { op: 'UPDATE', targetId: 'f_own' },
      'the parents may have painted it for the speaker');
    const sisters = fact({ id: 'f_sis', content: "Tom's sister is going to paint the fence", kind: 'statement',
      planObject: { ...read('My sister is going to paint the fence.')!, reportedBy: 'sister' } });
    assert.deepEqual(await d.decide({ fact: byParents, candidates: [{ fact: sisters, score: 0.7 }], retractedFacts: [] }), { op: 'ADD' },
      "the parents' act is not the sister's plan");
  });

  test('a habit or a resolution said with "should" is closed by no single act; a "should" with a thing of its own is', async () => {
    const called = (sentence: string): ExtractedFact => ({ ...said('Tom called Tom\'s mum', sentence), settles: 'done',
      planObject: { ...read(sentence)!, actionNamed: true } });
    for (const content of ["Tom should call Tom's mum more often", "Tom should always call Tom's mum on Sundays"]) {
      const maxim = fact({ id: 'f_mum', content, kind: 'statement', planObject: read("I should call my mum more often.") });
      assert.deepEqual(await d.decide({ fact: called('I called my mum.'), candidates: [{ fact: maxim, score: 0.8 }], retractedFacts: [] }), { op: 'ADD' }, content);
    }
    const once = fact({ id: 'f_once', content: "Tom should call Tom's mum about the party", kind: 'statement', planObject: read('I should call my mum about the party.') });
    assert.deepEqual(await d.decide({ fact: called('I called my mum.'), candidates: [{ fact: once, score: 0.8 }], retractedFacts: [] }),
      { op: 'UPDATE', targetId: 'f_once' });
  });
});

describe('plan objects through extraction, storage and consolidation (real USE-lite, real SQLite)', () => {
  const T = 't_plan';
  let db: SqliteDatabase;
  let graph: SqliteGraphStore;
  let memory: SqliteMemoryStore;
  let handler: ReturnType<typeof createConsolidationHandler>;
  const embedder = new UseLiteEmbedder();
  let tom: string;
  let lena: string;
  let clock = Date.parse('2026-12-01T10:00:00.000Z');

  async function say(speaker: string, addressee: string, text: string): Promise<string> {
    clock += 60_000;
    const [u] = await graph.addUtterances(T, [{ sessionId: 's1', speakerId: speaker, addresseeIds: [addressee], text,
      startMs: null, endMs: null, time: new Date(clock).toISOString(), confidence: null, audioRef: null }]);
    await handler({ id: `j${clock}`, name: 'memory.consolidate', attempt: 1, data: { tenant: T, sessionId: 's1', utteranceId: u!.id } satisfies ConsolidationJob },
      new AbortController().signal);
    return u!.id;
  }
  const factsOf = async (utteranceId: string): Promise<Fact[]> =>
    memory.listFacts(T, { ids: (await memory.processedFacts(T, utteranceId)) ?? [], includeHistory: true });

  before(async () => {
    db = openDatabase(':memory:');
    // A database from before plan objects: memory_facts without the plan_object column.
    db.exec(`CREATE TABLE memory_facts (tenant TEXT NOT NULL, id TEXT NOT NULL, content TEXT NOT NULL, speaker_id TEXT NOT NULL,
      addressee_ids TEXT NOT NULL DEFAULT '[]', subject_id TEXT NOT NULL, kind TEXT NOT NULL, layer TEXT NOT NULL, slot TEXT, value TEXT,
      time TEXT NOT NULL, refer_ids TEXT NOT NULL DEFAULT '[]', valid_from TEXT NOT NULL, valid_to TEXT, supersedes TEXT, superseded_by TEXT,
      confidence REAL NOT NULL, session_id TEXT NOT NULL, source TEXT NOT NULL, created_at TEXT NOT NULL, event_time TEXT, valid_until TEXT,
      PRIMARY KEY (tenant, id))`);
    db.prepare(`INSERT INTO memory_facts (tenant, id, content, speaker_id, subject_id, kind, layer, time, valid_from, confidence, session_id, source, created_at)
      VALUES (?, 'f_stored', 'Old fact', 'p_x', 'p_x', 'plan', 'fact', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 0.7, 's0', 'embedded-rules/2', '2026-01-01T00:00:00.000Z')`).run(T);
    graph = new SqliteGraphStore(db);
    memory = new SqliteMemoryStore(db);
    await graph.openSession(T, 's1', new Date(clock).toISOString());
    tom = (await graph.createParticipant(T, { name: 'Tom' })).id;
    lena = (await graph.createParticipant(T, { name: 'Lena' })).id;
    handler = createConsolidationHandler({
      graph, memory, vectors: new SqliteVectorStore(db), lexical: new SqliteLexicalIndex(db), embedder, extractor: new EmbeddedExtractor(),
      onOps: () => {}, logger: pino({ level: 'silent' }),
    });
  });
  after(async () => {
    await embedder.close();
    db.close();
  });

  test('a database from before plan objects gains the column; its facts read with none', async () => {
    assert.equal((await memory.getFact(T, 'f_stored'))?.planObject, null);
  });

  test('a commitment is stored with its plan object, and the outcome naming it closes it, not a plan sharing a word', async () => {
    const beds = await say(tom, lena, "I'll build the raised beds next week.");
    const flowers = await say(tom, lena, 'I want to plant flowers around the raised beds.');
    const [commitment] = await factsOf(beds);
    assert.deepEqual(commitment?.planObject, { verb: 'build', objects: ['bed'], complements: [] });
    await say(tom, lena, 'The raised beds are finished.');
    assert.notEqual((await factsOf(beds))[0]?.validTo, null, 'the beds plan is done');
    assert.equal((await factsOf(flowers))[0]?.validTo, null, 'the flowers plan stays open');
  });

  test('an action told as done with no done-word closes the plan of that verb and object only', async () => {
    const parcel = await say(lena, tom, "I'll pick up the parcel from the post office tomorrow.");
    const stamps = await say(lena, tom, 'I want to buy stamps at the post office.');
    await say(tom, lena, 'Lena picked up the parcel, it is on the table.');
    assert.notEqual((await factsOf(parcel))[0]?.validTo, null, 'picked up: done');
    assert.equal((await factsOf(stamps))[0]?.validTo, null, 'the other plan at the post office stays open');
    const call = await say(lena, tom, "I'll call the landlord about the heating.");
    await say(lena, tom, 'I emailed the landlord about the rent.');
    assert.equal((await factsOf(call))[0]?.validTo, null, 'another action on the same person settles nothing');
    const wish = await say(lena, tom, 'I want to visit the museum more often.');
    const visit = await say(lena, tom, "I'm going to visit the gallery on Saturday.");
    await say(lena, tom, 'I visited the museum on Sunday.');
    assert.equal((await factsOf(wish))[0]?.validTo, null, 'one visit does not settle a wish');
    assert.equal((await factsOf(visit))[0]?.validTo, null, 'the same verb on another object settles nothing');
  });

  test('"maybe we should…" is kept as a proposal', async () => {
    const [proposal] = await factsOf(await say(lena, tom, 'Maybe we should paint the shed green.'));
    assert.equal(proposal?.content, 'Maybe Lena and Tom should paint the shed green');
    assert.deepEqual(proposal?.planObject?.objects, ['shed']);
  });

  test('a cancellation said as a withdrawal carries its plan object and deletes the plan it names only', async () => {
    const kitchen = await say(tom, lena, 'I want to paint the kitchen.');
    const shed = await say(tom, lena, "I'll paint the shed on Sunday.");
    const cancel = await say(tom, lena, "I'm not going to paint the shed after all.");
    const extracted = await new EmbeddedExtractor().extract({ current: (await graph.getUtterance(T, cancel))!, previous: [], names: {} });
    assert.deepEqual(extracted.facts.find((f) => f.settles === 'cancelled')?.planObject, { verb: 'paint', objects: ['shed'], complements: [] },
      'the withdrawal carries what it cancels');
    assert.notEqual((await factsOf(shed))[0]?.validTo, null, 'the shed plan is cancelled');
    assert.equal((await factsOf(kitchen))[0]?.validTo, null, 'the kitchen plan stays open');
    const centre = await say(lena, tom, "I'll volunteer at the community centre on Friday.");
    await say(lena, tom, 'I cancelled the gym class at the community centre.');
    assert.equal((await factsOf(centre))[0]?.validTo, null, 'a cancelled class at the same place cancels nothing');
  });

  test('a plan stored without a plan object (before they existed) is still closed by the shared-word rule', async () => {
    const fence = await say(lena, tom, "I'll paint the garden fence on Saturday.");
    db.prepare('UPDATE memory_facts SET plan_object = NULL WHERE tenant = ?').run(T);
    assert.equal((await factsOf(fence))[0]?.planObject, null);
    await say(lena, tom, 'The garden fence is finished.');
    assert.notEqual((await factsOf(fence))[0]?.validTo, null);
  });
});
