import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { stateEnd } from '../../../pipelines/memory/state-end.js';
import { readStay, STAY_SLOT, withoutUntil } from '../../../pipelines/memory/stays.js';

/** Thursday 3 December 2026, 10:00 UTC. */
const SAID = '2026-12-03T10:00:00.000Z';
const names = { lena: 'Lena', ben: 'Ben', max: 'Max' };

async function facts(text: string, speakerId = 'lena'): Promise<ExtractedFact[]> {
  const r = await new EmbeddedExtractor().extract({
    current: { id: 'u1', speakerId, addresseeIds: [speakerId === 'ben' ? 'max' : 'ben'], text, time: SAID, sessionId: 's' } as never,
    previous: [], names,
  });
  return r.facts;
}

describe('readStay: where a person is for a time, with an end said', () => {
  test('staying, "I\'ll be in", "I\'m in", visiting, with company', () => {
    assert.deepEqual(readStay("I'm staying in Madrid for two weeks."), { place: 'Madrid', prep: 'in', company: null, visiting: null, ahead: false });
    assert.deepEqual(readStay("I'll be in Berlin until the 20th."), { place: 'Berlin', prep: 'in', company: null, visiting: null, ahead: false });
    assert.deepEqual(readStay("Right now I'm in Oslo until the 12th."), { place: 'Oslo', prep: 'in', company: null, visiting: null, ahead: false });
    assert.deepEqual(readStay("I'm visiting my parents in Ohio this month."), { place: 'Ohio', prep: 'in', company: null, visiting: 'my parents', ahead: false });
    assert.deepEqual(readStay("We're visiting friends in Glasgow for ten days."), { place: 'Glasgow', prep: 'in', company: null, visiting: 'friends', ahead: false });
    assert.deepEqual(readStay("I'm staying with my grandmother in York this week."), { place: 'York', prep: 'in', company: 'with my grandmother', visiting: null, ahead: false });
    assert.deepEqual(readStay("I'm visiting New York for a week."), { place: 'New York', prep: 'in', company: null, visiting: null, ahead: false });
    assert.deepEqual(readStay("I'm on holiday in Crete for ten days."), { place: 'Crete', prep: 'in', company: null, visiting: null, ahead: false });
    assert.deepEqual(readStay("I'm over in Dublin until next month."), { place: 'Dublin', prep: 'in', company: null, visiting: null, ahead: false });
    assert.deepEqual(readStay("I'm at my sister's in Leeds until Monday."), { place: 'Leeds', prep: 'in', company: "at my sister's", visiting: null, ahead: false });
  });
  test('a stay that starts ahead is a plan, not where the person is now', async () => {
    for (const s of ["I'll be in Berlin next week for three days.", "I'll be in Paris from Monday until Friday.", "I'm in Rome on Friday for two nights.",
      "I'll be in Crete in June for a week.", "I'm staying in Madrid tomorrow for two nights."]) {
      // Read as a stay to come (rules 29): the extractor makes it a plan, and `staying_in` only from its start (rules 30).
      assert.equal(readStay(s)?.ahead, true, s);
      const fs = await facts(s);
      assert.ok(!fs.some((f) => f.slot === STAY_SLOT && f.validFrom === undefined) && fs.some((f) => f.kind === 'plan'),
        `${s} → ${JSON.stringify(fs.map((f) => [f.kind, f.slot]))}`);
    }
  });
  test('no end said, a question, the past, a negation, a person or a month: no stay', () => {
    assert.equal(readStay("I'm staying in Madrid."), null);
    assert.equal(readStay("I'm in Oslo."), null);
    assert.equal(readStay('Are you staying in Madrid for two weeks?'), null);
    assert.equal(readStay('I was staying in Madrid for two weeks.'), null);
    assert.equal(readStay("I'm not staying in Madrid for two weeks."), null);
    assert.equal(readStay("I'm visiting Grandma this week."), null);
    assert.equal(readStay("I'll be in June for a week."), null);
    assert.equal(readStay("I'm in a meeting until three."), null);
    assert.equal(readStay("I'm working at Hooli until Friday."), null);
  });
});

