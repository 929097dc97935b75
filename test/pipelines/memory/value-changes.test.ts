/**
 * A caller's order change and a cancelled booking replace the old facts (trial11 F1, F2; rules 57): a bike shop's phone
 * line, text turns with their own times, through the real consolidation path.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { Fact } from '../../../graph/memory-store.js';
import { changedValue, retoldValue } from '../../../pipelines/memory/value-change.js';
import { consolidationLockKeys } from '../../../pipelines/memory/consolidate.js';
import { subjectLockKey } from '../../../pipelines/memory/subject-lock.js';
import { eventDate, findDates } from '../../../pipelines/memory/relative-date.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';

/** Lines said in order, each [session, speaker, text, ISO time], every one to the other person. */
type Line = [session: string, speaker: string, text: string, time: string];

const fixtures: MemoryFixture[] = [];
after(async () => {
  for (const f of fixtures) await f.close();
});

/** Every fact (history included) after `lines` were said between `a` and `b`. */
async function said(a: string, b: string, lines: Line[]): Promise<{ f: MemoryFixture; facts: Fact[] }> {
  const f = await memoryFixture('t-changes', [a, b]);
  fixtures.push(f);
  for (const [session, speaker, text, time] of lines) await f.say(session, speaker, [speaker === a ? b : a], text, time);
  return { f, facts: await f.memory.listFacts('t-changes', { includeHistory: true }) };
}

const current = (facts: Fact[]): string[] => facts.filter((x) => x.validTo === null).map((x) => x.content);
const byText = (facts: Fact[], re: RegExp): Fact | undefined => facts.find((x) => re.test(x.content));

describe('trial11 F1: an order changed', () => {
  test("the caller's request and the agent's confirmation replace the size-54 order with size 56", async () => {
    // On main 9025de92: "Maria would like to order a road bike in size 54" stayed current beside a request that the
    // agent's reply closed, and "My road bike order is now size 56, not 54" left the size-54 order current too.
    const { f, facts } = await said('Maria', 'Sam', [
      ['s1', 'Maria', "I'd like to order a road bike in size 54.", '2026-11-02T10:00:00.000Z'],
      ['s2', 'Maria', 'Please change my road bike order to size 56 instead of 54.', '2026-11-05T10:00:00.000Z'],
      ['s2', 'Sam', 'No problem, I changed your order to size 56.', '2026-11-05T10:01:00.000Z'],
      ['s3', 'Maria', 'My road bike order is now size 56, not 54.', '2026-11-07T10:00:00.000Z'],
    ]);
    const old = byText(facts, /size 54$/);
    assert.ok(old, JSON.stringify(facts.map((x) => x.content)));
    assert.notEqual(old.validTo, null, 'the size-54 order is closed');
    const now = facts.find((x) => x.id === old.supersededBy);
    assert.equal(now?.content, 'Maria would like to order a road bike in size 56');
    assert.equal(now?.subjectId, f.people.Maria);
    assert.equal(now?.validTo, null);
    // No request or confirmation beside the order, and no current fact still holds the old size.
    assert.deepEqual(current(facts).filter((c) => /\border\b/.test(c)), ['Maria would like to order a road bike in size 56']);
  });

  test("the agent's confirmation alone, said to the caller, replaces her order", async () => {
    const { f, facts } = await said('Maria', 'Sam', [
      ['s1', 'Maria', "I'd like to order a road bike in size 54.", '2026-11-02T10:00:00.000Z'],
      ['s2', 'Sam', 'No problem, I changed your order to size 56.', '2026-11-05T10:01:00.000Z'],
    ]);
    assert.deepEqual(current(facts), ['Maria would like to order a road bike in size 56']);
    assert.equal(facts.find((x) => x.validTo === null)?.subjectId, f.people.Maria);
  });

  test('a plain statement of the new value replaces the old one', async () => {
    const { facts } = await said('Maria', 'Sam', [
      ['s1', 'Maria', "I'd like to order a road bike in size 54.", '2026-11-02T10:00:00.000Z'],
      ['s2', 'Maria', 'My road bike order is now size 56, not 54.', '2026-11-07T10:00:00.000Z'],
    ]);
    assert.deepEqual(current(facts), ['Maria would like to order a road bike in size 56']);
  });

  test('a change of another thing, or one that names no value held, replaces nothing', async () => {
    const { facts } = await said('Maria', 'Sam', [
      ['s1', 'Maria', "I'd like to order a road bike in size 54.", '2026-11-02T10:00:00.000Z'],
      ['s2', 'Maria', 'Please change my delivery address to 5 Elm Road instead of 12 Oak Lane.', '2026-11-05T10:00:00.000Z'],
      ['s2', 'Maria', 'Please change my helmet order to size 58 instead of 57.', '2026-11-05T10:01:00.000Z'],
    ]);
    assert.ok(current(facts).includes('Maria would like to order a road bike in size 54'), JSON.stringify(current(facts)));
  });
});

