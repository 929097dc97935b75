/**
 * Spans said in words (pipelines/memory/spans.ts): the one count table, counted lengths, starts ahead, the "until"
 * words; moved here with the code from relative-date.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { COUNT, UNTIL_SAID, afterLength, countOf, countedLength, nextMonday, startAhead } from '../../../pipelines/memory/spans.js';

describe('lengths and starts ahead (a stay said ahead counts its length from its start: stay-span.ts)', () => {
  const at = (iso: string): number => Date.parse(iso);
  const iso = (ms: number | null | undefined): string | null => (ms === null || ms === undefined ? null : new Date(ms).toISOString());

  test('countedLength: the count and unit of "for" or "spend" with a counted span; none for a day named or an end', () => {
    assert.deepEqual(countedLength("I'm in Oslo for ten days"), { count: 10, unit: 'day' });
    assert.deepEqual(countedLength('spending a couple of weeks in Rome'), { count: 2, unit: 'week' });
    assert.deepEqual(countedLength('for the next three nights'), { count: 3, unit: 'day' });
    assert.deepEqual(countedLength('for a few days'), { count: 3, unit: 'day' });
    assert.deepEqual(countedLength('for a fortnight'), { count: 1, unit: 'fortnight' });
    assert.deepEqual(countedLength('for 3 months'), { count: 3, unit: 'month' });
    for (const t of ['booked for Friday', 'until the 20th', 'for the weekend', 'I spent two weeks there']) assert.equal(countedLength(t), null, t);
  });

  test('afterLength: days and weeks by the clock, months by the calendar', () => {
    assert.equal(iso(afterLength(at('2027-01-01T00:00:00.000Z'), { count: 2, unit: 'week' })), '2027-01-15T00:00:00.000Z');
    assert.equal(iso(afterLength(at('2027-01-31T09:30:00.000Z'), { count: 1, unit: 'month' })), '2027-03-03T09:30:00.000Z', '31 January + a month rolls over as Date.UTC does');
    assert.equal(iso(afterLength(at('2026-12-30T00:00:00.000Z'), { count: 3, unit: 'day' })), '2027-01-02T00:00:00.000Z');
  });

  test('nextMonday: the Monday after the week holding the instant (a Monday itself: the one after)', () => {
    assert.equal(iso(nextMonday(at('2026-12-01T10:00:00.000Z'))), '2026-12-07T00:00:00.000Z');
    assert.equal(iso(nextMonday(at('2026-12-06T23:00:00.000Z'))), '2026-12-07T00:00:00.000Z', 'a Sunday');
    assert.equal(iso(nextMonday(at('2026-12-07T00:00:00.000Z'))), '2026-12-14T00:00:00.000Z');
  });

  test('startAhead: the day, week or month named ahead, its end; a first day alone after "from"', () => {
    const ref = at('2026-12-01T10:00:00.000Z'); // a Tuesday
    const read = (t: string) => { const s = startAhead(t, ref); return s && { start: iso(s.start), end: iso(s.end) }; };
    assert.deepEqual(read("I'm in Vienna next week."), { start: '2026-12-07T00:00:00.000Z', end: '2026-12-14T00:00:00.000Z' });
    assert.deepEqual(read("Next month I'm in Tokyo for two weeks."), { start: '2027-01-01T00:00:00.000Z', end: '2027-02-01T00:00:00.000Z' });
    assert.deepEqual(read("I'll be in Oslo from Monday for ten days."), { start: '2026-12-07T00:00:00.000Z', end: null });
    assert.deepEqual(read("I'm in Paris on Friday."), { start: '2026-12-04T00:00:00.000Z', end: '2026-12-05T00:00:00.000Z' });
    assert.deepEqual(read("We're in Leeds tomorrow."), { start: '2026-12-02T00:00:00.000Z', end: '2026-12-03T00:00:00.000Z' });
    assert.deepEqual(read("I'm in Rome in March."), { start: '2027-03-01T00:00:00.000Z', end: '2027-04-01T00:00:00.000Z' });
    assert.equal(read("I'm in Rome for two weeks."), null, 'no start named');
  });
});

describe('one count table, one "until"', () => {
  test('countOf reads every count word the pattern takes; "several" is 3 wherever it is read', () => {
    const count = new RegExp(`^${COUNT}$`, 'i');
    const cases: Array<[string, number]> = [['a', 1], ['an', 1], ['two', 2], ['Twelve', 12], ['a few', 3], ['a  couple of', 2], ['several', 3], ['14', 14]];
    for (const [words, n] of cases) {
      assert.ok(count.test(words), words);
      assert.equal(countOf(words), n, words);
    }
    assert.deepEqual(countedLength('for several nights'), { count: 3, unit: 'day' });
  });

  test('UNTIL_SAID: until, till, til, through, thru before a word; not inside a word', () => {
    for (const t of ['until the 20th', 'Till June', 'til Friday', 'through the end of May', 'thru Sunday']) assert.ok(UNTIL_SAID.test(t), t);
    for (const t of ['a walkthrough guide', 'for two weeks', 'until']) assert.ok(!UNTIL_SAID.test(t), t);
  });
});