describe('stays extracted: a staying_in memory with its own end, never a lives_in', () => {
  test('first person: "staying in Madrid for two weeks", "in Berlin until the 20th", "visiting my parents in Ohio this month"', async () => {
    const cases: Array<[string, string, string, RegExp]> = [
      ["I'm staying in Madrid for two weeks.", 'Madrid', '2026-12-17T10:00:00.000Z', /^Lena is staying in Madrid$/],
      ["I'll be in Berlin until the 20th.", 'Berlin', '2026-12-21T00:00:00.000Z', /^Lena is staying in Berlin$/],
      ["I'm visiting my parents in Ohio this month.", 'Ohio', '2027-01-01T00:00:00.000Z', /^Lena is staying in Ohio, visiting (Lena's|their) parents$/],
    ];
    for (const [text, value, until, content] of cases) {
      const fs = await facts(text);
      assert.equal(fs.length, 1, `${text} → ${JSON.stringify(fs)}`);
      const f = fs[0]!;
      assert.deepEqual([f.kind, f.slot, f.value, f.validUntil, f.subjectId], ['profile', STAY_SLOT, value, until, 'lena'], text);
      assert.match(f.content, content);
      assert.ok(!fs.some((x) => x.slot === 'lives_in' || x.kind === 'commitment'), `${text}: no home, no promise`);
    }
  });
  test('reported by someone else: about the person named', async () => {
    const [f] = await facts('Max will be in Berlin until the 20th.', 'ben');
    assert.deepEqual([f?.subjectId, f?.slot, f?.value, f?.validUntil], ['max', STAY_SLOT, 'Berlin', '2026-12-21T00:00:00.000Z']);
    assert.equal(f?.content, 'Max is staying in Berlin');
  });
  test('a stay told with no end stays what it was (no staying_in)', async () => {
    assert.ok(!(await facts("I'm staying in Madrid.")).some((f) => f.slot === STAY_SLOT));
  });
});

describe('"until" clauses: the end in validUntil, the memory reads without it', () => {
  test('"working at Hooli until Friday / until next month / till June / through the end of the year"', async () => {
    const cases: Array<[string, string]> = [
      ["I'm working at Hooli until Friday.", '2026-12-05T00:00:00.000Z'],
      ["I'm working at Hooli until next month.", '2027-01-01T00:00:00.000Z'],
      ['I work at Hooli till June.', '2027-06-01T00:00:00.000Z'],
      ["I'm working at Hooli through the end of the year.", '2027-01-01T00:00:00.000Z'],
    ];
    for (const [text, until] of cases) {
      const f = (await facts(text)).find((x) => x.slot === 'works_at');
      assert.ok(f, text);
      assert.equal(f.value, 'Hooli', text);
      assert.equal(f.validUntil, until, text);
      assert.match(f.content, /^Lena (?:works|is working) at Hooli$/, text);
    }
  });
  test('stateEnd: a month with no day ends where it begins; "the end of the week / month / year"', () => {
    assert.equal(stateEnd("I'm working there till June.", SAID), '2027-06-01T00:00:00.000Z');
    assert.equal(stateEnd("I'm working there until next month.", SAID), '2027-01-01T00:00:00.000Z');
    assert.equal(stateEnd("I'm working there through the end of the year.", SAID), '2027-01-01T00:00:00.000Z');
    assert.equal(stateEnd("I'm here until the end of the month.", SAID), '2027-01-01T00:00:00.000Z');
    assert.equal(stateEnd("I'm here till the end of the week.", SAID), '2026-12-07T00:00:00.000Z');
    assert.equal(stateEnd("I'm here until Friday.", SAID), '2026-12-05T00:00:00.000Z', 'a day named: the day after it, as before');
  });
  test('withoutUntil leaves the rest of the sentence', () => {
    assert.equal(withoutUntil("I'm working at Hooli until Friday, covering for Ann."), "I'm working at Hooli, covering for Ann.");
    assert.equal(withoutUntil('I work at Hooli till June.'), 'I work at Hooli.');
    assert.equal(withoutUntil('I work at Hooli.'), 'I work at Hooli.');
  });
});
