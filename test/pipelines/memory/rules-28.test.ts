/** Rules 28: stays told with "spending" and a span or a season carry their end. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EMBEDDED_RULES_VERSION, EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { findDates } from '../../../pipelines/memory/relative-date.js';
import { stateEnd } from '../../../pipelines/memory/state-end.js';
import { readStay, STAY_SLOT } from '../../../pipelines/memory/stays.js';
import { factsSaid } from '../../helpers/extract-said.js';

/** Monday 1 June 2026, 10:00 UTC. */
const SAID = '2026-06-01T10:00:00.000Z';

const facts = (text: string, time = SAID): Promise<ExtractedFact[]> => factsSaid(text, time, ['ana', 'Ana'], ['ben', 'Ben']);

describe('rules 28: "spending two weeks in Rome", "spending the summer in Maine"', () => {
  test('the version is 28 or later (rules-29.test.ts holds the current one)', () => {
    assert.ok(EMBEDDED_RULES_VERSION >= 28);
    assert.equal(new EmbeddedExtractor().source, `embedded-rules/${EMBEDDED_RULES_VERSION}`);
  });

  test('a stay told with "spending" and a span is staying_in, ending that span after it was said', async () => {
    const cases: Array<[string, string, string]> = [
      ["I'm spending two weeks in Rome.", 'Rome', '2026-06-15T10:00:00.000Z'],
      ["We're spending a month in Lisbon.", 'Lisbon', '2026-07-01T10:00:00.000Z'],
      ["I'm spending ten days with my aunt in Cork.", 'Cork', '2026-06-11T10:00:00.000Z'],
    ];
    for (const [text, place, end] of cases) {
      const stay = (await facts(text)).find((f) => f.slot === STAY_SLOT);
      assert.equal(stay?.value, place, text);
      assert.equal(stay?.validUntil, end, text);
      assert.equal(stay?.kind, 'profile', text);
      assert.doesNotMatch(stay?.content ?? '', /June|July/, `no span read as a date: ${stay?.content}`);
    }
    assert.deepEqual(readStay("I'm spending ten days with my aunt in Cork."), { place: 'Cork', prep: 'in', company: 'with my aunt', visiting: null, ahead: false });
  });

  test('a season spent ends where the next begins', async () => {
    const [summer] = (await facts("I'm spending the summer in Maine.")).filter((f) => f.slot === STAY_SLOT);
    assert.equal(summer?.value, 'Maine');
    assert.equal(summer?.validUntil, '2026-09-01T00:00:00.000Z');
    assert.equal(stateEnd("I'll be spending the summer in Maine.", SAID), '2026-09-01T00:00:00.000Z');
    assert.equal(stateEnd("I'm staying in Maine for the summer.", SAID), '2026-09-01T00:00:00.000Z');
    assert.equal(stateEnd("I'm spending the summer in Maine.", '2026-10-05T10:00:00.000Z'), '2027-09-01T00:00:00.000Z', 'said after it: next summer');
    assert.equal(stateEnd("I'm spending the winter in Florida.", '2026-12-10T10:00:00.000Z'), '2027-03-01T00:00:00.000Z');
    assert.equal(stateEnd("I'm spending the winter in Florida.", '2027-01-10T10:00:00.000Z'), '2027-03-01T00:00:00.000Z');
  });

  test('a span after "spend" is how long, not a day; told of the past it ends nothing', async () => {
    const [d] = findDates("I'm spending two weeks in Rome.", SAID);
    assert.equal(d?.duration, true);
    assert.equal(stateEnd('I spent two weeks in Rome.', SAID), null);
    assert.equal(stateEnd('I spent the summer in Maine.', SAID), null);
    assert.ok(!(await facts('I spent two weeks in Rome.')).some((f) => f.slot === STAY_SLOT));
  });

  test('no stay: money or time spent on no place, a stay that starts ahead', async () => {
    for (const text of ["I'm spending too much money.", "I've been spending a lot of time in Leeds.", "I'm spending two weeks in Rome next month."]) {
      // A stay ahead is `staying_in` only from its start (rules 30), never from when said.
      assert.ok(!(await facts(text)).some((f) => f.slot === STAY_SLOT && f.validFrom === undefined), text);
    }
    assert.equal(stateEnd("I'm spending too much money.", SAID), null);
  });
});
