/**
 * Rules 55 (far-field and phone speech): a number a recogniser writes in words is read as digits where a value is said,
 * and only there; a secret given is no memory.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EMBEDDED_RULES_VERSION, EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import { cancelledOrders } from '../../../pipelines/memory/cancelled-plans.js';
import { withSpokenValues } from '../../../pipelines/memory/spoken-values.js';
import { storedFact } from '../../helpers/stored-fact.js';

const TIME = '2026-11-23T10:00:00.000Z';

/** The facts (kind, content, slot, value) and profile updates the rules read from `text`, said by Ben to Tom. */
async function read(text: string): Promise<{ facts: unknown[]; profile: unknown[] }> {
  const r = await new EmbeddedExtractor().extract({
    current: { id: 'u1', speakerId: 'a', addresseeIds: ['b'], text, time: TIME, sessionId: 's', confidence: null } as never,
    previous: [], names: { a: 'Ben', b: 'Tom' },
  });
  return { facts: r.facts.map((f) => [f.kind, f.content, f.slot, f.value]), profile: r.profileUpdates.map((p) => [p.participantId, p.attribute, p.value]) };
}

describe('rules 55: values said in words', () => {
  test('a phone number after "call me on" is the speaker\'s phone number, "oh" a zero', async () => {
    for (const text of ['call me on five five five oh one four two', 'yes you can reach me at five five five oh one four two']) {
      assert.deepEqual(await read(text), {
        facts: [['profile', "Ben's phone number is 5550142", 'phone_number', '5550142']], profile: [['a', 'phone_number', '5550142']],
      }, text);
    }
  });

  test('"call me at five thirty" is a time, no phone number', async () => {
    assert.deepEqual((await read('call me at five thirty')).profile, []);
  });

  test('a house number in words before its street is written in digits, in a home, a delivery address and a request', async () => {
    assert.deepEqual((await read('I live at twelve elm street')).facts, [['statement', 'Ben lives at 12 elm street', null, null]]);
    assert.deepEqual((await read('I live at forty two Elm Street in Leeds')).facts, [['profile', 'Ben lives at 42 Elm Street in Leeds', 'lives_in', 'Leeds']]);
    assert.deepEqual((await read('my delivery address is one hundred and five Hill Road, Bristol')).profile,
      [['a', 'delivery_address', '105 Hill Road, Bristol']]);
    assert.deepEqual((await read('please deliver it to twelve Park Road in Leeds')).facts,
      [['request', 'Ben asked Tom to deliver it to 12 Park Road in Leeds', 'delivery_address', '12 Park Road in Leeds']]);
  });

  test('a code or a number given is kept in digits', async () => {
    assert.deepEqual((await read('the code is four four seven one')).facts, [['statement', 'The code is 4471', null, null]]);
    assert.deepEqual((await read('my order number is five five two zero')).facts, [['profile', "Ben's order number is 5520", 'order_number:5520', '5520']]);
  });

  test('a cancellation naming an order in words closes the order kept in digits', async () => {
    const chairs = { score: 0.5, fact: storedFact(TIME, { id: 'f1', content: 'Ben ordered four garden chairs, order 5520', speakerId: 'a', subjectId: 'a',
      planObject: { verb: 'order', objects: ['chair'], complements: [], past: true } }) };
    for (const text of ['please cancel order five five two zero', 'i have cancelled order five five two zero']) {
      const { facts } = await new EmbeddedExtractor().extract({
        current: { id: 'u2', speakerId: 'a', addresseeIds: ['b'], text, time: TIME, sessionId: 's', confidence: null } as never, previous: [], names: { a: 'Ben', b: 'Raj' },
      });
      assert.deepEqual(facts.flatMap((f) => cancelledOrders(f, [chairs])).map((c) => c.fact.id), ['f1'], text);
    }
  });

  test('numbers that are no value stay words', async () => {
    assert.deepEqual((await read('I have two kids')).facts, [['statement', 'Ben has two kids', null, null]]);
    assert.deepEqual((await read('one of my friends is called Ana')).facts, [['statement', "One of Ben's friends is called Ana", null, null]]);
  });

  test('a secret given is no memory: no fact, no profile value', async () => {
    for (const text of ['my PIN is double seven three one', 'my pin number is seven seven three one', 'my password is hunter two', 'the security code is four four seven',
      // rules 56: a plain word given.
      'my password is sunshine', 'the wifi password is bluefish42', 'the code word is pineapple']) {
      assert.deepEqual(await read(text), { facts: [], profile: [] }, text);
    }
  });

  test('the clause before a secret is still a memory; the secret and what follows it are not (rules 62)', async () => {
    // Before: the whole sentence gave nothing once "gate code" was a secret.
    const { facts } = await read('I repair lighthouse lenses in Quessant and my gate code is 5512.');
    assert.equal(facts.length, 1, JSON.stringify(facts));
    assert.match(String((facts[0] as unknown[])[1]), /repairs? lighthouse lenses in Quessant/);
    assert.doesNotMatch(JSON.stringify(facts), /5512|gate code/);
    assert.deepEqual(await read('Okay, my PIN is 4421.'), { facts: [], profile: [] });
  });

  test('a value with a short hedge after it is a secret too (rules 63)', async () => {
    // Before: "Ben's PIN is 7731 Ben thinks", "The alarm code is 4419 Ben believes".
    for (const text of ['my PIN is 7731 I think', 'the alarm code is four four one nine I believe', 'my PIN is 7731, right?']) {
      assert.deepEqual(await read(text), { facts: [], profile: [] }, text);
    }
    const { facts } = await read('I repair lighthouse lenses in Quessant and my gate code is 5512 if I remember right.');
    assert.equal(facts.length, 1, JSON.stringify(facts));
    assert.match(String((facts[0] as unknown[])[1]), /repairs? lighthouse lenses in Quessant/);
    assert.doesNotMatch(JSON.stringify(facts), /5512|gate code/);
    assert.ok(EMBEDDED_RULES_VERSION >= 63);
  });

  test('a secret only named is an ordinary sentence (review12)', async () => {
    for (const text of ['My password was changed yesterday', 'The wifi password is on the fridge', 'My PIN is locked after one more try',
      'my password is expired', 'the password is case sensitive', 'the password is in the email']) {
      assert.ok((await read(text)).facts.length > 0, text);
    }
  });
});

