/**
 * Rules 29: stays at places named without a capital, the weekend and holidays as a stay's span, and stays that start
 * ahead, whose end is counted from their start.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EMBEDDED_RULES_VERSION, EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { easterSunday } from '../../../pipelines/memory/holidays.js';
import { staySpan } from '../../../pipelines/memory/stay-span.js';
import { readStay, STAY_SLOT } from '../../../pipelines/memory/stays.js';
import { factsSaid } from '../../helpers/extract-said.js';

/** Tuesday 1 December 2026, 12:00 UTC. */
const TUESDAY = '2026-12-01T12:00:00.000Z';
/** Saturday 5 December 2026, 09:00 UTC. */
const SATURDAY = '2026-12-05T09:00:00.000Z';

const facts = (text: string, time = TUESDAY): Promise<ExtractedFact[]> => factsSaid(text, time, ['tim', 'Tim'], ['lea', 'Lea']);
const stayOf = async (text: string, time = TUESDAY): Promise<ExtractedFact | undefined> => (await facts(text, time)).find((f) => f.slot === STAY_SLOT);

describe('rules 29: stays without a capital, the weekend, holidays, stays ahead', () => {
  test('the version is 29', () => {
    assert.ok(EMBEDDED_RULES_VERSION >= 29);
    assert.equal(new EmbeddedExtractor().source, `embedded-rules/${EMBEDDED_RULES_VERSION}`);
  });

  test('a place named by its kind or with "the" is a stay, its value as said with the owner named', async () => {
    const cases: Array<[string, string, string, string]> = [
      ["I'm staying in the Alps for a week.", 'the Alps', '2026-12-08T12:00:00.000Z', 'Tim is staying in the Alps'],
      ["I'm staying at my parents' place for two weeks.", "Tim's parents' place", '2026-12-15T12:00:00.000Z', "Tim is staying at their parents' place"],
      ["We're at the beach house until Sunday.", 'the beach house', '2026-12-07T00:00:00.000Z', 'Tim is staying at the beach house'],
      ["I'm in the mountains this week.", 'the mountains', '2026-12-07T00:00:00.000Z', 'Tim is staying in the mountains'],
      ["I'm on the coast until Saturday.", 'the coast', '2026-12-06T00:00:00.000Z', 'Tim is staying on the coast'],
    ];
    for (const [text, value, end, content] of cases) {
      const stay = await stayOf(text);
      assert.equal(stay?.value, value, text);
      assert.equal(stay?.validUntil, end, text);
      assert.equal(stay?.content, content, text);
    }
  });

  test('a common noun that is no place, or a place word inside a longer name, is no stay', async () => {
    for (const text of ["I'm at the office until six.", "I'm in a meeting for an hour.", "I'm in the middle of a move this week.",
      "I'm on the team for a month.", "I'm at home this week."]) {
      assert.equal(await stayOf(text), undefined, text);
    }
    assert.equal(readStay("I'm in the lake district next month."), null, 'a lower-case name is not cut at "lake"');
  });

  test('the weekend: a stay until the Monday when said at the weekend, a plan with that end when said before it', async () => {
    const bath = await stayOf("I'm spending the weekend in Bath.", SATURDAY);
    assert.equal(bath?.value, 'Bath');
    assert.equal(bath?.validUntil, '2026-12-07T00:00:00.000Z');
    const ahead = await facts("We're in Brighton this weekend.");
    // Rules 30: the stay is a `staying_in` memory from the Saturday on, not from the Tuesday.
    assert.ok(ahead.filter((f) => f.slot === STAY_SLOT).every((f) => f.validFrom === '2026-12-05T00:00:00.000Z'), 'not staying there yet on the Tuesday');
    const plan = ahead.find((f) => f.kind === 'plan');
    assert.equal(plan?.content, 'Tim will be in Brighton');
    assert.equal(plan?.validUntil, '2026-12-07T00:00:00.000Z');
    assert.deepEqual(staySpan("We're in Brighton this weekend.", TUESDAY), { start: '2026-12-05T00:00:00.000Z', end: '2026-12-07T00:00:00.000Z' });
    assert.deepEqual(staySpan("I'm in Bath next weekend.", SATURDAY), { start: '2026-12-12T00:00:00.000Z', end: '2026-12-14T00:00:00.000Z' });
  });

  test('Easter and Christmas: their days, this year or the next once past', async () => {
    assert.equal(new Date(easterSunday(2027)).toISOString(), '2027-03-28T00:00:00.000Z');
    assert.equal(new Date(easterSunday(2026)).toISOString(), '2026-04-05T00:00:00.000Z');
    assert.equal(new Date(easterSunday(2024)).toISOString(), '2024-03-31T00:00:00.000Z');
    assert.deepEqual(staySpan("We're in Cornwall over Easter.", TUESDAY), { start: '2027-03-26T00:00:00.000Z', end: '2027-03-30T00:00:00.000Z' });
    assert.deepEqual(staySpan("We're in Wales over Christmas.", TUESDAY), { start: '2026-12-24T00:00:00.000Z', end: '2026-12-27T00:00:00.000Z' });
    const during = await stayOf("I'm spending Christmas in Vienna.", '2026-12-25T10:00:00.000Z');
    assert.equal(during?.value, 'Vienna');
    assert.equal(during?.validUntil, '2026-12-27T00:00:00.000Z');
    const cornwall = (await facts("We're in Cornwall over Easter.")).find((f) => f.kind === 'plan');
    assert.equal(cornwall?.validUntil, '2027-03-30T00:00:00.000Z');
  });

  test('a stay that starts ahead is a plan whose end is counted from its start', async () => {
    const cases: Array<[string, string]> = [
      ["Next month I'm in Tokyo for two weeks.", '2027-01-15T00:00:00.000Z'],
      ["I'll be in Oslo for ten days from Monday.", '2026-12-17T00:00:00.000Z'],
      ["In January I'm in Seoul for three weeks.", '2027-01-22T00:00:00.000Z'],
      ["I'm in Vienna next week.", '2026-12-14T00:00:00.000Z'],
      ["I'm spending two weeks in Rome next month.", '2027-01-15T00:00:00.000Z'],
    ];
    for (const [text, end] of cases) {
      const fs = await facts(text);
      // Rules 30: beside the plan, the stay from its start (rules-30.test.ts); no promise.
      const plans = fs.filter((f) => f.kind !== 'profile');
      assert.ok(fs.filter((f) => f.slot === STAY_SLOT).every((f) => f.validFrom !== undefined && f.validFrom > TUESDAY), text);
      assert.equal(plans.length, 1, `one plan, no promise beside it: ${text}`);
      assert.equal(plans[0]?.kind, 'plan', text);
      assert.equal(plans[0]?.validUntil, end, text);
    }
  });

  test('near misses: a stay told of the past, a place judged, a season named are no stay and no span', async () => {
    for (const text of ['I spent two weeks in Rome in 2019.', 'Rome is lovely for two weeks.', 'We spent the summer at the lake.',
      'I was in the mountains for a week.', "I stayed at my parents' place for two weeks.", 'The summer was great.', 'I love the summer in Maine.']) {
      assert.equal(await stayOf(text), undefined, text);
      assert.ok(!(await facts(text)).some((f) => f.kind === 'plan'), `no plan: ${text}`);
    }
    assert.equal(staySpan('I spent the weekend in Bath.', SATURDAY), null);
    assert.equal(staySpan("I'll send it next week.", TUESDAY)?.start, '2026-12-07T00:00:00.000Z', 'the span itself is read…');
    assert.equal((await facts("I'll send it next week.")).find((f) => f.kind === 'commitment')?.validUntil ?? null, null,
      '…but only a stay takes it as its end');
  });

  test('a stay told of someone who is no participant is a statement about them, the end a field', async () => {
    const cases: Array<[string, string, string | null]> = [
      ['My sister is spending two weeks in Rome.', "Tim's sister is staying in Rome", '2026-12-15T12:00:00.000Z'],
      ['My sister is spending the weekend in Bath.', "Tim's sister is staying in Bath", '2026-12-07T00:00:00.000Z'],
      ['My parents are in Spain next week.', "Tim's parents will be in Spain", '2026-12-14T00:00:00.000Z'],
      ['My brother is in Tokyo for two weeks next month.', "Tim's brother will be in Tokyo", '2027-01-15T00:00:00.000Z'],
    ];
    for (const [text, content, end] of cases) {
      const fs = await facts(text);
      assert.equal(fs.length, 1, text);
      assert.equal(fs[0]?.content, content, text);
      assert.equal(fs[0]?.kind, 'statement', text);
      assert.equal(fs[0]?.subjectId, 'tim', text);
      assert.equal(fs[0]?.validUntil, end, text);
      assert.equal(fs[0]?.slot, null, `no staying_in of the speaker: ${text}`);
    }
    const mia = await facts("My sister Mia is staying at our cousin's flat until Friday.");
    assert.equal(mia.find((f) => f.kind === 'relation')?.validUntil, null, "the stay ends on Friday, not Mia being Tim's sister");
    assert.equal(mia.find((f) => f.kind === 'statement')?.validUntil, '2026-12-05T00:00:00.000Z');
    for (const text of ['The hotel is in Rome for a week.', 'My boss is in a meeting for an hour.', 'My sister spent two weeks in Rome.']) {
      assert.ok(!(await facts(text)).some((f) => /is staying|will be/.test(f.content)), text);
    }
  });
});
