/**
 * A person's move told as past, and a value of theirs changed with no "now" (rules 72, fixpast): "I moved to Leeds in May",
 * said in December, is this May gone by, as a move of a booking TO a day still lies ahead; "Maria is with Cigna instead of
 * Aetna" changes what Maria is with, as "…is now with Cigna…" does, and a person's whereabouts against another do not.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { findDates } from '../../../pipelines/memory/relative-date.js';
import { changedValue } from '../../../pipelines/memory/value-change.js';
import { factsSaid } from '../../helpers/extract-said.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';

const T = '2026-12-06T10:00:00.000Z'; // a Sunday
const dates = (text: string, time = T): string[] => findDates(text, time).map((d) => d.date);

describe('a person moved, told in the past, in a month', () => {
  test('is the most recent such month', async () => {
    // Before: 2027-05, a May to come ("moved to" was read as a move of a thing ahead).
    assert.deepEqual(dates('I moved to Leeds in May.'), ['2026-05']);
    assert.deepEqual(dates('My sister moved to the city in March.'), ['2026-03']);
    assert.deepEqual(dates('We moved to Leeds on the 3rd.'), ['2026-12-03']);
    const [fact] = await factsSaid('I moved to Leeds in May.', T, ['maria', 'Maria'], ['jo', 'Jo']);
    assert.equal(fact?.eventTime, '2026-05');
  });

  test('a thing moved to a time, and a move still to come, stay ahead', () => {
    assert.deepEqual(dates("I moved Leo's checkup to Monday December 7."), ['2026-12-07']);
    assert.deepEqual(dates('The match was moved to Sunday.'), ['2026-12-13']);
    assert.deepEqual(dates('The party was moved to March.'), ['2027-03']);
    assert.deepEqual(dates('They postponed the launch till the 20th.'), ['2026-12-20']);
    assert.deepEqual(dates('We are moving to Leeds in May.'), ['2027-05']);
    assert.deepEqual(dates("I'm moving to Leeds next March."), ['2027-03']);
  });

  test('a place that begins like a time is a place (rules 74)', () => {
    // Before: each a year ahead (2027-05, 2027-03): "12", "night", "5th", "Spring", "end", "weekend" were read as the time moved to.
    for (const [text, month] of [['We moved to 12 Oak Street in May.', '2026-05'], ['We moved to the night shift in March.', '2026-03'],
      ['I moved to the 5th floor in May.', '2026-05'], ['We moved to Spring Street in May.', '2026-05'],
      ['We moved to the end of the road in May.', '2026-05'], ['I moved to the weekend team in March.', '2026-03']] as const) {
      assert.deepEqual(dates(text), [month], text);
    }
    // Controls: a time that goes on, or ends its clause, is still a time moved to.
    assert.deepEqual(dates('The meeting was moved to Sunday morning.'), ['2026-12-13']);
    assert.deepEqual(dates('It was moved to the end of the month.'), ['2026-12-31']);
    assert.deepEqual(dates('The party was moved to May 5.'), ['2027-05-05']);
    assert.deepEqual(dates('The match was moved to next week because of rain.'), ['2026-12-07']);
  });
});

describe('a person with something instead of another, no "now"', () => {
  const fixtures: MemoryFixture[] = [];
  after(async () => {
    for (const f of fixtures) await f.close();
  });

  test('is read as a change of that between two names', () => {
    // Before: null (only "is now with…" was read).
    assert.deepEqual(changedValue('Maria is with Cigna instead of Aetna'),
      { thing: 'Maria', from: 'with Aetna', to: 'with Cigna', move: false, self: true });
    assert.equal(changedValue('Sam Lee is at Google rather than Meta.')?.to, 'at Google');
    assert.equal(changedValue('Maria is with Blue Cross instead of with Aetna')?.from, 'with Aetna');
  });

  test('not where someone is, or when, nor a question, a condition or no one', () => {
    for (const s of ['Maria is with Ana instead of alone', 'Maria is at home instead of at work', 'Maria is on Monday instead of Tuesday',
      'Maria is in May instead of June', 'Maria is with Cigna instead of Aetna?', 'If Maria is with Cigna instead of Aetna',
      'If Maria is now with Cigna instead of Aetna', 'It is with Cigna instead of Aetna', 'Maria is with Cigna', 'Maria is with Cigna, not Aetna']) assert.equal(changedValue(s), null, s);
  });

  test('"I am with Cigna instead of Aetna" replaces "I am with Aetna"', async () => {
    const f = await memoryFixture('t-instead', ['Maria', 'Jo']);
    fixtures.push(f);
    await f.say('s1', 'Maria', ['Jo'], 'I am with Aetna.', '2026-11-28T10:00:00.000Z');
    await f.say('s2', 'Maria', ['Jo'], 'I am with Cigna instead of Aetna.', '2026-12-01T10:00:00.000Z');
    const facts = await f.memory.listFacts('t-instead', { includeHistory: true });
    const current = facts.filter((x) => x.validTo === null).map((x) => x.content);
    // Before: "Maria is with Aetna" stayed current beside the new fact.
    assert.ok(current.some((c) => /Cigna/.test(c)) && !current.some((c) => /^Maria is with Aetna$/.test(c)), JSON.stringify(current));
    assert.ok(facts.some((x) => x.validTo !== null && x.content === 'Maria is with Aetna'));
  });
});
