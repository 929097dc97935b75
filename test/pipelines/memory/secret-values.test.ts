/**
 * Rules 56: a secret given as a plain word ("my password is sunshine") is a secret; a word after "is" that is no value
 * (an adjective, a participle, a preposition, a determiner) is none. Its value is what the transcript redacts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { wink } from '../../../pipelines/wink.js';
import { givesSecret, withSecretsRedacted } from '../../../pipelines/memory/secret-values.js';
import { EMBEDDED_RULES_VERSION } from '../../../pipelines/memory/embedded-rules-version.js';

const nlp = wink();

describe('givesSecret: a password given as a plain word', () => {
  test('the rules that read it are version 56 or later', () => {
    assert.ok(EMBEDDED_RULES_VERSION >= 56);
  });

  test('a noun or a name after "password / passcode / code word is" is a secret', () => {
    for (const said of ['my password is sunshine', 'the wifi password is bluefish42', 'the code word is pineapple', 'my passcode is monkey, ok',
      'My password is Sunshine.', 'the codeword is banana', 'my password is sunshine and I always forget it', 'my PIN is 7731', 'my pin is double seven three one']) {
      assert.ok(givesSecret(nlp, said), said);
    }
  });

  test('an adjective, a participle, a preposition or a determiner after "is" is no value', () => {
    for (const said of ['The password is wrong again', 'The wifi password is on the fridge', 'My PIN is locked after one more try',
      'my password is expired', 'the password is case sensitive', 'the password is in the email', 'the password is fine',
      'the password is mine', 'the password is here', 'the password is set', 'the password is gone', 'the pin is bent',
      'the password is the same as last time', 'there is a password issue', "the password is wrong and I can't log in"]) {
      assert.equal(givesSecret(nlp, said), false, said);
    }
  });
});

describe('withSecretsRedacted: the value given replaced', () => {
  test('a plain word, a number said, digits, a word and a number', () => {
    const cases: Array<[string, string]> = [
      ['my password is sunshine', 'my password is [redacted]'],
      ['Sure. My PIN is double seven three one, thanks.', 'Sure. My PIN is [redacted], thanks.'],
      ['the wifi password is bluefish42 and the code word is pineapple.', 'the wifi password is [redacted] and the code word is [redacted].'],
      ["the password's hunter two", "the password's [redacted]"],
      ['security code: 447', 'security code: [redacted]'],
      ['my pin is 77 31 ok', 'my pin is [redacted] ok'],
    ];
    for (const [said, stored] of cases) assert.equal(withSecretsRedacted(nlp, said), stored, said);
  });

  test('no secret given: the same string', () => {
    for (const said of ['The password is wrong again', 'my password is expired', 'call me on five five five oh one four two']) {
      assert.equal(withSecretsRedacted(nlp, said), said);
    }
  });
});