describe('a change said to two people, one of them called (reviewB #8)', () => {
  test('"Tom, I changed your order to size 56", said to Maria and Tom, changes Tom\'s order alone', async () => {
    // On main b4863cfa: "your" was Maria and Tom's, the change named no one's order, and both stayed in size 54.
    const f = await memoryFixture('t-changes', ['Maria', 'Tom', 'Sam']);
    fixtures.push(f);
    await f.say('s1', 'Maria', ['Sam'], "I'd like to order a road bike in size 54.", '2026-11-02T10:00:00.000Z');
    await f.say('s1', 'Tom', ['Sam'], "I'd like to order a road bike in size 54.", '2026-11-02T10:01:00.000Z');
    await f.say('s2', 'Sam', ['Maria', 'Tom'], 'Tom, I changed your order to size 56.', '2026-11-05T10:00:00.000Z');
    const now = (await f.memory.listFacts('t-changes', {})).map((x) => [x.subjectId, x.content]);
    assert.deepEqual(now.sort(), [
      [f.people.Maria, 'Maria would like to order a road bike in size 54'],
      [f.people.Tom, 'Tom would like to order a road bike in size 56'],
    ].sort(), JSON.stringify(now));
  });
});

describe('a change names one thing (reviewB HIGH 2, 3)', () => {
  test('a change of the helmet order leaves the road bike order of the same size current', async () => {
    // On main 0bb6ea29: the shared word "order" named both, and every fact holding size 54 was closed.
    const { facts } = await said('Maria', 'Sam', [
      ['s1', 'Maria', "I'd like to order a road bike in size 54.", '2026-11-02T10:00:00.000Z'],
      ['s1', 'Maria', 'Also a helmet in size 54.', '2026-11-02T10:01:00.000Z'],
      ['s2', 'Maria', 'Please change my helmet order to size 56 instead of 54.', '2026-11-05T10:00:00.000Z'],
    ]);
    const now = current(facts);
    assert.ok(now.includes('Maria would like to order a road bike in size 54'), JSON.stringify(now));
    assert.ok(now.some((c) => /helmet/.test(c) && /size 56/.test(c)), JSON.stringify(now));
    assert.ok(!now.some((c) => /helmet/.test(c) && /size 54/.test(c)), JSON.stringify(now));
  });

  test('a change of the bike order, the table booking or the shoe order closes only that one', async () => {
    const cases: [string[], string, RegExp, RegExp][] = [
      [["I'd like to order 2 road bikes.", "I'd also like to order 2 helmets."], 'Please change my bike order to 3 instead of 2.', /helmets/, /bikes/],
      [["I'd like to book a table for 4 on Friday.", "I'd also like to book a room for 4 nights."], 'Please change my table booking to 6 instead of 4.', /room/, /table/],
      [["I'd like to order shoes in size 40.", "I'd also like to order football boots in size 40."], 'Please change my shoe order to size 41 instead of 40.', /boots/, /shoes/],
    ];
    for (const [first, change, other, changed] of cases) {
      const { facts } = await said('Maria', 'Sam', [
        ['s1', 'Maria', first[0]!, '2026-11-02T10:00:00.000Z'],
        ['s1', 'Maria', first[1]!, '2026-11-02T10:01:00.000Z'],
        ['s2', 'Maria', change, '2026-11-03T10:00:00.000Z'],
      ]);
      const all = JSON.stringify(facts.map((x) => [x.content, x.validTo === null]));
      assert.ok(facts.some((x) => other.test(x.content)) && facts.filter((x) => other.test(x.content)).every((x) => x.validTo === null), all);
      assert.ok(facts.some((x) => changed.test(x.content) && x.validTo !== null), all);
    }
  });

  test('the old value is never replaced inside a date, and one said twice is rewritten nowhere', async () => {
    // On main 0bb6ea29: the first bare "4", the day of "Friday 4 December 2026", became 6.
    const { facts } = await said('Maria', 'Sam', [
      ['s1', 'Maria', "I'd like to book a table on December 4 for 4 people.", '2026-11-02T10:00:00.000Z'],
      ['s2', 'Maria', 'Please change my table booking to 6 instead of 4.', '2026-11-03T10:00:00.000Z'],
    ]);
    const now = current(facts).filter((c) => /table/.test(c) && !/change/.test(c));
    assert.deepEqual(now, ['Maria would like to book a table on Friday 4 December 2026 for 6 people'], JSON.stringify(current(facts)));
    const change = { thing: 'order', from: '4', to: '6', move: false };
    assert.equal(retoldValue('Maria would like to book a table for 4 on Friday 4 December 2026', change), 'Maria would like to book a table for 6 on Friday 4 December 2026');
    assert.equal(retoldValue('Maria would like to order 4 bikes and 4 helmets', change), null);
  });
});

