/**
 * Numbers as a recogniser writes them, read as digits (rules 55): what a value said in words reads as, and what is no
 * number.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { saysNumberInWords, spokenNumber, spokenRuns } from '../../graph/spoken-digits.js';

describe('spokenNumber: the number said at the start', () => {
  test('digits one by one, "oh" and "nought" for zero, "double" and "triple"', () => {
    const cases: Array<[string, string]> = [
      ['five five two zero', '5520'], ['five five five oh one four two', '5550142'], ['four four seven one', '4471'],
      ['double seven three one', '7731'], ['double oh seven', '007'], ['triple nine', '999'], ['nought one two', '012'],
      ['five five five, oh one four two', '5550142'], ['five-five-two-zero', '5520'], ['Five Five Two Zero', '5520'],
    ];
    for (const [said, digits] of cases) assert.equal(spokenNumber(said), digits, said);
  });

  test('teens, tens and hundreds: house numbers', () => {
    const cases: Array<[string, string]> = [
      ['twelve', '12'], ['forty two', '42'], ['forty', '40'], ['one hundred and five', '105'], ['one hundred five', '105'],
      ['two hundred', '200'], ['three hundred and twelve', '312'], ['one oh five', '105'], ['twenty twenty', '2020'],
      ['forty five seven please', '457'], ['555 oh one four two', '5550142'], ['a1234', 'A1234'],
    ];
    for (const [said, digits] of cases) assert.equal(spokenNumber(said), digits, said);
  });

  test('thousands (values #3): "two thousand and five", "one hundred thousand"', () => {
    const cases: Array<[string, string]> = [
      ['two thousand and five', '2005'], ['two thousand', '2000'], ['twenty five thousand', '25000'], ['one hundred thousand', '100000'],
      ['two thousand five hundred and twelve', '2512'], ['three hundred and fifty thousand', '350000'], ['two thousand and twenty four', '2024'],
      ['five five five two thousand', '5552000'], ['two thousand and then', '2000'],
    ];
    for (const [said, digits] of cases) assert.equal(spokenNumber(said), digits, said);
    assert.equal(spokenNumber('thousand'), null);
  });

  test('no number: words, a single digit, "oh" alone, "o\'clock", a number after other words', () => {
    for (const said of ['late', 'one', 'oh', 'oh well five', "five o'clock", 'one of my friends', 'the order is five five two', 'double trouble', '']) {
      assert.equal(spokenNumber(said), null, said);
    }
  });

  test('a sentence ends a number: "five five. oh one" is two', () => {
    assert.equal(spokenNumber('five five. oh one'), '55');
  });
});

describe('spokenRuns: the numbers said in a text', () => {
  test('each run with where it lies, at least as long as asked', () => {
    const text = 'so that is Ilvane at twelve Elm Street, phone five five five oh one four two, right? oh one more thing';
    assert.deepEqual(spokenRuns(text, 4).map((r) => [r.digits, text.slice(r.start, r.end)]), [['5550142', 'five five five oh one four two']]);
    // "oh one more thing" is no number: a leading "oh" is a zero only before two digits.
    assert.deepEqual(spokenRuns(text, 2).map((r) => r.digits), ['12', '5550142']);
    assert.deepEqual(spokenRuns('oh five five two', 2).map((r) => r.digits), ['0552']);
  });

  test('no run in ordinary words', () => {
    assert.deepEqual(spokenRuns('I have two kids and one of them is ten', 2).map((r) => r.digits), ['10']);
    assert.deepEqual(spokenRuns("oh no, it's five o'clock", 2), []);
    assert.equal(saysNumberInWords('nothing here at all'), false);
    assert.equal(saysNumberInWords('Five kids'), true);
  });
});
