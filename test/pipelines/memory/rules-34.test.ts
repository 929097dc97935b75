/**
 * Rules 34: a preference with its end said is the `preference:for_now` memory with that end; `favourite:*` slots are of
 * the preference family; a lasting liking said again ends the value held for now; a job for a time told of a named
 * participant is theirs, and "for the holidays" ends a state told of anyone.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Fact } from '../../../graph/memory-store.js';
import { RuleDecider } from '../../../pipelines/memory/decide.js';
import { EMBEDDED_RULES_VERSION } from '../../../pipelines/memory/embedded-extractor.js';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { FACTS_PROMPT_VERSION, FACTS_SYSTEM_PROMPT } from '../../../pipelines/memory/llm-prompts.js';
import { namedEnd } from '../../../pipelines/memory/named-ends.js';
import { FOR_NOW_PREFERENCE, preferenceForATime, preferenceSaidAgain, slotFamily } from '../../../pipelines/memory/temporary-slots.js';
import { inAskedOrder } from '../../../pipelines/retrieval/where-asked.js';
import { factsSaid } from '../../helpers/extract-said.js';
import { storedFact } from '../../helpers/stored-fact.js';

/** Tuesday 1 December 2026, 12:00 UTC. */
const TUESDAY = '2026-12-01T12:00:00.000Z';
const OTHERS = [['ana', 'Ana'], ['tom', 'Tom']] as const;

const facts = (text: string, time = TUESDAY): Promise<ExtractedFact[]> => factsSaid(text, time, ['pat', 'Pat'], ['rae', 'Rae'], OTHERS);

const stored = (id: string, slot: string, value: string, over: Partial<Fact> = {}): Fact =>
  storedFact(TUESDAY, { id, content: value, kind: 'preference', slot, value, subjectId: 'pat', speakerId: 'pat', ...over });

