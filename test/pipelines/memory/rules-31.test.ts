/**
 * Rules 31: ends named by a holiday or counted in nights ("until the new year", "till Christmas", "for the holidays",
 * "for a few nights"), a strike as a `status` with no end, a sport done as a habit as a `sport:<activity>` preference;
 * and in retrieval, "usual" asks for the lasting value and a status comes before the occupation only when the present
 * is asked.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Fact } from '../../../graph/memory-store.js';
import { EMBEDDED_RULES_VERSION, EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import type { ExtractionResult } from '../../../pipelines/memory/extractor.js';
import { namedEnd } from '../../../pipelines/memory/named-ends.js';
import { standingSlot } from '../../../pipelines/memory/standing-slots.js';
import { stateEnd } from '../../../pipelines/memory/state-end.js';
import { STAY_SLOT } from '../../../pipelines/memory/stays.js';
import { temporarySlot } from '../../../pipelines/memory/temporary-slots.js';
import { inAskedOrder, validityAsked } from '../../../pipelines/retrieval/where-asked.js';

/** Tuesday 1 December 2026, 12:00 UTC. */
const TUESDAY = '2026-12-01T12:00:00.000Z';

async function extract(text: string, time = TUESDAY): Promise<ExtractionResult> {
  return new EmbeddedExtractor().extract({
    current: { id: 'u1', speakerId: 'cy', addresseeIds: ['liv'], text, time, sessionId: 's' } as never, previous: [], names: { cy: 'Cy', liv: 'Liv' },
  });
}

describe('rules 31: ends named by a holiday or counted in nights', () => {
  test('the version is 31 or later', () => {
    assert.ok(EMBEDDED_RULES_VERSION >= 31);
  });

  test('until the new year, Christmas, Christmas Eve, New Year\'s Day: the day after the last one it holds', () => {
    const cases: Array<[string, string]> = [
      ["I'm in Leeds until the new year.", '2027-01-01T00:00:00.000Z'],
      ["I'm here till New Year's Eve.", '2027-01-01T00:00:00.000Z'],
      ["I'm off until New Year's Day.", '2027-01-02T00:00:00.000Z'],
      ["I'm staying in Faro until Christmas.", '2026-12-26T00:00:00.000Z'],
      ["I'm staying in Faro until Christmas Day.", '2026-12-26T00:00:00.000Z'],
      ["I'm at my aunt's until Christmas Eve.", '2026-12-25T00:00:00.000Z'],
    ];
    for (const [text, end] of cases) assert.equal(stateEnd(text, TUESDAY), end, text);
    // Said after Christmas: next year's.
    assert.equal(namedEnd("I'm in Oslo until Christmas.", '2026-12-28T10:00:00.000Z'), '2027-12-26T00:00:00.000Z');
  });

  test('the holidays by the time of year, or named; none in spring', () => {
    assert.equal(stateEnd("I'm working as a barista for the holidays.", TUESDAY), '2027-01-02T00:00:00.000Z');
    assert.equal(stateEnd("I'm helping out at the shop over the holidays.", '2026-07-10T09:00:00.000Z'), '2026-09-01T00:00:00.000Z');
    assert.equal(namedEnd("I'm lifeguarding for the summer holidays.", '2026-03-10T09:00:00.000Z'), '2026-09-01T00:00:00.000Z');
    assert.equal(namedEnd("I'm working at the café for the holidays.", '2026-03-10T09:00:00.000Z'), null);
  });

  test('a count of nights is a count of days from when it was said', () => {
    assert.equal(stateEnd("I'm in Kyoto for a few nights.", TUESDAY), '2026-12-04T12:00:00.000Z');
    assert.equal(stateEnd("We're in Nara for two nights.", TUESDAY), '2026-12-03T12:00:00.000Z');
    assert.equal(stateEnd("I'm in Bonn for 4 nights.", TUESDAY), '2026-12-05T12:00:00.000Z');
  });

  test('told of the past, or no holiday: no end', () => {
    for (const text of ['I stayed in Kyoto for two nights.', 'I worked there over the holidays.', 'We also watch "Elf" during the holidays.', "I'm going to Christmas dinner at Mum's.", 'I love the new year.']) {
      assert.equal(namedEnd(text, TUESDAY), null, text);
    }
  });

  test('a stay and a temporary job with such an end: their slot and end', async () => {
    const leeds = (await extract("I'm in Leeds until the new year.")).facts.find((f) => f.slot === STAY_SLOT);
    assert.equal(leeds?.value, 'Leeds');
    assert.equal(leeds?.validUntil, '2027-01-01T00:00:00.000Z');
    const kyoto = (await extract("I'm in Kyoto for a few nights.")).facts.find((f) => f.slot === STAY_SLOT);
    assert.equal(kyoto?.value, 'Kyoto');
    const barista = (await extract("I'm working as a barista for the holidays.")).facts;
    assert.deepEqual(barista.map((f) => [f.slot, f.value, f.validUntil]), [['occupation', 'barista', '2027-01-02T00:00:00.000Z']]);
  });
});

