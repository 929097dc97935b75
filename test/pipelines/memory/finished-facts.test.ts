/** Fact finishing shared by both extractors (finished-facts.ts): ISO days written out, identifiers keyed, caps. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { finishedFact } from '../../../pipelines/memory/finished-facts.js';
import { withoutGluedDates } from '../../../pipelines/memory/glued-dates.js';
import { keyedIdentifier } from '../../../pipelines/memory/identifiers.js';

/** Said on Tuesday 1 December 2026. */
const TIME = '2026-12-01T10:00:00.000Z';

const fact = (content: string, extra: Partial<ExtractedFact> = {}): ExtractedFact => ({
  content, kind: 'statement', subjectId: 'p_a', speakerId: 'p_a', addresseeIds: [], slot: null, value: null, retraction: false,
  confidence: 0.9, referIds: ['u'], ...extra,
});

describe('finished facts (both extractors)', () => {
  test('an ISO day glued on, after its phrase, bracketed or alone, is written as the rules write a day', () => {
    assert.equal(withoutGluedDates('Ana will call Ben next Friday 2026-12-04', TIME).text, 'Ana will call Ben on Friday 4 December 2026');
    assert.equal(withoutGluedDates('Ana will call Ben on Friday (2026-12-04).', TIME).text, 'Ana will call Ben on Friday 4 December 2026.');
    assert.equal(withoutGluedDates('Ana pays the rent by 2026-12-04', TIME).text, 'Ana pays the rent by Friday 4 December 2026');
    assert.deepEqual(withoutGluedDates('Ana has a dentist appointment 2026-12-09', TIME),
      { text: 'Ana has a dentist appointment on Wednesday 9 December 2026', days: ['2026-12-09'] });
    // No calendar day, or a number that is no date: as it is.
    assert.equal(withoutGluedDates('Ana called on 2026-02-30', TIME).text, 'Ana called on 2026-02-30');
    assert.equal(withoutGluedDates('Ana lives at 12 Rose Court', TIME).text, 'Ana lives at 12 Rose Court');
  });

  test('an order number is keyed as a slot of its own; one said to replace them ends its kind; a phone number is left', () => {
    assert.deepEqual(keyedIdentifier('order_number', 'four five seven two one', 'my order number is four five seven two one'),
      { slot: 'order_number:45721', value: '45721' });
    assert.deepEqual(keyedIdentifier('order_number:88812', '88812', 'ok. my new order number is 88812'),
      { slot: 'order_number:88812', value: '88812', replaces: 'order_number' });
    assert.equal(keyedIdentifier('phone_number', '0123456', 'my phone number is 0123456'), null);
    assert.equal(keyedIdentifier('order_number', 'the blue one', 'my order is the blue one'), null);
  });

  test('a statement over 300 characters is cut at a clause bound, or left out with none; a liked thing is keyed', () => {
    const long = `${'Ana talked about the garden and the weather, '.repeat(4)}${'and so on '.repeat(20)}`.trim();
    const [cut] = finishedFact(fact(long), long, TIME);
    assert.ok(cut && cut.content.length <= 300 && long.startsWith(cut.content), cut?.content);
    assert.deepEqual(finishedFact(fact('word '.repeat(80).trim()), '', TIME), []);
    assert.equal(finishedFact(fact('Ana loves her new bike', { kind: 'preference', slot: 'preference:My New Bikes' }), '', TIME)[0]?.slot, 'preference:bike');
  });
});
