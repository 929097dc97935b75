/**
 * Rules 111 (ranges): ranges of days and months still misread after rules 108. A stay "from Tuesday to Thursday" and
 * "Monday to Wednesday next week" carry their end; "14-18 December" is a range as "14 to 18 December" is; an ordinal
 * range under way is this month's; a move "from the 20th to the 22nd" dates the plan the 22nd and ends nothing. Each
 * failed on main 13d1d6cc (what it did there in the comment), but the guards of what stays as it was: weekly schedules.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { eventDate, findDates } from '../../../pipelines/memory/relative-date.js';
import { factsSaid } from '../../helpers/extract-said.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';

/** Monday 7 December 2026. */
const MONDAY = '2026-12-07T10:00:00.000Z';
const MARIA = ['maria', 'Maria'] as const;
const JO = ['jo', 'Jo'] as const;

const fixtures: MemoryFixture[] = [];
after(async () => {
  for (const f of fixtures) await f.close();
});

describe('rules 111: ranges of days and months', () => {
  test('a stay from one weekday to another, and weekdays "next week", end the day after the last', async () => {
    // On main: "Maria is in London from Tuesday 8 December 2026" with no end; "Maria is off on Monday 14 December 2026 to
    // Wednesday 16 December 2026" with no end.
    for (const [s, text, start, end] of [
      ["I'm in London from Tuesday to Thursday.", 'Maria is in London from Tuesday 8 December 2026 to Thursday 10 December 2026', '2026-12-08', '2026-12-11'],
      ["I'm off Monday to Wednesday next week.", 'Maria is off from Monday 14 December 2026 to Wednesday 16 December 2026', '2026-12-14', '2026-12-17'],
      ["I'm off from Monday to Wednesday next week.", 'Maria is off from Monday 14 December 2026 to Wednesday 16 December 2026', '2026-12-14', '2026-12-17'],
    ] as const) {
      const facts = await factsSaid(s, MONDAY, MARIA, JO);
      assert.deepEqual(facts.map((f) => [f.content, f.eventTime, f.validUntil]), [[text, start, `${end}T00:00:00.000Z`]], s);
    }
  });

  test('weekdays said as a weekly schedule still get no end', async () => {
    for (const s of ['I work Monday to Friday.', 'I work from Monday to Friday.', "I'm in the office Monday to Friday.", 'The gym is open from Monday to Saturday.']) {
      const facts = await factsSaid(s, MONDAY, MARIA, JO);
      assert.ok(facts.length > 0 && facts.every((f) => !f.validUntil && !/ to \w+day /.test(f.content)), `${s}: ${JSON.stringify(facts)}`);
    }
  });

  test('"14-18 December", "14–18 Dec", "from 14 to 18 December": a range with its end', async () => {
    // On main: "14-18 December" and "14–18 Dec" had no end (validUntil null), "14–18 Dec" stayed as said.
    for (const s of ['My mum is visiting 14-18 December.', 'My mum is visiting 14–18 Dec.', 'My mum is visiting from 14 to 18 December.']) {
      const facts = await factsSaid(s, MONDAY, MARIA, JO);
      assert.deepEqual(facts.map((f) => [f.content, f.eventTime, f.validUntil]),
        [["Maria's mum is visiting from Monday 14 December 2026 to Friday 18 December 2026", '2026-12-14', '2026-12-19T00:00:00.000Z']], s);
    }
  });

  test('a range of days of the month under way is this month\'s', async () => {
    // On main: "between Tuesday 5 January 2027 and Sunday 10 January 2027", validUntil 2027-01-11.
    const facts = await factsSaid("I'm away between the 5th and the 10th.", MONDAY, MARIA, JO);
    assert.deepEqual(facts.map((f) => [f.content, f.eventTime, f.validUntil]),
      [['Maria is away between Saturday 5 December 2026 and Thursday 10 December 2026', '2026-12-05', '2026-12-11T00:00:00.000Z']]);
    // Begun and over before today: still the next month's; a range across the month's end runs into the next.
    const [over] = findDates("I'm away between the 3rd and the 5th.", MONDAY);
    assert.deepEqual([over?.date, over?.end], ['2027-01-03', '2027-01-05']);
    const [across] = findDates("I'm away between the 20th and the 5th.", MONDAY);
    assert.deepEqual([across?.date, across?.end], ['2026-12-20', '2027-01-05']);
  });

  test('a move from one day of the month to another dates the plan the second, with no end', async () => {
    // On main: dated the 20th, validUntil 2026-12-23 (the move read as a stay from the 20th to the 22nd).
    const s = 'Can we push it from the 20th to the 22nd?';
    assert.deepEqual(findDates(s, MONDAY).map((d) => [d.phrase, d.date, d.movedFrom ?? false, d.end ?? null]),
      [['from the 20th', '2026-12-20', true, null], ['the 22nd', '2026-12-22', false, null]]);
    assert.equal(eventDate(s, MONDAY), '2026-12-22');
    const facts = await factsSaid(s, MONDAY, MARIA, JO);
    assert.ok(facts.length > 0 && facts.every((f) => f.eventTime === '2026-12-22' && !f.validUntil), JSON.stringify(facts));
    assert.ok(facts.some((f) => /from Sunday 20 December 2026 to Tuesday 22 December 2026/.test(f.content)), JSON.stringify(facts));
    const days = await factsSaid('Can we push the meeting from Friday to Monday?', MONDAY, MARIA, JO);
    assert.ok(days.length > 0 && days.every((f) => f.eventTime === '2026-12-14' && !f.validUntil), JSON.stringify(days));
  });

  test('a booking moved "from the 20th to the 22nd" is on the 22nd', async () => {
    const f = await memoryFixture('t-ranges', ['Tom', 'Sam']);
    fixtures.push(f);
    await f.say('s1', 'Tom', ['Sam'], "I'd like to book a repair for my bike on the 20th.", MONDAY);
    await f.say('s2', 'Tom', ['Sam'], 'Can you move my repair from the 20th to the 22nd?', '2026-12-08T10:00:00.000Z');
    const facts = await f.memory.listFacts('t-ranges', { includeHistory: true });
    const current = facts.filter((x) => x.validTo === null);
    assert.deepEqual(current.map((x) => [x.content, x.eventTime]),
      [['Tom would like to book a repair for their bike on Tuesday 22 December 2026', '2026-12-22']], JSON.stringify(facts.map((x) => x.content)));
  });
});

