/**
 * "My flight is booked for Friday": a day or a date after "for" says when, not how long (issue #16 part 2). Such a
 * fact is dated on that day and has no end of its own; a span after "for" ("for a month", "for the next few days",
 * "for the weekend") stays an end.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Utterance } from '../../../graph/types.js';
import { EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import { findDates } from '../../../pipelines/memory/relative-date.js';
import { stateEnd } from '../../../pipelines/memory/state-end.js';

const x = new EmbeddedExtractor();
const T = '2026-12-01T10:00:00.000Z'; // a Tuesday
const u = (text: string): Utterance => ({ id: 'u1', sessionId: 's', speakerId: 'p_ana', addresseeIds: ['p_ben'], text,
  startMs: null, endMs: null, time: T, confidence: null, audioRef: null, seq: 1 });
const run = (text: string) => x.extract({ current: u(text), previous: [], names: { p_ana: 'Ana', p_ben: 'Ben' } });

test('a day or a date after "booked / reserved / scheduled / set / planned for" is when, not how long', () => {
  for (const [text, date] of [
    ['My flight is booked for Friday.', '2026-12-04'],
    ['The table is reserved for tomorrow.', '2026-12-02'],
    ['The meeting is scheduled for next Monday.', '2026-12-07'],
    ['The hearing is set for March 3rd.', '2027-03-03'],
    ['The party is planned for the 12th of December.', '2026-12-12'],
  ] as const) {
    const found = findDates(text, T);
    assert.deepEqual(found.map((d) => [d.date, d.duration]), [[date, false]], text);
    assert.equal(stateEnd(text, T), null, text);
  }
  // A span after "for" is still how long.
  assert.equal(stateEnd("I'm off work for a month.", T), '2027-01-01T10:00:00.000Z');
  assert.ok(findDates('I am away for the next few days.', T).every((d) => d.duration));
  assert.notEqual(stateEnd('I am away for the next few days.', T), null);
  assert.ok(findDates("We're in Paris for the weekend.", T).every((d) => d.duration));
});

test('"My flight is booked for Friday": the fact is dated Friday and does not end then', async () => {
  const r = await run('My flight is booked for Friday.');
  assert.equal(r.facts.length, 1);
  assert.equal(r.facts[0]?.validUntil, null);
  assert.equal(r.facts[0]?.eventTime?.slice(0, 10), '2026-12-04');
  assert.match(r.facts[0]?.content ?? '', /Friday 4 December 2026/);
});
