/**
 * Rules 116 (keepquit): changes of mind told in everyday words (issue #16 item 3). Two turns: a state, habit or plan, then
 * the turn that gives it up (it must close) or restates it with "still" (it must stay open, and no second copy stored).
 * Each test with an "On main" comment failed on main 419530f8 (what it did there in the comment); the others guard what
 * must stay as it was.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { wink } from '../../../pipelines/wink.js';
import { withContractedIs } from '../../../pipelines/memory/contracted-is.js';
import { quitDecision, restatedDecision } from '../../../pipelines/memory/quit-or-still.js';
import type { Fact } from '../../../graph/memory-store.js';
import { allFactsAfter } from '../../helpers/memory-fixture.js';
import { eachRow, openAndClosed } from '../../helpers/open-closed.js';

const MONDAY = '2026-12-07T10:00:00.000Z';

describe('rules 116: a state, habit or plan given up ends it', () => {
  const factsAfter = allFactsAfter(MONDAY);

  test('packed in, given up on, not renewing, an idea out, abstaining for months, no longer needed', async () => {
    // On main: each left the first fact open (the quitting was stored beside it).
    await eachRow(factsAfter, 't-116-quit', [
      ["I'm learning the guitar, I have a lesson every Tuesday.", "I've packed in the guitar lessons, my fingers just won't do it.", /learning the guitar/],
      ['I smoke about ten a day.', "I haven't had a cigarette in three months.", /smokes about ten a day/],
      ["We're thinking of getting a puppy for Christmas.", "The puppy idea's out, the landlord said no pets.", /puppy/],
      ["I said I'd help Raj move house on Saturday.", "Raj doesn't need me on Saturday anymore, he's hired a removal firm.", /help Raj move house/],
      ["I'm doing keto, no bread, no pasta.", 'I stopped the keto diet last week.', /doing keto/],
    ]);
  });

  test('a giving up of something else, one to come, a packing, "out there" or a meal not had yet close nothing', async () => {
    await eachRow(factsAfter, 't-116-not-quit', [
      ["I'm learning the guitar.", 'I gave up an hour to help Tom with his essay.', /learning the guitar/],
      ['I smoke about ten a day.', "I haven't had lunch yet.", /smokes about ten a day/],
      ["We're thinking of getting a puppy for Christmas.", "The idea's out there, we'll see.", /puppy/],
      ["I'm learning the guitar.", "I'm going to give up the guitar in January.", /learning the guitar/],
      ["I'm learning the guitar.", 'I packed the guitar in the car.', /learning the guitar/],
    ], true);
  });

  test('"Gemma\'s called off her party" reads "has called off"; a name or an adjective after "\'s" stays', () => {
    // On main: left as a possessive, so the fact was not of Gemma.
    const read = (s: string): string => withContractedIs(wink(), s);
    assert.equal(read("Gemma's called off her fortieth."), 'Gemma has called off her fortieth.');
    assert.equal(read("Rhiannon's given up on keto."), 'Rhiannon has given up on keto.');
    for (const s of ["My dog's called Rex.", "Tom's used car is red.", "Tom's running shoes got ruined."]) assert.equal(read(s), s);
  });
});

/** A stored fact of Maria's with `content`, current. */
function fact(id: string, content: string, kind: Fact['kind'] = 'statement'): Fact {
  return { id, content, kind, validTo: null, planObject: null } as unknown as Fact;
}

describe('rules 116: a restatement with "still" keeps the fact it names', () => {
  const factsAfter = allFactsAfter(MONDAY);

  test('"still on for April", "still with Dan": the fact is kept, no copy stored, nothing closed', async () => {
    // On main: the restatement was stored as a second fact ("Japan…"), or closed the first ("Dan": UPDATE).
    for (const [i, [first, said, held]] of ([
      ["I'm going to Japan in April with my brother.", "Japan's still on for April, we've just sorted the rail passes.", /going to Japan/],
      ["I'm seeing Dan, he's a firefighter.", "I'm still with Dan the firefighter, we've just had our first anniversary.", /seeing Dan/],
    ] as const).entries()) {
      const facts = openAndClosed(await factsAfter(`t-116-still-${i}`, [first, said]));
      assert.ok(facts.open.some((c) => held.test(c)), `${said}: ${JSON.stringify(facts)}`);
      assert.deepEqual(facts.closed, [], said);
      assert.ok(!facts.open.some((c) => /\bstill\b/.test(c)), `${said}: ${JSON.stringify(facts)}`);
    }
  });

  test('a "still" of another thing, or of nothing held, keeps nothing', () => {
    const held = [{ fact: fact('f1', 'Maria is going to Japan in April 2027'), score: 0.6 }];
    assert.equal(restatedDecision("Maria is still deciding", held, ['maria']), null);
    assert.equal(restatedDecision("Maria still hasn't booked Japan", held, ['maria']), null);
    assert.equal(restatedDecision('Maria is still in the choir', held, ['maria']), null);
    assert.deepEqual(restatedDecision('Japan is still on for April 2027', held, ['maria']), { op: 'KEEP', targetId: 'f1' });
    // After review: a "still" of someone else is theirs; one in a clause of the person's own keeps.
    assert.equal(restatedDecision("Maria's sister is still going to Japan", held, ['maria']), null);
    assert.equal(restatedDecision('Tom is still going to Japan', held, ['maria']), null);
    assert.deepEqual(restatedDecision('People keep asking about Japan but no, still going to Japan', held, ['maria']), { op: 'KEEP', targetId: 'f1' });
  });

  test('a quitting of someone else\'s, or asked, ends nothing', () => {
    const held = [{ fact: fact('f1', 'Maria is going to Lanzarote in February'), score: 0.6 }];
    assert.equal(quitDecision("Maria's mum has cancelled her trip to Lanzarote", held, ['maria']), null);
    assert.equal(quitDecision('Has Maria given up on Lanzarote?', held, ['maria']), null);
    assert.deepEqual(quitDecision('Maria has given up on Lanzarote', held, ['maria']), { op: 'DELETE', targetIds: ['f1'] });
  });
});

