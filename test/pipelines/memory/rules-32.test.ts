/**
 * Rules 32: every counted span is read through one count table (pipelines/memory/spans.ts): a count of nights, a stay's
 * length, a length counted from a start ahead give the same number for the same word.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EMBEDDED_RULES_VERSION } from '../../../pipelines/memory/embedded-extractor.js';
import { namedEnd } from '../../../pipelines/memory/named-ends.js';
import { staySpan } from '../../../pipelines/memory/stay-span.js';
import { stateEnd } from '../../../pipelines/memory/state-end.js';
import { readStay } from '../../../pipelines/memory/stays.js';

/** Tuesday 1 December 2026, 12:00 UTC. */
const TUESDAY = '2026-12-01T12:00:00.000Z';

describe('rules 32: one count table', () => {
  test('the version is 32 or later', () => {
    assert.ok(EMBEDDED_RULES_VERSION >= 32);
  });

  test('"several nights" counts as "several" does in a stay said ahead: 3 days', () => {
    assert.equal(namedEnd("I'm in Kyoto for several nights.", TUESDAY), '2026-12-04T12:00:00.000Z');
    // The same word counted from a start ahead: Monday 7 December plus 3 days.
    assert.deepEqual(staySpan("From Monday I'm in Kyoto for several nights.", TUESDAY), { start: '2026-12-07T00:00:00.000Z', end: '2026-12-10T00:00:00.000Z' });
  });

  test('eleven and twelve count as ten does: nights, and a stay\'s end', () => {
    assert.equal(stateEnd("I'm in Oslo for eleven nights.", TUESDAY), '2026-12-12T12:00:00.000Z');
    assert.equal(stateEnd("We're at the cabin for twelve nights.", TUESDAY), '2026-12-13T12:00:00.000Z');
    assert.deepEqual(readStay("I'm staying in Rome for eleven days."), { place: 'Rome', prep: 'in', company: null, visiting: null, ahead: false });
    assert.equal(readStay("I'm staying in Rome for twelve weeks.")?.place, 'Rome');
  });
});
