/**
 * Rules 33: a preference held for now with no end ("for now I prefer green tea", "these days I'm drinking decaf") is a
 * `preference:for_now` memory beside the lasting preferences, first for a present question and after them for a lasting
 * one; a job with its end and no "working as" ("I'm a barista for the holidays") is a temporary `occupation`.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Fact } from '../../../graph/memory-store.js';
import { EMBEDDED_RULES_VERSION } from '../../../pipelines/memory/embedded-extractor.js';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { FACTS_PROMPT_VERSION, FACTS_SYSTEM_PROMPT } from '../../../pipelines/memory/llm-prompts.js';
import { FOR_NOW_PREFERENCE, forNowPreference, slotFamily, temporaryByNature } from '../../../pipelines/memory/temporary-slots.js';
import { inAskedOrder, validityAsked } from '../../../pipelines/retrieval/where-asked.js';
import { factsSaid } from '../../helpers/extract-said.js';

/** Tuesday 1 December 2026, 12:00 UTC. */
const TUESDAY = '2026-12-01T12:00:00.000Z';

const facts = (text: string, time = TUESDAY): Promise<ExtractedFact[]> => factsSaid(text, time, ['pat', 'Pat'], ['rae', 'Rae']);

describe('rules 33: a preference held for now', () => {
  test('the version is 33 or later', () => {
    assert.ok(EMBEDDED_RULES_VERSION >= 33);
  });

  test('a liking said with a cue of the present and no end: one for-now preference, its text keeping the cue', async () => {
    const cases: Array<[string, string, string]> = [
      ['For now I prefer green tea.', 'green tea', 'For now Pat prefers green tea'],
      ['For the moment I prefer sparkling water.', 'sparkling water', 'For the moment Pat prefers sparkling water'],
      ["These days I'm drinking decaf.", 'decaf', 'These days Pat is drinking decaf'],
      ["At the moment I'm into jazz.", 'jazz', 'At the moment Pat is into jazz'],
      ["I'm drinking rooibos for now.", 'rooibos', 'Pat is drinking rooibos for now'],
    ];
    for (const [text, value, content] of cases) {
      const got = await facts(text);
      assert.deepEqual(got.map((f) => [f.kind, f.slot, f.value, f.validUntil, f.content]), [['preference', FOR_NOW_PREFERENCE, value, null, content]], text);
    }
  });

  test('no cue, a question, a dislike, the past: not held for now', async () => {
    assert.equal((await facts('I prefer red wine.'))[0]?.slot, 'preference:red wine');
    for (const text of ['Are you still into jazz?', "I don't like coffee these days.", 'I used to prefer tea for now.', 'I prefer red wine.', "I'm into it at the moment."]) {
      assert.equal(forNowPreference(text), null, text);
    }
  });

  test('the LLM prompt (facts-v6 and later) asks for the same slot', () => {
    assert.ok(Number(/^facts-v(\d+)$/.exec(FACTS_PROMPT_VERSION)?.[1]) >= 10, FACTS_PROMPT_VERSION);
    assert.ok(FACTS_SYSTEM_PROMPT.includes(`slot ${FOR_NOW_PREFERENCE}`));
  });

  test('the slot is temporary by its nature, in the family of every preference', () => {
    assert.equal(temporaryByNature(FOR_NOW_PREFERENCE), true);
    assert.equal(temporaryByNature('preference:red wine'), false);
    assert.equal(slotFamily(FOR_NOW_PREFERENCE), slotFamily('preference:red wine'));
  });

  test('a present question gets the for-now value first, a usual one the lasting value; nothing else moves', () => {
    const pref = (id: string, slot: string, value: string, subjectId = 'pat'): Fact => ({
      id, content: value, kind: 'preference', slot, value, subjectId, speakerId: subjectId, addresseeIds: [], time: TUESDAY, referIds: [],
      validFrom: TUESDAY, validTo: null, validUntil: null, supersededBy: null, confidence: 0.8, sessionId: 's', source: 'test',
    } as unknown as Fact);
    const wine = { kind: 'fact', score: 3, f: pref('wine', 'preference:red wine', 'prefer') };
    const turn: { kind: string; score: number; f?: Fact } = { kind: 'turn', score: 2 };
    const water = { kind: 'fact', score: 1, f: pref('water', FOR_NOW_PREFERENCE, 'sparkling water') };
    const ids = (cs: Array<{ f?: Fact }>): string[] => cs.map((c) => c.f?.id ?? 't');
    assert.equal(validityAsked('What does Pat prefer to drink now?'), 'present');
    assert.equal(validityAsked('What does Pat usually prefer to drink?'), 'lasting');
    assert.deepEqual(ids(inAskedOrder([wine, turn, water], 'present', TUESDAY)), ['water', 't', 'wine']);
    assert.deepEqual(ids(inAskedOrder([water, turn, wine], 'lasting', TUESDAY)), ['wine', 't', 'water']);
    // Another person's preference is another family: it does not move.
    const other = { kind: 'fact', score: 1, f: pref('cider', 'preference:cider', 'prefer', 'ola') };
    assert.deepEqual(ids(inAskedOrder([wine, other], 'present', TUESDAY)), ['wine', 'cider']);
  });
});

describe('rules 33: a job with its end and no "working as"', () => {
  test('"a barista for the holidays", "a lifeguard for the summer holidays": a temporary occupation with its end', async () => {
    assert.deepEqual((await facts("I'm a barista for the holidays.")).map((f) => [f.slot, f.value, f.validUntil]),
      [['occupation', 'barista', '2027-01-02T00:00:00.000Z']]);
    assert.deepEqual((await facts("I'm a lifeguard for the summer holidays.", '2026-06-10T09:00:00.000Z')).map((f) => [f.slot, f.value, f.validUntil]),
      [['occupation', 'lifeguard', '2026-09-01T00:00:00.000Z']]);
  });

  test('a feeling for a time is no job', async () => {
    for (const text of ["I'm a bit jealous for the summer.", "I'm a little envious over the holidays."]) {
      assert.ok((await facts(text)).every((f) => f.slot === null), text);
    }
  });
});