describe('trial11 F2: a booking moved, then cancelled', () => {
  test('"move my repair from Tuesday to Thursday" moves the booking to Thursday; "cancel the repair" ends it', async () => {
    // On main 9025de92: the move was stored as "…move their repair from Tuesday 10 November 2026" ("to Thursday" lost)
    // beside the Tuesday booking, and "please cancel the repair" closed the move request, not the booking.
    const lines: Line[] = [
      ['s1', 'Tom', "I'd like to book a repair for my bike on Tuesday.", '2026-11-06T10:00:00.000Z'],
      ['s2', 'Tom', 'Can you move my repair from Tuesday to Thursday?', '2026-11-08T10:00:00.000Z'],
    ];
    const moved = await said('Tom', 'Sam', lines);
    const tuesday = byText(moved.facts, /on Tuesday 10 November 2026$/);
    assert.equal(tuesday?.content, 'Tom would like to book a repair for their bike on Tuesday 10 November 2026');
    const thursday = moved.facts.find((x) => x.id === tuesday?.supersededBy);
    assert.equal(thursday?.content, 'Tom would like to book a repair for their bike on Thursday 12 November 2026');
    assert.equal(thursday?.eventTime, '2026-11-12');
    assert.deepEqual(current(moved.facts), [thursday?.content]);

    const { facts } = await said('Tom', 'Sam', [...lines, ['s3', 'Tom', 'Actually, please cancel the repair. I fixed it myself.', '2026-11-09T10:00:00.000Z']]);
    assert.deepEqual(current(facts).filter((c) => /repair|Tuesday|Thursday/.test(c)), []);
  });

  test('a cancellation ends the booking of its thing and the request to move it, both', async () => {
    const { facts } = await said('Tom', 'Sam', [
      ['s1', 'Tom', "I'd like to book a repair for my bike.", '2026-11-06T10:00:00.000Z'],
      ['s2', 'Tom', 'Can you move my repair from Tuesday to Thursday?', '2026-11-08T10:00:00.000Z'],
      ['s3', 'Tom', 'Actually, please cancel the repair.', '2026-11-09T10:00:00.000Z'],
    ]);
    const request = byText(facts, /move their repair/);
    assert.equal(request?.content, 'Tom asked Sam to move their repair from Tuesday 10 November 2026 to Thursday 12 November 2026');
    assert.deepEqual(current(facts), []);
  });
});