describe('rules 34: preferences with an end, a liking said again, jobs told of others', () => {
  test('the version is 34 or later', () => {
    assert.ok(EMBEDDED_RULES_VERSION >= 34);
  });

  test('a liking with its end said: the for-now preference, with that end', async () => {
    const cases: Array<[string, string, string]> = [
      ["This week I'm really into techno.", 'techno', '2026-12-07T00:00:00.000Z'],
      ['I prefer tea for the next few days.', 'tea', '2026-12-04T12:00:00.000Z'],
      ["I'm reading poetry for a month.", 'poetry', '2027-01-01T12:00:00.000Z'],
      ["I'm watching documentaries until the new year.", 'documentaries', '2027-01-01T00:00:00.000Z'],
    ];
    for (const [text, value, end] of cases) {
      const got = await facts(text);
      assert.deepEqual(got.map((f) => [f.kind, f.slot, f.value, f.validUntil]), [['preference', FOR_NOW_PREFERENCE, value, end]], text);
    }
  });

  test('the LLM prompt (facts-v7 or later) asks for the same slot with its end', () => {
    assert.ok(Number(/^facts-v(\d+)$/.exec(FACTS_PROMPT_VERSION)?.[1]) >= 10, FACTS_PROMPT_VERSION);
    assert.match(FACTS_SYSTEM_PROMPT, /for a time with\s+its end said[^]*preference:for_now with that end as valid_until/);
  });

  test('no liking, a question, the past, a negation: no preference for a time', () => {
    for (const text of ["I'm really tired this week.", 'Are you into techno this week?', 'I was into techno this week.', "I'm not into techno this week."]) {
      assert.equal(preferenceForATime(text), null, text);
    }
  });

  test('a favourite is of the preference family: a present question puts the preference for a time first', () => {
    assert.equal(slotFamily('favourite:drink'), slotFamily(FOR_NOW_PREFERENCE));
    const coffee = { kind: 'fact', score: 3, f: stored('coffee', 'favourite:drink', 'coffee') };
    const tea = { kind: 'fact', score: 1, f: stored('tea', FOR_NOW_PREFERENCE, 'tea', { validUntil: '2026-12-04T12:00:00.000Z' }) };
    const ids = (cs: Array<{ f?: Fact }>): string[] => cs.map((c) => c.f?.id ?? 't');
    assert.deepEqual(ids(inAskedOrder([coffee, tea], 'present', TUESDAY)), ['tea', 'coffee']);
    assert.deepEqual(ids(inAskedOrder([tea, coffee], 'lasting', TUESDAY)), ['coffee', 'tea']);
  });

  test('a liking said again is a lasting preference that ends the one held for now', async () => {
    assert.equal(preferenceSaidAgain("I'm back on regular coffee."), 'regular coffee');
    assert.equal(preferenceSaidAgain("I'm drinking black coffee again."), 'black coffee');
    assert.equal(preferenceSaidAgain("I've gone back to jazz."), 'jazz');
    assert.equal(preferenceSaidAgain("I'm reading the report again."), null);
    for (const text of ["I'm back on Monday.", "I'm back to work.", "I'm back on track.", "I'm back to normal again."]) assert.equal(preferenceSaidAgain(text), null, text);
    assert.equal(preferenceSaidAgain('Are you drinking coffee again?'), null);
    const [again] = await facts("I'm drinking black coffee again.");
    assert.deepEqual([again?.kind, again?.slot, again?.value, again?.endsSlot], ['preference', 'preference:black coffee', 'like', FOR_NOW_PREFERENCE]);
    const d = new RuleDecider();
    const liked = stored('liked', 'preference:black coffee', 'like');
    const cocoa = stored('cocoa', FOR_NOW_PREFERENCE, 'hot chocolate');
    // Said again beside the same lasting liking: the for-now value is what it replaces, and (rules 35) the stored copy too.
    assert.deepEqual(await d.decide({ fact: again!, candidates: [{ fact: liked, score: 0.9 }, { fact: cocoa, score: 0.3 }], retractedFacts: [] }),
      { op: 'UPDATE', targetId: 'cocoa', alsoReplaces: ['liked'] });
    // With nothing held for now, the liking said again is the one kept.
    assert.deepEqual(await d.decide({ fact: again!, candidates: [{ fact: liked, score: 0.9 }], retractedFacts: [] }), { op: 'KEEP', targetId: 'liked' });
  });

  test('a job for a time told of a named participant is theirs, with its end', async () => {
    const cases: Array<[string, string, string, string, string]> = [
      ['Ana is a postwoman for the holidays.', 'ana', 'occupation', 'postwoman', '2027-01-02T00:00:00.000Z'],
      ["Tom's a lifeguard for the summer holidays.", 'tom', 'occupation', 'lifeguard', '2027-09-01T00:00:00.000Z'],
      ["Ana's working at the bakery until March.", 'ana', 'works_at', 'the bakery', '2027-03-01T00:00:00.000Z'],
    ];
    for (const [text, who, slot, value, end] of cases) {
      const got = await facts(text);
      assert.deepEqual(got.map((f) => [f.subjectId, f.slot, f.value, f.validUntil]), [[who, slot, value, end]], text);
    }
    // "Tom's" before a noun is his: "Tom's sister is a nurse" is not Tom's job; "Tom's a great guy" names no end.
    assert.ok((await facts("Tom's a great guy.")).every((f) => f.slot !== 'occupation'));
    assert.ok((await facts("Tom's sister is a nurse for the holidays.")).every((f) => f.subjectId !== 'tom' || f.slot !== 'occupation'));
  });

  test('"for the holidays" ends a state told of anyone, not a habit', () => {
    assert.equal(namedEnd('My cousin is a postman for the holidays.', TUESDAY), '2027-01-02T00:00:00.000Z');
    assert.equal(namedEnd('My cousin Pete is a postman over the holidays.', TUESDAY), '2027-01-02T00:00:00.000Z');
    assert.equal(namedEnd('We watch Elf during the holidays.', TUESDAY), null);
    assert.equal(namedEnd('My cousin was a postman over the holidays.', TUESDAY), null);
  });
});
