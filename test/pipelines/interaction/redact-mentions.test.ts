import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { candidateFragments, identifyingValues, redactText } from '../../../pipelines/interaction/redact-mentions.js';

describe('what an erasure redacts in other people\'s turns', () => {
  const values = identifyingValues([
    { key: 'home_address', value: '12 Elm Street, Vessingham' },
    { key: 'phone_number', value: '5550142' },
    { key: 'order_number:45721', value: '45721' },
    { key: 'lives_in', value: 'Vessingham' },
    { key: '$client_keys', value: 'phone_number' },
  ], ['You can mail me at ilvane@example.org or ring 020 7946 0958.', 'I moved to 4b Old Mill Lane last spring.']);

  test('contact slots give their values (an address also by its numbered part); the words give phones, emails, streets', () => {
    assert.deepEqual([...values].sort(), ['020 7946 0958', '12 Elm Street', '12 Elm Street, Vessingham', '45721', '4b Old Mill Lane', '5550142', 'ilvane@example.org'].sort());
  });

  test('a read-back loses the name and every value, however the digits are grouped', () => {
    const said = 'So that is Ilvane Drossmark at 12 Elm Street, Vessingham, phone 555 0142, right? Order 45-721, email ILVANE@example.org.';
    assert.equal(redactText(said, ['Ilvane Drossmark', 'Ilvane'], values),
      'So that is [erased] at [erased], phone [erased], right? Order [erased], email [erased].');
    assert.equal(redactText('Thanks Ilvane, noted: 020-7946-0958 and 4b old mill lane.', ['Ilvane'], values),
      'Thanks [erased], noted: [erased] and [erased].');
  });

  test('text without them is left exactly as it was: a common word of the address, a longer number, another name', () => {
    for (const text of ['The elm by the Elm Street bus stop fell.', 'Call 55501429 or 1555-0142 for the desk.', 'Ilvanea and ilvane are not names of hers.', 'Room 12, Elm wing.']) {
      assert.equal(redactText(text, ['Ilvane Drossmark', 'Ilvane'], values), text);
    }
  });

  test('every text a value matches holds one of its fragments', () => {
    const fragments = candidateFragments(['Ilvane'], values).map((f) => f.toLowerCase());
    for (const text of ['at 12 elm street', 'ring 555-01-42', 'order 45 721', 'ILVANE@EXAMPLE.ORG', 'Ilvane']) {
      assert.ok(fragments.some((f) => text.toLowerCase().includes(f)), text);
    }
  });
});
