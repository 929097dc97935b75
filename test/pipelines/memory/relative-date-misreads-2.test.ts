import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { absoluteDates } from '../../../pipelines/memory/date-text.js';
import { findDates } from '../../../pipelines/memory/relative-date.js';
import { factsSaid } from '../../helpers/extract-said.js';

// Saturday 5 December 2026: Christmas 2027 is a Saturday, so the week before it begins on Monday 20 December 2027.
const NOW = '2026-12-05T10:00:00.000Z';
const rewrite = (text: string): string => absoluteDates(text, findDates(text, NOW));
const dated = (text: string): [string, string][] => findDates(text, NOW).map((d) => [d.phrase, d.date]);

/** `text` names no date and is written as said. */
function undated(text: string): void {
  assert.deepEqual(dated(text), [], text);
  assert.equal(rewrite(text), text);
}

describe('"a day", "one day": no date', () => {
  test('a bare day, a long day, in a day, after a day of something', () => {
    for (const text of ["Rome wasn't built in a day.", 'I was tired after a day of volunteering.', 'It was a long day.',
      "I'll be there in a day or two."]) undated(text);
  });

  test('"one day" is someday', () => {
    undated("I'll visit them one day.");
    undated('One day we will move to the coast.');
  });

  test('"for a day" stays how long', () => {
    assert.deepEqual(findDates("I'm off for a day.", NOW).map((d) => d.duration), [true]);
  });
});

describe('"the next day", "the day after": from the event told, not from now', () => {
  test('with no day told before, no date and the words stay', () => {
    for (const text of ['The next day we flew home.', 'We went to Paris and the day after we flew home.',
      'The following day it rained.']) undated(text);
    // May is known only by its month: the day after it is not.
    const text = 'We went to Paris in May and the next day we flew home.';
    assert.deepEqual(dated(text), [['May', '2026-05']]);
    assert.equal(rewrite(text), 'We went to Paris in May 2026 and the next day we flew home.');
  });

  test('with a day told before, the day next to it', () => {
    assert.deepEqual(dated('We landed in Paris on 3 May and the next day we flew home.'),
      [['on 3 May', '2026-05-03'], ['next day', '2026-05-04']]);
    assert.equal(rewrite('We arrived last Monday and left the day after.'),
      'We arrived on Monday 30 November 2026 and left on Tuesday 1 December 2026.');
    assert.deepEqual(dated('We arrived last Monday and the day before we packed.').at(-1), ['the day before', '2026-11-29']);
  });
});

describe('a weekday told of a habit: no date', () => {
  test('always, usually, often, every week, or a plural weekday', () => {
    for (const text of ['I always call mum on Sunday.', 'We usually eat out on Fridays.', 'I often go running on Monday.',
      'Every week I call mum on Sunday.', 'I call mum on Sundays.']) undated(text);
  });

  test('one weekday to come or gone is still dated', () => {
    assert.deepEqual(dated('I will call mum on Sunday.'), [['on Sunday', '2026-12-06']]);
    assert.deepEqual(dated('I called mum on Sunday.'), [['on Sunday', '2026-11-29']]);
    assert.deepEqual(dated('I usually go on Fridays, but this Sunday I will go.'), [['this Sunday', '2026-12-06']]);
  });
});

describe('the year told in a clause before the holiday week', () => {
  test('"Next year, I fly out the week before Christmas" is the week before Christmas 2027, dated once', () => {
    assert.deepEqual(dated('Next year, I fly out the week before Christmas.'), [['the week before Christmas', '2027-12-20']]);
    assert.equal(rewrite('Next year, I fly out the week before Christmas.'), 'Next year, I fly out the week before Christmas 2027.');
  });

  test('a year in an earlier sentence does not place it', () => {
    assert.deepEqual(dated('Next year will be hard. We fly out the week before Christmas.').at(-1), ['the week before Christmas', '2026-12-14']);
  });
});

describe('"the last week of X": a week of something else', () => {
  test('no date, and the liking keeps its whole object', async () => {
    undated('i hate the last week of the school holidays');
    const facts = await factsSaid('i hate the last week of the school holidays', NOW, ['ana', 'Ana'], ['bo', 'Bo']);
    assert.deepEqual(facts.map((f) => [f.content, f.slot, f.eventTime ?? null]),
      [['Ana hates the last week of the school holidays', 'preference:last week of the school holidays', null]]);
  });

  test('"last week" on its own is still last week', () => {
    assert.deepEqual(dated('I hated it last week.'), [['last week', '2026-11-23']]);
  });
});