/** Review of rules 111 (H1–H6, M2): each failed on ed8aaa7f, what it did there in the comment. */
describe('rules 111 after review', () => {
  const read = async (s: string): Promise<Array<[string, string | null, string | null]>> =>
    (await factsSaid(s, MONDAY, MARIA, JO)).map((f) => [f.content, f.eventTime ?? null, f.validUntil ?? null]);

  test('H1: "5 p.m." at the end of a sentence keeps its hour', async () => {
    // On ed8aaa7f: "Maria will be there by Monday 7 December 2026"; phrase "5 p.m", no clock.
    assert.deepEqual(findDates("I'll be there by 5 p.m.", MONDAY).map((d) => [d.phrase, d.clock]), [['5 p.m.', '17:00']]);
    for (const [s, hour] of [["I'll be there by 5 p.m.", '5 p.m'], ["I'm working until 6 p.m.", '6 p.m'], ['The meeting is before 10 a.m.', '10 a.m']] as const) {
      const facts = await read(s);
      assert.ok(facts.length > 0 && facts.every(([c]) => c.includes(hour) && !/December/.test(c)), `${s}: ${JSON.stringify(facts)}`);
    }
  });

  test('H2: "Sat" after "on" or as "Sat." is the coming Saturday, not the verb "sat"', async () => {
    // On ed8aaa7f: "Maria is off on Saturday 5 December 2026", eventTime 2026-12-05.
    for (const s of ["I'm off on Sat.", "I'm off on Sat", "We're meeting on Sat.", "I'm free on Sat. Are you?"]) {
      const facts = await read(s);
      assert.ok(facts.length > 0 && facts.every(([c, ev]) => ev === '2026-12-12' && !/5 December/.test(c)), `${s}: ${JSON.stringify(facts)}`);
    }
    // The verb still tells of the past.
    assert.equal(findDates('So I sat with her on Friday.', MONDAY)[0]?.date, '2026-12-04');
  });

  test('H3: moving house, changing offices, bringing the kids from the 20th to the 22nd is a stay, not a move', async () => {
    // On ed8aaa7f: eventTime the 22nd (16th), no end.
    for (const [s, start, end] of [
      ["I'm moving house from the 20th to the 22nd.", '2026-12-20', '2026-12-22'],
      ["We're changing offices from the 20th to the 22nd.", '2026-12-20', '2026-12-22'],
      ["We'll bring the kids from the 20th to the 22nd.", '2026-12-20', '2026-12-22'],
      ["I'm switching shifts from the 14th to the 16th.", '2026-12-14', '2026-12-16'],
    ] as const) {
      assert.deepEqual(findDates(s, MONDAY).map((d) => [d.date, d.end ?? null, d.movedFrom ?? false]), [[start, end, false]], s);
    }
    // A plan moved still is ("move the meeting", "push the party back").
    for (const s of ['Can we move the meeting from the 20th to the 22nd?', "Let's push the party back from the 20th to the 22nd."]) {
      assert.equal(eventDate(s, MONDAY), '2026-12-22', s);
    }
  });

  test('H4: a stay at a place of every week ("in the office", "at school", "every week") is still a schedule', async () => {
    // On ed8aaa7f: "…from Monday 7 December 2026 to Friday 11 December 2026", validUntil 2026-12-12.
    for (const s of ["I'm in the office from Monday to Friday.", "She's at school from Monday to Friday.", "I'm at the gym from Monday to Wednesday.",
      'Jo is in Leeds from Monday to Friday every week.', "I'm in London from Monday to Friday, as usual."]) {
      const facts = await read(s);
      // No last day written as a date ("to Friday 11 December"); since rules 114 the weekdays are kept as said ("from Monday to
      // Friday every week").
      assert.ok(facts.length > 0 && facts.every(([c, , until]) => !until && !/ to \w+day \d/.test(c)), `${s}: ${JSON.stringify(facts)}`);
    }
  });

  test('H5, H6: "Thursday to Monday next week" runs into the week after; "Friday to Friday" is a week', async () => {
    // On ed8aaa7f: "Maria is off on Thursday 10 December 2026", no end; "from Friday 11 December 2026 to Friday 11 December 2026".
    const off = await read("I'm off Thursday to Monday next week.");
    assert.deepEqual(off.map(([, ev, until]) => [ev, until]), [['2026-12-17', '2026-12-22T00:00:00.000Z']], JSON.stringify(off));
    assert.match(off[0]![0], /Thursday 17 December 2026 to Monday 21 December 2026/);
    const spain = await read("We're in Spain from Friday to Friday.");
    assert.deepEqual(spain.map(([, ev, until]) => [ev, until]), [['2026-12-11', '2026-12-19T00:00:00.000Z']], JSON.stringify(spain));
    assert.match(spain[0]![0], /from Friday 11 December 2026 to Friday 18 December 2026/);
  });

  test('M2: hours "9–5" and scores "2 - 1" are no range of days', async () => {
    // On ed8aaa7f: "Maria's shift is from Tuesday 8 December 2026 to Wednesday 9 December 2026", validUntil 2026-12-10.
    for (const [s, ev] of [['My shift is 9–5 tomorrow.', '2026-12-08'], ['The match finished 2 - 1 yesterday.', '2026-12-06']] as const) {
      const facts = await read(s);
      assert.ok(facts.length > 0 && facts.every(([c, e, until]) => e === ev && !until && !/ to \w+day /.test(c)), `${s}: ${JSON.stringify(facts)}`);
    }
  });
});
