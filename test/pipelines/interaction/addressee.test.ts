import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mentionedParticipants } from '../../../pipelines/interaction/addressee.js';

const people = [
  { id: 'ana', name: 'Ana', aliases: ['Annie'] },
  { id: 'ben', name: 'Ben', aliases: [] },
  { id: 'cy', name: null, aliases: [] },
];

describe('mentioned participants', () => {
  test('a name or alias counts as a whole word only, any case', () => {
    assert.deepEqual(mentionedParticipants('Thanks, Annie!', people), ['ana']);
    assert.deepEqual(mentionedParticipants('Benefits are great', people), []);
    assert.deepEqual(mentionedParticipants('ben and ana, dinner?', people).sort(), ['ana', 'ben']);
  });

  test('participants without a name are never matched', () => {
    assert.deepEqual(mentionedParticipants('null or undefined?', people), []);
  });
});