describe('withSpokenValues: where a number in words is a value', () => {
  test('after a number, code or reference; after "call … on"; before a street; after "flat"', () => {
    const cases: Array<[string, string]> = [
      ['my account number is seven seven three one', 'my account number is 7731'],
      ["the reference's double oh seven four two", "the reference's 00742"],
      ['ring Ben on five five five oh one four two please', 'ring Ben on 5550142 please'],
      ['we live at twelve Elm Street', 'we live at 12 Elm Street'],
      ['send it to one hundred and five Old Mill Lane', 'send it to 105 Old Mill Lane'],
      ['I live in flat two b, Rose Court', 'I live in flat 2b, Rose Court'],
      ['it is at two b Rose Court', 'it is at 2b Rose Court'],
      ['I want to cancel order five five two zero', 'I want to cancel order 5520'],
      ['please cancel booking double oh seven four two', 'please cancel booking 00742'],
      ["what's the status of my order five five two zero", "what's the status of my order 5520"],
      ["Ben's case one two three four is open", "Ben's case 1234 is open"],
      ['I live at nine hundred and thirty Park Lane', 'I live at 930 Park Lane'],
      ['we moved to two Hyde Park Road, Leeds', 'we moved to 2 Hyde Park Road, Leeds'],
      // values #3: thousands where a value is said.
      ['my order number is two thousand and five', 'my order number is 2005'],
      ['the reference is one hundred thousand', 'the reference is 100000'],
      ['call me on five five five two thousand', 'call me on 5552000'],
    ];
    for (const [said, read] of cases) assert.equal(withSpokenValues(said), read, said);
  });

  test('elsewhere words stay words', () => {
    for (const said of ['I walked two miles down the road', 'we went to two shops on Main Street', 'my number one priority', 'call me at five thirty',
      'I have two kids', 'the number of guests is two', 'see you at five', 'I want to order two hundred cups', "we'll order three hundred and five", 'I live at 12 Elm Street',
      // review12: a time before a street, "let's order", "in case", a place named with "Park".
      'The meeting is at nine thirty Park Lane', "Let's order two hundred cups", 'In case two hundred people show up',
      "I'll meet you at two Hyde Park Corner", "let's book two hundred seats",
      // values #3: thousands elsewhere stay words.
      'we had two thousand people', 'I was born in two thousand and five', "let's order two thousand cups"]) {
      assert.equal(withSpokenValues(said), said, said);
    }
  });
});