describe('value changes read', () => {
  test("a change told to someone takes the addressee's lock, since it may replace their fact", () => {
    const fact = (content: string) => ({ content, kind: 'statement' as const, subjectId: 'p_maria', speakerId: 'p_maria', addresseeIds: ['p_sam'],
      slot: null, value: null, retraction: false, confidence: 0.9, referIds: ['u1'] });
    const keys = (content: string): string[] => consolidationLockKeys('t', 's', { facts: [fact(content)], profileUpdates: [] } as never);
    assert.ok(keys("Maria's road bike order is now size 56, not 54").includes(subjectLockKey('t', 'p_sam')));
    assert.ok(!keys('Maria would like to order a road bike in size 54').includes(subjectLockKey('t', 'p_sam')));
  });

  test('"change X to B instead of A", "X is now B, not A", "move X from A to B", and the agent\'s "changed your X to B"', () => {
    assert.deepEqual(changedValue('Maria asked Sam to change their road bike order to size 56 instead of 54'),
      { thing: 'road bike order', from: '54', to: 'size 56', move: false });
    assert.deepEqual(changedValue("Maria's road bike order is now size 56, not 54"), { thing: 'road bike order', from: '54', to: 'size 56', move: false });
    assert.deepEqual(changedValue("No problem, Sam changed Maria's order to size 56"), { thing: 'order', from: null, to: 'size 56', move: false });
    assert.deepEqual(changedValue('Tom asked Sam to move their repair from Tuesday 10 November 2026 to Thursday 12 November 2026'),
      { thing: 'repair', from: 'Tuesday 10 November 2026', to: 'Thursday 12 November 2026', move: true });
    for (const none of ["Maria didn't change her order to size 56", 'Maria changed their mind to be honest', 'Can Sam change my order to size 56?',
      'Maria moved to Leeds', 'Tom is going to bed now']) assert.equal(changedValue(none), null, none);
  });

  test('the old value is written as the new one, the word the new one opens with taken in', () => {
    const change = (to: string, from: string | null) => ({ thing: 'order', from, to, move: false });
    assert.equal(retoldValue('Maria would like to order a road bike in size 54', change('size 56', '54')), 'Maria would like to order a road bike in size 56');
    assert.equal(retoldValue('Maria would like to order a road bike in size 54', change('size 56', null)), 'Maria would like to order a road bike in size 56');
    assert.equal(retoldValue('Tom booked a repair on Tuesday 3 November 2026', change('Thursday 12 November 2026', 'Tuesday 10 November 2026')),
      'Tom booked a repair on Thursday 12 November 2026');
    assert.equal(retoldValue('Maria would like to order a road bike', change('size 56', null)), null);
  });

  test('"from Tuesday to Thursday" after a move names both days, the event on the second; a span with no move stays one', () => {
    const at = '2026-11-08T10:00:00.000Z';
    const moved = findDates('Can you move my repair from Tuesday to Thursday?', at);
    assert.deepEqual(moved.map((d) => [d.phrase, d.date, d.movedFrom ?? false]), [['Tuesday', '2026-11-10', true], ['Thursday', '2026-11-12', false]]);
    assert.equal(eventDate('Can you move my repair from Tuesday to Thursday?', at), '2026-11-12');
    assert.equal(findDates("I'm away from Tuesday to Thursday.", at).length, 1);
    // "'d like" is "would like", no past: the Tuesday to come (it was read as last Tuesday).
    assert.deepEqual(findDates("I'd like to book a repair for my bike on Tuesday.", '2026-11-06T10:00:00.000Z').map((d) => d.date), ['2026-11-10']);
  });
});
