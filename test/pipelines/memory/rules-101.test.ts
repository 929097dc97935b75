/**
 * Rules 101 (lead; issue #16 item 2, review of rules 97 and 98): a day a booking is for lies ahead even where the
 * sentence also tells when the booking was made ("yesterday", "last week"). On main 07628088 the whole sentence was read
 * as told of the past, so "I booked an appointment yesterday for Friday at 3pm", said on Monday 7 December 2026, was
 * dated Friday 4 December.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { datedSaid } from '../../helpers/extract-said.js';

/** Monday 7 December 2026: the coming Friday is the 11th, the last one the 4th. */
const MONDAY = '2026-12-07T10:00:00.000Z';

/** The facts' texts of `text`, said by Maria to Jo on Monday 7 December 2026. */
const facts = (text: string): Promise<string[]> =>
  datedSaid(text, MONDAY, ['maria', 'Maria'], ['jo', 'Jo']);

describe('rules 101: the day a booking is for lies ahead when the booking is told as made in the past', () => {
  test('"… yesterday for Friday at 3pm": the coming Friday; yesterday stays yesterday', async () => {
    // On main: "… on Sunday 6 December 2026 for Friday 4 December 2026 at 3pm".
    for (const text of ['I booked an appointment yesterday for Friday at 3pm', 'Yesterday I booked a table for Friday at 7pm',
      'I booked you in yesterday for Friday at 9am', 'Two days ago I reserved a room for Friday']) {
      const got = await facts(text);
      assert.ok(got.some((c) => c.includes('Friday 11 December 2026')), `${text}: ${JSON.stringify(got)}`);
      assert.ok(!got.some((c) => c.includes('Friday 4 December 2026')), `${text}: ${JSON.stringify(got)}`);
    }
  });

  test('a day told of the past with no booking for it stays behind', async () => {
    for (const text of ['Yesterday I told Tom about the party on Friday at 7pm', 'I saw the doctor yesterday and again on Friday',
      'Two days ago I went for a run, and on Friday at 3pm I went swimming']) {
      const got = await facts(text);
      assert.ok(!got.some((c) => c.includes('Friday 11 December 2026')), `${text}: ${JSON.stringify(got)}`);
    }
  });

  test('a month booked for keeps the past reading: "Last year I booked a holiday for June" is June 2026', async () => {
    const got = await facts('Last year I booked a holiday for June');
    assert.ok(got.some((c) => c.includes('June 2026')) && !got.some((c) => c.includes('June 2027')), JSON.stringify(got));
  });
});
