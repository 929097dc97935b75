/**
 * A month named while we are in it (life5): "for two weeks in December", said on 5 December 2026, is this December, its
 * rest still ahead, not December 2027; "next December" said in December is next year's.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findDates } from '../../../pipelines/memory/relative-date.js';
import { monthAheadYear } from '../../../pipelines/memory/month-ahead.js';
import { staySpan } from '../../../pipelines/memory/stay-span.js';
import { STAY_SLOT } from '../../../pipelines/memory/stays.js';
import { turnSessionsForSuite } from '../../helpers/turn-sessions.js';

/** Saturday 5 December 2026, 10:00 UTC. */
const DEC_5 = '2026-12-05T10:00:00.000Z';

describe('a month named while in it', () => {
  test('this month\'s year unless "next" leads it; any other month the next one to come', () => {
    const ref = Date.parse(DEC_5);
    assert.equal(monthAheadYear(11, ref, 'for two weeks in '), 2026);
    assert.equal(monthAheadYear(11, ref, 'this '), 2026);
    assert.equal(monthAheadYear(11, ref, 'Next '), 2027);
    assert.equal(monthAheadYear(0, ref, 'in '), 2027);
    assert.equal(monthAheadYear(2, Date.parse('2027-01-04T10:00:00.000Z'), 'in '), 2027);
  });

  test('the date written for the month: this one in it, next year\'s after "next", last year\'s never for a plan', () => {
    const month = (text: string, at = DEC_5): string | undefined => findDates(text, at).find((d) => !d.duration)?.date;
    assert.equal(month("I'm in Madrid for two weeks in December."), '2026-12');
    assert.equal(month("I'm going to Rome this December."), '2026-12');
    assert.equal(month("I'm going to Rome next December."), '2027-12');
    assert.equal(month("In November I'm in Ghent for ten days.", '2026-11-10T10:00:00.000Z'), '2026-11');
    assert.equal(month("I'm in Seville for a week in March.", '2027-03-04T10:00:00.000Z'), '2027-03');
    assert.equal(month('We went camping in December.'), '2026-12', 'told of the past, as before');
    assert.equal(month("I'm going to Rome in January."), '2027-01', 'a month to come, as before');
  });

  test('a stay in the month under way holds from now, its length counted from now; next year\'s December is ahead', () => {
    assert.deepEqual(staySpan("I'm in Madrid for two weeks in December.", DEC_5), { start: null, end: '2026-12-19T10:00:00.000Z' });
    assert.deepEqual(staySpan("Next December I'm in Tokyo for a week.", DEC_5), { start: '2027-12-01T00:00:00.000Z', end: '2027-12-08T00:00:00.000Z' });
    assert.deepEqual(staySpan("In January I'm in Seoul for three weeks.", DEC_5), { start: '2027-01-01T00:00:00.000Z', end: '2027-01-22T00:00:00.000Z' });
  });

  describe('through consolidation', () => {
    const fx = turnSessionsForSuite('month-now', ['Eve', 'Fay'], DEC_5, 60_000);

    test('"for two weeks in December" said on 5 December: a stay now, ending 19 December 2026', async () => {
      await fx.say(fx.people.Eve!, fx.people.Fay!, "I'm in Madrid for two weeks in December.", DEC_5);
      const stay = (await fx.memory.listFacts('month-now', { subjectId: fx.people.Eve! })).find((f) => f.slot === STAY_SLOT);
      assert.equal(stay?.value, 'Madrid');
      assert.equal(stay?.validFrom, DEC_5);
      assert.equal(stay?.validUntil, '2026-12-19T10:00:00.000Z');
    });
  });
});

test('the rules version is 46 or later (a month named while in it changes what extraction dates)', async () => {
  const { EMBEDDED_RULES_VERSION } = await import('../../../pipelines/memory/embedded-rules-version.js');
  assert.ok(EMBEDDED_RULES_VERSION >= 46);
});