describe('rules 31: a strike, a sport', () => {
  test('on strike, with no end: a status memory and attribute', async () => {
    for (const text of ["We're on strike.", "I'm on strike.", "I'm out on strike."]) {
      const r = await extract(text);
      assert.deepEqual(r.facts.map((f) => [f.content, f.kind, f.slot, f.value, f.validUntil ?? null]), [['Cy is on strike', 'profile', 'status', 'on strike', null]], text);
      assert.deepEqual(r.profileUpdates.map((p) => [p.participantId, p.attribute, p.value]), [['cy', 'status', 'on strike']], text);
    }
    assert.deepEqual(temporarySlot("I'm on strike until Friday."), { slot: 'status', value: 'on strike' });
  });

  test('a sport as a habit: one preference slot per activity', async () => {
    const cases: Array<[string, string, string]> = [
      ['I swim.', 'Cy swims', 'sport:swimming'],
      ['I play tennis on Sundays.', 'Cy plays tennis on Sundays', 'sport:tennis'],
      ['I go running every morning.', 'Cy goes running every morning', 'sport:running'],
      ['I do yoga.', 'Cy does yoga', 'sport:yoga'],
      ['I also cycle at weekends.', 'Cy also cycles at weekends', 'sport:cycling'],
    ];
    for (const [text, content, slot] of cases) {
      const fs = (await extract(text)).facts;
      assert.deepEqual(fs.map((f) => [f.content, f.kind, f.slot]), [[content, 'preference', slot]], text);
    }
  });

  test('near misses give neither', async () => {
    for (const text of ['I run a bakery.', 'My brother is on strike.', 'Are you on strike?', 'Do you swim?', 'I used to swim.', 'I swam in the lake.',
      'The strike is over.', 'I play the piano.', "Haven't gone out for bird-watching, but I do spot them when I hike.", 'When I swim, I feel great.']) {
      assert.equal(standingSlot(text), null, text);
      const fs = (await extract(text)).facts;
      assert.ok(!fs.some((f) => f.slot === 'status' || f.slot?.startsWith('sport:')), `${text}: ${JSON.stringify(fs)}`);
    }
  });
});

test('a sport for a time is a preference of its sport slot with its end', async () => {
  const fs = (await extract("I'm playing tennis this month.")).facts;
  assert.deepEqual(fs.map((f) => [f.kind, f.slot, f.value, f.validUntil]), [['preference', 'sport:tennis', 'tennis', '2027-01-01T00:00:00.000Z']]);
  assert.deepEqual(temporarySlot("I'm doing yoga for two weeks."), { slot: 'sport:yoga', value: 'yoga', kind: 'preference' });
  assert.equal(temporarySlot("I'm running late this week."), null);
});

describe('rules 31 in retrieval: usual is lasting; a status is temporary with or without an end', () => {
  test('usual and typical ask for the lasting value', () => {
    assert.equal(validityAsked("What is Hal's usual diet?"), 'lasting');
    assert.equal(validityAsked("What's Ona's typical breakfast?"), 'lasting');
  });

  test('a status with no end comes after the occupation for a lasting question, before it for a present one', () => {
    const fact = (id: string, slot: string, value: string): Fact => ({
      id, content: value, kind: 'profile', slot, value, subjectId: 'cy', speakerId: 'cy', addresseeIds: [], time: TUESDAY, referIds: [],
      validFrom: TUESDAY, validTo: null, validUntil: null, supersededBy: null, confidence: 0.8, sessionId: 's', source: 'test',
    } as unknown as Fact);
    const ranked = [{ kind: 'fact', score: 2, f: fact('a', 'status', 'on strike') }, { kind: 'fact', score: 1, f: fact('b', 'occupation', 'bus driver') }];
    assert.deepEqual(inAskedOrder(ranked, 'lasting', TUESDAY).map((c) => c.f.id), ['b', 'a']);
    assert.deepEqual(inAskedOrder(ranked, 'present', TUESDAY).map((c) => c.f.id), ['a', 'b']);
  });

  test('every sport is one family: a sport for a time first when the present is asked, the habit when the lasting', () => {
    const sport = (id: string, value: string, validUntil: string | null): Fact => ({
      id, content: value, kind: 'preference', slot: `sport:${value}`, value, subjectId: 'bo', speakerId: 'bo', addresseeIds: [], time: TUESDAY,
      referIds: [], validFrom: TUESDAY, validTo: null, validUntil, supersededBy: null, confidence: 0.8, sessionId: 's', source: 'test',
    } as unknown as Fact);
    const ranked = [{ kind: 'fact', score: 2, f: sport('a', 'football', null) }, { kind: 'fact', score: 1, f: sport('b', 'tennis', '2027-01-01T00:00:00.000Z') }];
    assert.deepEqual(inAskedOrder(ranked, 'present', TUESDAY).map((c) => c.f.id), ['b', 'a']);
    assert.deepEqual(inAskedOrder(ranked, 'lasting', TUESDAY).map((c) => c.f.id), ['a', 'b']);
  });
});
