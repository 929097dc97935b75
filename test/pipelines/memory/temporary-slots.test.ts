/**
 * Rules 30 (second part): a temporary state outside residence that the other rules left slotless fills the slot its
 * lasting form fills, so the present/lasting order can act on it (pipelines/retrieval/where-asked.ts).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { STAY_SLOT } from '../../../pipelines/memory/stays.js';
import { lastingSlotOf, slotFamily, temporaryByNature, temporarySlot } from '../../../pipelines/memory/temporary-slots.js';
import { factsSaid } from '../../helpers/extract-said.js';

const SAID = '2026-12-01T10:00:00.000Z';

const facts = (text: string): Promise<ExtractedFact[]> => factsSaid(text, SAID, ['ivo', 'Ivo'], ['lu', 'Lu']);

describe('temporary values of every slot: the slot of the lasting form, the end a field', () => {
  test('read by their words', () => {
    const cases: Array<[string, string, string]> = [
      ["I'm on a juice cleanse for a few days.", 'diet', 'juice cleanse'],
      ["I'm on a low-sugar diet this week.", 'diet', 'low-sugar diet'],
      ["I'm fasting until Sunday.", 'diet', 'fasting'],
      ["I'm working as a lifeguard for two weeks.", 'occupation', 'lifeguard'],
      ["I'm temping at a law firm until Friday.", 'works_at', 'law firm'],
      ["I'm covering at the clinic this month.", 'works_at', 'the clinic'],
      ["I'm on leave until January.", 'status', 'on leave'],
      ["I'm off work on sick leave for a week.", 'status', 'on sick leave'],
      ['Mo and I are taking a break for a month.', 'relationship', 'on a break'],
    ];
    for (const [text, slot, value] of cases) assert.deepEqual(temporarySlot(text), { slot, value }, text);
  });

  test('extracted: a profile memory of that slot with its end; none with no end said, a question, or a lasting form', async () => {
    const cleanse = (await facts("I'm on a juice cleanse for a few days.")).find((f) => f.slot === 'diet');
    assert.equal(cleanse?.kind, 'profile');
    assert.equal(cleanse?.value, 'juice cleanse');
    assert.equal(cleanse?.validUntil, '2026-12-04T10:00:00.000Z');
    assert.equal((await facts("I'm on sabbatical until March.")).find((f) => f.slot === 'status')?.validUntil, '2027-03-01T00:00:00.000Z');
    for (const text of ["I'm on a juice cleanse.", 'Are you on leave until January?', "I've got the flu for a few days.", "I'm on the team for a month.",
      "I'm working on a report until Friday."]) {
      assert.ok(!(await facts(text)).some((f) => ['diet', 'occupation', 'works_at', 'status', 'relationship'].includes(f.slot ?? '')), text);
    }
    assert.equal(temporarySlot('Are you fasting this week?'), null);
  });
});

describe('lastingSlotOf: the slot whose lasting value a temporary one interrupts (read by the present/lasting order)', () => {
  test('a stay interrupts the home, a leave the occupation; any other slot its own lasting values', () => {
    assert.equal(lastingSlotOf(STAY_SLOT), 'lives_in');
    assert.equal(lastingSlotOf(temporarySlot("I'm on sabbatical until June")?.slot ?? ''), 'occupation');
    for (const slot of ['lives_in', 'works_at', 'diet', 'occupation', 'relationship']) assert.equal(lastingSlotOf(slot), slot);
  });
});

describe('slotFamily and temporaryByNature: the slot families and natures the present/lasting order reads', () => {
  test('every sport is one family; a stay is the home\'s; any other slot its own', () => {
    assert.equal(slotFamily('sport:tennis'), 'sport');
    assert.equal(slotFamily('sport:yoga'), slotFamily('sport:football'));
    assert.equal(slotFamily(STAY_SLOT), 'lives_in');
    assert.equal(slotFamily('status'), 'occupation');
    for (const slot of ['lives_in', 'works_at', 'diet', 'relationship']) assert.equal(slotFamily(slot), slot);
  });

  test('a status is temporary by its nature; a home, a job, a diet or a sport is not', () => {
    assert.equal(temporaryByNature('status'), true);
    for (const slot of ['lives_in', 'occupation', 'works_at', 'diet', 'sport:tennis', STAY_SLOT]) assert.equal(temporaryByNature(slot), false, slot);
  });
});
