/**
 * A secret given (rules 55, 56, 62; review12 finding 3, reviewB): a PIN, a password, a security code, a door, gate or
 * alarm code or a combination stated is no fact and no lexical term, and a value holding a digit is what the stored
 * transcript redacts; a sentence that only names one ("my password was changed yesterday") is an ordinary sentence. A
 * password given as a plain word ("my password is sunshine") is a secret when it is a noun or a name; a word after "is"
 * that is no value (an adjective, a participle, a preposition, a determiner) is none.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { words } from '../../graph/lexical-terms.js';
import { SECRET_NAME_FRAGMENTS, secretValues, withSecretsRedacted } from '../../graph/spoken-secrets.js';
import { EMBEDDED_RULES_VERSION } from '../../pipelines/memory/embedded-rules-version.js';
import { wink } from '../../pipelines/wink.js';

const nlp = wink();
/** Whether `said` gives a secret (any value `secretValues` finds). */
const givesSecret = (said: string): boolean => secretValues(nlp, said).length > 0;

describe('secretValues: a secret given, not one only named', () => {
  test('a PIN, a password or a security code given', () => {
    for (const said of ['my PIN is 7731', "the password's hunter two", 'my password is hunter2', 'the password is Tr0ub4dor, ok',
      'security code: 447', 'my pin code is one two three', 'my PIN is double seven three one', 'the passcode is four four seven one',
      'my password is p@ssw0rd', 'the cvv is seven one two', 'The door code is 4417', "Ana's alarm code is 7731", 'The gate code is 1234',
      'the safe code is 0042.', 'the combination is 12-34-56', "the password is 'hunter2'", 'my pin is 77 31 ok']) {
      assert.ok(givesSecret(said), said);
      // What a scan of stored turns looks for (redact-stored-secrets.ts): every secret's name holds one.
      assert.ok(SECRET_NAME_FRAGMENTS.some((f) => said.toLowerCase().includes(f)), said);
    }
  });

  test('a sentence that names one and gives no value (review12)', () => {
    for (const said of ['I forgot my PIN', 'I need to reset my password', 'the pin was bent', 'my pinboard is full',
      'My password was changed yesterday', 'The password is wrong again', 'The wifi password is on the fridge',
      'The password is the same as last time, tell IT', 'My PIN is locked after one more try', 'The pin is stuck on one side',
      'The password is one of those long ones', 'My new password is 12 characters long, with one symbol.',
      'The security code is 3 digits on the back of the card.', 'Your PIN is 6 digits long.', 'The pin is 2 inches long.',
      'The PIN is 30 days old.', 'The password is OK now, I reset it.', 'The password is 2FA protected.', 'The password is TBD.',
      'The door code is 4 digits long', 'The combination is perfect.']) {
      assert.equal(givesSecret(said), false, said);
    }
  });

  test('a plain word is read for its part of speech: "Wi-Fi" is a name, a secret with no digit, never redacted', () => {
    assert.ok(givesSecret('The password is Wi-Fi.'));
    assert.equal(withSecretsRedacted('The password is Wi-Fi.'), 'The password is Wi-Fi.');
  });
});

describe('words: the digits of a number said in words', () => {
  test('are a term, not where a secret is given', () => {
    assert.ok(words('cancel order five five two zero').includes('5520'));
    assert.ok(!words('my PIN is seven seven three one').includes('7731'));
    assert.ok(!words('Sure. The security code is four four seven.').includes('447'));
    assert.ok(words('My PIN is locked. Cancel order five five two zero.').includes('5520'));
    // Only the secret's own digits: a number said after it is a term (before, any secret earlier in the text hid it).
    assert.ok(words('My PIN is 7731, and cancel order five five two zero.').includes('5520'));
    assert.ok(!words('My PIN is double seven three one, and cancel order five five two zero.').includes('7731'));
  });
});

describe('secretValues: a password given as a plain word', () => {
  test('the rules that read it are version 56 or later', () => {
    assert.ok(EMBEDDED_RULES_VERSION >= 56);
  });

  test('a noun or a name after "password / passcode / code word is" is a secret', () => {
    for (const said of ['my password is sunshine', 'the wifi password is bluefish42', 'the code word is pineapple', 'my passcode is monkey, ok',
      'My password is Sunshine.', 'the codeword is banana', 'my password is sunshine and I always forget it', 'my PIN is 7731', 'my pin is double seven three one']) {
      assert.ok(givesSecret(said), said);
    }
  });

  test('an adjective, a participle, a preposition or a determiner after "is" is no value', () => {
    for (const said of ['The password is wrong again', 'The wifi password is on the fridge', 'My PIN is locked after one more try',
      'my password is expired', 'the password is case sensitive', 'the password is in the email', 'the password is fine',
      'the password is mine', 'the password is here', 'the password is set', 'the password is gone', 'the pin is bent',
      'the password is the same as last time', 'there is a password issue', "the password is wrong and I can't log in"]) {
      assert.equal(givesSecret(said), false, said);
    }
  });
});

