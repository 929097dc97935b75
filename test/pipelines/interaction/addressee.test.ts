import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inferAddressees, mentionedParticipants } from '../../../pipelines/interaction/addressee.js';

const people = [
  { id: 'ana', name: 'Ana', aliases: ['Annie'] },
  { id: 'ben', name: 'Ben', aliases: [] },
  { id: 'cy', name: null, aliases: [] },
];

describe('simple addressee inference', () => {
  test('a mentioned name or alias wins, as a whole word only', () => {
    assert.deepEqual(mentionedParticipants('Thanks, Annie!', people), ['ana']);
    assert.deepEqual(mentionedParticipants('Benefits are great', people), []);
    assert.deepEqual(inferAddressees('cy', 'ben and ana, dinner?', [], people).sort(), ['ana', 'ben']);
  });

  test('a speaker does not address themself by name', () => {
    assert.deepEqual(inferAddressees('ana', 'Ana here', [{ speakerId: 'ben' }], people), ['ben']);
  });

  test('in a two-party exchange the reply goes to the other party', () => {
    assert.deepEqual(inferAddressees('ben', 'sure', [{ speakerId: 'ana' }, { speakerId: 'ben' }], people), ['ana']);
  });

  test('with three or more speakers and no name, nobody is assumed', () => {
    assert.deepEqual(inferAddressees('cy', 'sure', [{ speakerId: 'ana' }, { speakerId: 'ben' }], people), []);
    assert.deepEqual(inferAddressees('ana', 'hello?', [], people), []);
  });
});
