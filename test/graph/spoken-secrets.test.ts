/**
 * A secret given (rules 55, review12 finding 3): a PIN, a password or a security code stated is no fact and no lexical
 * term; a sentence that only names one ("my password was changed yesterday") is an ordinary sentence.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { words } from '../../graph/lexical-terms.js';
import { statesSecret } from '../../graph/spoken-secrets.js';

describe('statesSecret: a secret given, not one only named', () => {
  test('a PIN, a password or a security code given', () => {
    for (const said of ['my PIN is 7731', "the password's hunter two", 'my password is hunter2', 'the password is Tr0ub4dor, ok',
      'security code: 447', 'my pin code is one two three', 'my PIN is double seven three one', 'the passcode is four four seven one',
      'my password is p@ssw0rd', 'the cvv is seven one two', 'The door code is 4417', "Ana's alarm code is 7731", 'The gate code is 1234',
      'the safe code is 0042.', 'the combination is 12-34-56', "the password is 'hunter2'", 'my pin is 77 31 ok']) {
      assert.ok(statesSecret(said), said);
    }
  });

  test('a sentence that names one and gives no value (review12)', () => {
    for (const said of ['I forgot my PIN', 'I need to reset my password', 'the pin was bent', 'my pinboard is full',
      'My password was changed yesterday', 'The password is wrong again', 'The wifi password is on the fridge',
      'The password is the same as last time, tell IT', 'My PIN is locked after one more try', 'The pin is stuck on one side',
      'The password is one of those long ones', 'My new password is 12 characters long, with one symbol.',
      'The security code is 3 digits on the back of the card.', 'Your PIN is 6 digits long.', 'The pin is 2 inches long.',
      'The PIN is 30 days old.', 'The password is OK now, I reset it.', 'The password is 2FA protected.', 'The password is TBD.',
      'The password is Wi-Fi.', 'The door code is 4 digits long', 'The combination is perfect.']) {
      assert.equal(statesSecret(said), false, said);
    }
  });
});

describe('words: the digits of a number said in words', () => {
  test('are a term, not where a secret is given', () => {
    assert.ok(words('cancel order five five two zero').includes('5520'));
    assert.ok(!words('my PIN is seven seven three one').includes('7731'));
    assert.ok(!words('Sure. The security code is four four seven.').includes('447'));
    assert.ok(words('My PIN is locked. Cancel order five five two zero.').includes('5520'));
  });
});
