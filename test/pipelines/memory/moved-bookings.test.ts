/**
 * Moved and retimed bookings (rules 68, fixmove): a day a thing is moved to lies ahead though the move is told as done;
 * a new time of day said with the new day replaces the old one; "Friday week" is Friday of next week; a person told as
 * with something now, instead of what they were with, replaces the fact that held the old one.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { Fact } from '../../../graph/memory-store.js';
import { findDates } from '../../../pipelines/memory/relative-date.js';
import { retimedText } from '../../../pipelines/memory/retimed.js';
import { changedValue } from '../../../pipelines/memory/value-change.js';
import { factsSaid } from '../../helpers/extract-said.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';

const T = '2026-12-01T10:00:00.000Z'; // a Tuesday
const dates = (text: string, time = T): string[] => findDates(text, time).map((d) => d.date);

describe('a day a thing is moved to', () => {
  test('lies ahead, though the move is told as done', async () => {
    // Before: 2025-12-07, a December gone by (the clause is told as past).
    assert.deepEqual(dates("I moved Leo's checkup to Monday December 7."), ['2026-12-07']);
    assert.deepEqual(dates('We pushed the dentist back to Friday.'), ['2026-12-04']);
    assert.deepEqual(dates('She rescheduled it until the 12th.'), ['2026-12-12']);
    assert.deepEqual(dates('I booked a table for the 12th.'), ['2026-12-12']);
    const [fact] = await factsSaid("I moved Leo's checkup to Monday December 7.", T, ['maria', 'Maria'], ['jo', 'Jo']);
    assert.equal(fact?.eventTime, '2026-12-07');
    assert.match(fact?.content ?? '', /Monday 7 December 2026/);
  });

  test('a day told as past with no move stays past', () => {
    assert.deepEqual(dates('I called her on Friday.'), ['2026-11-27']);
    assert.deepEqual(dates('We went camping in May.'), ['2026-05']);
    assert.deepEqual(dates('I met up with them on the 15th.'), ['2026-11-15']);
  });
});

describe('a new time of day with the new day', () => {
  const plan = { content: 'Maria and Jo plan to meet on Friday 4 December 2026 at 10am', eventTime: '2026-12-04', slot: 'plan:meet:2026-12-04', kind: 'plan' } as Fact;

  test('"Saturday at seven" is read with its hour', async () => {
    const [fact] = await factsSaid('Can we do Saturday at seven instead?', T, ['maria', 'Maria'], ['jo', 'Jo']);
    assert.equal(fact?.eventTime, '2026-12-05');
    // A bare hour of a day ahead is read by business hours (rules 67): seven is 7am, as "at 7" is.
    assert.match(fact?.content ?? '', /Saturday 5 December 2026 at 7am/);
    // "at one point" names no hour.
    assert.deepEqual(dates('At one point we talked about it.'), []);
  });

  test('replaces the old one in the plan written again; none said, the old one stays', () => {
    // Before: "…on Saturday 5 December 2026 at 10am", the old hour kept.
    assert.equal(retimedText(plan, { eventTime: '2026-12-05', content: 'Can Maria and Jo do on Saturday 5 December 2026 at 7pm instead?' })?.content,
      'Maria and Jo plan to meet on Saturday 5 December 2026 at 7pm');
    assert.equal(retimedText(plan, { eventTime: '2026-12-05', content: 'Maria and Jo moved it to Saturday 5 December 2026' })?.content,
      'Maria and Jo plan to meet on Saturday 5 December 2026 at 10am');
  });
});

describe('a plan retimed over consolidation', () => {
  const fixtures: MemoryFixture[] = [];
  after(async () => {
    for (const f of fixtures) await f.close();
  });

  test('"Can we do Saturday at seven instead?" moves the Friday 10am plan to Saturday at seven', async () => {
    const f = await memoryFixture('t-retime', ['Maria', 'Jo']);
    fixtures.push(f);
    await f.say('s1', 'Maria', ['Jo'], "Let's meet on Friday at 10 am.", T);
    await f.say('s1', 'Jo', ['Maria'], 'Can we do Saturday at seven instead?', '2026-12-01T10:01:00.000Z');
    const current = (await f.memory.listFacts('t-retime')).filter((x) => x.validTo === null).map((x) => x.content);
    // Before: "…on Saturday 5 December 2026 at 10am", the old hour kept ("seven" was not read).
    assert.ok(current.includes('Maria and Jo plan to meet on Saturday 5 December 2026 at 7am'), JSON.stringify(current));
    assert.ok(!current.some((c) => /10am/.test(c)), JSON.stringify(current));
  });
});

describe('"Friday week"', () => {
  test('is Friday of next week, as "Friday next week" is', async () => {
    // Before: this Friday (the 4th), "week" left in the text.
    assert.deepEqual(dates("I'm seeing her Friday week."), ['2026-12-11']);
    assert.deepEqual(dates("Let's meet on Monday week."), ['2026-12-07']);
    assert.deepEqual(dates("I'm seeing her Friday next week."), dates("I'm seeing her Friday week."));
    const [fact] = await factsSaid("Let's meet Friday week.", T, ['maria', 'Maria'], ['jo', 'Jo']);
    assert.equal(fact?.content, 'Maria and Jo plan to meet on Friday 11 December 2026');
    // "Friday weekend", "Friday weeks ago": no Friday of next week.
    for (const s of ["I'm away Friday weekend.", 'I saw her on a Friday weeks ago.']) assert.ok(!dates(s).includes('2026-12-11'), s);
  });
});

describe('a person with something now, instead of what they were with', () => {
  const fixtures: MemoryFixture[] = [];
  after(async () => {
    for (const f of fixtures) await f.close();
  });

  test('is read as a change of that', () => {
    assert.deepEqual(changedValue('Maria is now with Cigna instead of Aetna'),
      { thing: 'Maria', from: 'with Aetna', to: 'with Cigna', move: false, self: true });
    assert.equal(changedValue('Sam Lee is at Google now, not Meta')?.to, 'at Google');
    for (const s of ['Maria is with Cigna', 'It is now with Cigna instead of Aetna', 'Maria is now with Cigna instead of Aetna?']) assert.equal(changedValue(s), null, s);
  });

  test('"I am now with Cigna instead of Aetna" replaces "I am with Aetna"', async () => {
    const f = await memoryFixture('t-moved', ['Maria', 'Jo']);
    fixtures.push(f);
    await f.say('s1', 'Maria', ['Jo'], 'I am with Aetna.', '2026-11-28T10:00:00.000Z');
    await f.say('s2', 'Maria', ['Jo'], 'I am now with Cigna instead of Aetna.', '2026-12-01T10:00:00.000Z');
    const facts = await f.memory.listFacts('t-moved', { includeHistory: true });
    const current = facts.filter((x) => x.validTo === null).map((x) => x.content);
    // Before: "Maria is with Aetna" stayed current beside the new fact.
    assert.deepEqual(current.filter((c) => /Aetna|Cigna/.test(c)), ['Maria is with Cigna'], JSON.stringify(current));
    assert.ok(facts.some((x) => x.validTo !== null && x.content === 'Maria is with Aetna'));
  });
});

describe('rules 74 (fixclock): what rules 68 read too widely', () => {
  const S = '2026-12-06T10:00:00.000Z'; // a Sunday, the review's utterance time
  const said = async (text: string): Promise<string> => (await factsSaid(text, S, ['maria', 'Maria'], ['jo', 'Jo']))[0]?.content ?? '';

  test('an hour word is read only when it is the time alone', async () => {
    // Before: "at 10am past seven", "at 7am thirty", "at 11am fifteen", "at 1pm or two", "at 1pm of his games" (rules 110
    // reads "seven thirty", "eleven fifteen" whole: see the controls).
    for (const [text, kept] of [
      ["Let's meet on Friday at ten past seven.", 'at ten past seven'],
      ["Let's meet on Friday at one or two.", 'at one or two'],
      ["Let's meet on Friday at seven-ish.", 'at seven-ish'],
      ['I will see Leo on Saturday at one of his games.', 'at one of his games'],
    ] as const) {
      const content = await said(text);
      assert.ok(content.includes(kept), `${text} -> ${content}`);
      assert.doesNotMatch(content, /\d(?:am|pm)/, text);
    }
    // Controls: the hour alone is read as before.
    assert.match(await said("Let's meet on Friday at seven."), /Friday 11 December 2026 at 7am$/);
    assert.match(await said("Let's meet on Friday at seven o'clock."), /Friday 11 December 2026 at 7am$/);
    assert.match(await said("Let's meet at seven on Friday."), /Friday 11 December 2026 at 7am$/);
    assert.match(await said("Let's meet on Friday at seven to celebrate."), /at 7am to celebrate/);
    // Rules 110: an hour word with its minutes is read whole, as "7:30" is (was left as said, "at seven thirty").
    assert.match(await said("Let's meet on Friday at seven thirty."), /Friday 11 December 2026 at 7:30am$/);
    assert.match(await said("Let's meet on Friday at eleven fifteen."), /Friday 11 December 2026 at 11:15am$/);
  });

  test('a day after "to" reads ahead only for a move of a time', () => {
    // Before: 2026-12-08, 2026-12-07 and 2027-01-05 (read as days a thing was moved to).
    assert.deepEqual(dates("I brought Leo to Tuesday's appointment.", S), ['2026-12-01']);
    assert.deepEqual(dates("I switched to Monday's class last month.", S)[0], '2026-11-30');
    assert.deepEqual(dates("I moved Leo to Tuesday's class.", S), ['2026-12-01']);
    assert.deepEqual(dates('I pushed through to the 5th round.', S), ['2026-12-05']);
    // Controls: moves of a time still read ahead.
    assert.deepEqual(dates('We pushed the dentist back to Friday.', S), ['2026-12-11']);
    assert.deepEqual(dates('The meeting got pushed to Friday.', S), ['2026-12-11']);
    assert.deepEqual(dates('We brought the meeting forward to Tuesday.', S), ['2026-12-08']);
    assert.deepEqual(dates('She postponed it to Monday.', S), ['2026-12-07']);
  });

  test('"Monday to Friday week" is a span of days, not Friday of next week', () => {
    // Before: 2026-12-11 among its dates.
    for (const s of ['I work a Monday to Friday week at the bank.', 'I work a Monday-Friday week.']) assert.ok(!dates(s, S).includes('2026-12-11'), s);
    assert.deepEqual(dates("I'm seeing her Friday week.", S), ['2026-12-11']);
  });
});