describe('withSecretsRedacted: the value given replaced', () => {
  test('a number said, digits, a word and a number', () => {
    const cases: Array<[string, string]> = [
      ['Sure. My PIN is double seven three one, thanks.', 'Sure. My PIN is [redacted], thanks.'],
      ['the wifi password is bluefish42 and the code word is pineapple.', 'the wifi password is [redacted] and the code word is pineapple.'],
      ["the password's hunter two", "the password's [redacted]"],
      ['security code: 447', 'security code: [redacted]'],
      ['my pin is 77 31 ok', 'my pin is [redacted] ok'],
    ];
    for (const [said, stored] of cases) assert.equal(withSecretsRedacted(said), stored, said);
  });

  test('a door, gate, alarm or safe code and a combination; a value in quotes (reviewB 7)', () => {
    const cases: Array<[string, string]> = [
      ['The door code is 4417', 'The door code is [redacted]'],
      ["Ana's alarm code is 7731.", "Ana's alarm code is [redacted]."],
      ['The gate code is 1234.', 'The gate code is [redacted].'],
      ['the entry code is four four one seven', 'the entry code is [redacted]'],
      ['The safe combination is 12 34 56, ok?', 'The safe combination is [redacted], ok?'],
      ["the code word is 'hunter2'.", "the code word is '[redacted]'."],
    ];
    for (const [said, stored] of cases) assert.equal(withSecretsRedacted(said), stored, said);
    for (const said of ['The door code is 4417', "Ana's alarm code is 7731", 'The gate code is 1234', "the code word is 'pineapple'",
      'the lock combination is 12 34 56', 'The access code is 5521.']) {
      assert.ok(givesSecret(said), said);
    }
  });

  test('a value must end its clause, a word in capitals is none, a plain word is kept (reviewB 1)', () => {
    const noValue = ['My new password is 12 characters long, with one symbol.', 'The security code is 3 digits on the back of the card.',
      'Your PIN is 6 digits long.', 'The pin is 2 inches long.', 'The PIN is 30 days old.', 'The password is OK now, I reset it.',
      'The password is 2FA protected.', 'The password is TBD.', 'The password is TBD until Monday.', 'the door code is 4 digits long',
      'The combination is perfect.', 'Your PIN is four digits long.'];
    for (const said of noValue) {
      assert.equal(withSecretsRedacted(said), said, said);
      assert.equal(givesSecret(said), false, said);
    }
    const plainWords = ['Honestly, the password is overkill.', 'The password is default.', 'The password is lowercase.',
      'The password is nonsense.', 'The password is garbage.', 'The password is security.', 'The password is email.',
      'The password is Wi-Fi.', 'my password is sunshine', 'the code word is pineapple', 'My password is Sunshine.'];
    for (const said of plainWords) assert.equal(withSecretsRedacted(said), said, said);
  });

  test('no secret given: the same string', () => {
    for (const said of ['The password is wrong again', 'my password is expired', 'call me on five five five oh one four two']) {
      assert.equal(withSecretsRedacted(said), said);
    }
  });
});

describe('a short hedge after a value (rules 63)', () => {
  test('"I think", "I believe", "if I remember right", "right?", "or so", "I guess" after a value still give it', () => {
    const cases: Array<[string, string]> = [
      ['my PIN is 7731 I think', 'my PIN is [redacted] I think'],
      ['the alarm code is 4-4-1-9, I believe', 'the alarm code is [redacted], I believe'],
      ['the alarm code is 4419 I believe.', 'the alarm code is [redacted] I believe.'],
      ["the gate code's 5512 if I remember right", "the gate code's [redacted] if I remember right"],
      ['my pin is seven seven three one i think.', 'my pin is [redacted] i think.'],
      ['the passcode is four four seven one if I remember correctly, ok', 'the passcode is [redacted] if I remember correctly, ok'],
      ['my PIN is 7731 right?', 'my PIN is [redacted] right?'],
      ['the door code is 4417 or so', 'the door code is [redacted] or so'],
      ['my password is hunter2 I guess', 'my password is [redacted] I guess'],
      ['the wifi password is bluefish42 I think, and the code word is pineapple.', 'the wifi password is [redacted] I think, and the code word is pineapple.'],
    ];
    for (const [said, stored] of cases) {
      assert.equal(withSecretsRedacted(said), stored, said);
      assert.ok(givesSecret(said), said);
    }
    assert.ok(givesSecret('my password is sunshine I think'));
  });

  test('a hedge ends no clause a value does not end: "four digits long" stays an ordinary sentence (reviewB 1)', () => {
    for (const said of ['Your PIN is four digits long I think', 'Your PIN is 6 digits long, I believe.', 'The PIN is 30 days old I guess',
      'My new password is 12 characters long or so', 'The security code is 3 digits on the back I think', 'The password is 2FA protected I believe',
      'the password is wrong I think', 'The password is OK I think', 'my PIN is 7731 I think about changing', 'the door code is 4417 or something']) {
      assert.equal(withSecretsRedacted(said), said, said);
      if (!said.includes('7731') && !said.includes('4417')) assert.equal(givesSecret(said), false, said);
    }
  });
});
