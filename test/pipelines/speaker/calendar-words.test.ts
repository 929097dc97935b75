import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renameInText } from '../../../pipelines/interaction/rename-facts.js';
import { introductionOf } from '../../../pipelines/memory/embedded-rules.js';
import { CALENDAR_WORDS } from '../../../pipelines/speaker/calendar-words.js';
import { labelIsAlsoWord } from '../../../pipelines/speaker/name-words.js';

/**
 * One list of days, months and feasts for the name rules. The rename rules had months and weekdays only; the
 * self-introduction rule also had today, tonight, tomorrow, Christmas and Easter. Of those, only "Christmas" was
 * not already word-like to the rename rules by WordNet ("Easter", "today" are), so a person labelled "Christmas"
 * is now renamed only where the label is clearly them, as "May" and "Friday" are.
 */
test('the shared list holds what both lists held', () => {
  for (const w of ['today', 'tonight', 'tomorrow', 'monday', 'sunday', 'january', 'may', 'december', 'christmas', 'easter']) {
    assert.ok(CALENDAR_WORDS.has(w), w);
  }
});

test('a label "Christmas" is a word to the rename rules: "at Christmas" stays, the sentence-initial person is renamed', () => {
  assert.equal(labelIsAlsoWord('Christmas'), true);
  assert.equal(renameInText('Ana visits her family at Christmas', 'Christmas', 'Chris'), null);
  assert.equal(renameInText('Christmas is moving to Porto', 'Christmas', 'Chris'), 'Chris is moving to Porto');
  assert.equal(labelIsAlsoWord('Friday'), true, 'a weekday as before');
  assert.equal(labelIsAlsoWord('Grace Hopper'), false, 'two words never are');
});

test('the self-introduction rule reads the same list: "Hi, it\'s Christmas/Monday/Easter" introduces no one', () => {
  for (const day of ['Christmas', 'Monday', 'Easter', 'Tomorrow']) assert.equal(introductionOf(`Hi, it's ${day} again.`), null, day);
  assert.equal(introductionOf("Hi, it's Grace.")?.name, 'Grace');
});