/** A first turn, a second that must close nothing, what the first's fact matches, and what the second's stored fact matches. */
type KeptRow = readonly [first: string, said: string, held: RegExp, stored: RegExp];

describe('rules 116 after review: another person, another sense of "stop" or "give up", a short span, one occurrence', () => {
  const factsAfter = allFactsAfter(MONDAY);

  test('the first fact stays open, nothing closed, and the second turn is stored', async () => {
    // On rules 116 before review: each closed the first fact and stored nothing of the second turn (review-keepquit 1-6).
    const rows: KeptRow[] = [
      ['I have a season ticket for Arsenal.', "Tom's not renewing his season ticket.", /season ticket for Arsenal/, /Tom/],
      ['I work at Tesco.', 'I stopped at Tesco on the way home.', /works at Tesco/, /stopped at Tesco/],
      ["I'm learning the guitar.", 'I stopped by the guitar shop.', /learning the guitar/, /guitar shop/],
      ["I'm learning the guitar.", 'I gave up an hour to help Tom with the guitar.', /learning the guitar/, /hour/],
      ['I take the bus to work.', 'I gave up my seat on the bus to an old lady.', /takes the bus/, /seat/],
      ["I'm learning the guitar.", 'I quit my job to focus on the guitar.', /learning the guitar/, /job/],
      ["I'm going to the cinema with Tom on Friday.", 'I stopped watching horror films.', /cinema/, /horror films/],
      ["I'm going to Japan in April.", 'I gave up trying to learn Japanese.', /going to Japan/, /Japanese/],
      ['I smoke about ten a day.', "I haven't had a cigarette since breakfast.", /smokes about ten a day/, /breakfast/],
      ["I said I'd help Raj move house on Saturday.", "Raj doesn't need the van anymore.", /help Raj move house/, /van/],
      ["I'm helping Raj with his garden on Saturday.", "Raj doesn't need a new fence anymore.", /garden/, /fence/],
      ['I have a lesson every Tuesday.', "I cancelled Tuesday's lesson because I'm sick.", /every Tuesday/, /cancelled/],
      ['I work at Tesco.', 'My brother still works at Tesco.', /Maria works at Tesco/, /brother/],
      ["I'm going to Japan in April.", 'My sister is still going to Japan.', /Maria is going to Japan/, /sister/],
    ];
    for (const [i, [first, said, held, stored]] of rows.entries()) {
      const facts = openAndClosed(await factsAfter(`t-116-review-${i}`, [first, said]));
      assert.ok(facts.open.some((c) => held.test(c)), `${said}: ${JSON.stringify(facts)}`);
      assert.deepEqual(facts.closed, [], `${said}: ${JSON.stringify(facts)}`);
      assert.ok(facts.open.some((c) => stored.test(c) && !held.test(c)), `${said}: ${JSON.stringify(facts)}`);
    }
  });

  test('another person quitting a fact told with the person, or needing something else, ends nothing', () => {
    const gym = [{ fact: fact('f1', 'Tom and Maria go to the gym every Monday'), score: 0.6 }];
    assert.equal(quitDecision('Tom quit the gym', gym, ['maria']), null);
    assert.deepEqual(quitDecision('Maria quit the gym', gym, ['maria']), { op: 'DELETE', targetIds: ['f1'] });
    const raj = [{ fact: fact('f2', 'Maria is going to help Raj move house on Saturday'), score: 0.6 }];
    assert.equal(quitDecision("Raj doesn't need Maria to bring boxes now, just the van", raj, ['maria']), null);
    assert.deepEqual(quitDecision("Raj doesn't need Maria on Saturday anymore", raj, ['maria']), { op: 'DELETE', targetIds: ['f2'] });
    const smoke = [{ fact: fact('f3', 'Maria smokes about ten a day'), score: 0.6 }];
    assert.equal(quitDecision("Maria hasn't had a cigarette since breakfast", smoke, ['maria']), null);
    assert.deepEqual(quitDecision("Maria hasn't had a cigarette in three months", smoke, ['maria']), { op: 'DELETE', targetIds: ['f3'] });
    // The span as the date reader leaves it ("in three months" → "in March 2027", "in two weeks" → "on Monday 21 December").
    assert.deepEqual(quitDecision("Maria hasn't had a cigarette in March 2027", smoke, ['maria']), { op: 'DELETE', targetIds: ['f3'] });
    const coffee = [{ fact: fact('f4', 'Maria drinks coffee every morning'), score: 0.6 }];
    assert.deepEqual(quitDecision("Maria hasn't had a coffee on Monday 21 December 2026, their doctor told Maria to stop", coffee, ['maria']),
      { op: 'DELETE', targetIds: ['f4'] });
  });
});
