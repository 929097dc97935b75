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

describe('what an erasure never redacts: dates, times, amounts, towns, years, ordinary words', () => {
  test('only phone-shaped numbers of his own words count: never a date, a time range or an amount', () => {
    const own = ['We met on 2024-01-15 and 15/01/2024, open 10.00-12.00, it cost 1 000 000 or 1,000,000.'];
    assert.deepEqual(identifyingValues([], own), []);
    assert.deepEqual(identifyingValues([], ['Ring me on 020 7946 0958.']), ['020 7946 0958']);
  });

  test('an address slot holding only a town, a dob of a bare year and a favourite number give nothing', () => {
    assert.deepEqual(identifyingValues([
      { key: 'home_address', value: 'London' }, { key: 'dob', value: '1985' }, { key: 'favourite_number', value: '2024' },
      { key: 'date_of_birth', value: '1985' },
    ], []), []);
    assert.deepEqual(identifyingValues([{ key: 'dob', value: '1985-03-15' }, { key: 'order_number', value: '4572' }], []).sort(), ['1985-03-15', '4572']);
  });

  test('a number never matches inside a decimal or a longer number', () => {
    for (const text of ['The total was 45.72 pounds.', 'It was 4572.5 metres.', 'Ref 14572 is another.']) {
      assert.equal(redactText(text, [], ['4572']), text);
    }
    assert.equal(redactText('Order 4572 shipped.', [], ['4572']), 'Order [erased] shipped.');
  });

  test('a name that is also a word is redacted only capitalised mid-sentence or as the addressee', () => {
    assert.equal(redactText('Will you call back?', ['Will'], []), 'Will you call back?');
    assert.equal(redactText('Mark the date.', ['Mark Bell', 'Mark'], []), 'Mark the date.');
    assert.equal(redactText('I told Will and Mark Bell about it.', ['Will', 'Mark Bell', 'Mark'], []), 'I told [erased] and [erased] about it.');
    assert.equal(redactText('Thanks, Will. Will, can you hear me?', ['Will'], []), 'Thanks, [erased]. [erased], can you hear me?');
    assert.equal(redactText('In May we opened. Thanks, May.', ['May'], []), 'In May we opened. Thanks, [erased].');
  });
});

describe('values said in words (rules 55: far-field and phone speech)', () => {
  // What a recogniser writes: the caller's own words, and values kept in words before rules 55.
  const values = identifyingValues([
    { key: 'phone_number', value: 'five five five oh one four two' },
    { key: 'delivery_address', value: 'twelve Park Road, Leeds' },
    { key: 'order_number:7731', value: '7731' },
  ], ['call me on five five five oh one double four seven', 'i live at forty two Elm Street', 'I have two kids and one of them is twelve']);

  test('they are read as digits: the phone and street of the words, the slot values kept in words', () => {
    assert.deepEqual([...values].sort(), ['12 Park Road', '12 Park Road, Leeds', '42 Elm Street', '5550142', '55501447', '7731'].sort());
  });

  test('a read-back in words is redacted, digit by digit, "oh", "double" or a house number in words', () => {
    assert.equal(redactText('so that is forty two Elm Street and the phone is five five five, oh one four two, right', [], values),
      'so that is [erased] and the phone is [erased], right');
    assert.equal(redactText('i will send order seven seven three one to twelve park road', [], values), 'i will send order [erased] to [erased]');
    assert.equal(redactText('shall I ring five five five oh one double four seven', [], values), 'shall I ring [erased]');
  });

  test('numbers in words that are not the values stay: another number, a count, a house number on another street', () => {
    for (const text of ['five five five oh one four three', 'she has twelve kids', 'it is at forty two Oak Street', 'seven seven three']) {
      assert.equal(redactText(text, [], values), text);
    }
  });

  test('every read-back in words holds one of the fragments', () => {
    const fragments = candidateFragments([], values).map((f) => f.toLowerCase());
    for (const text of ['five five five oh one four two', 'seven seven thirty one', 'twelve park road', 'forty two elm street', 'five five five zero four four seven']) {
      assert.ok(fragments.some((f) => text.includes(f)), text);
    }
  });
});
