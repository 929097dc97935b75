import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mentionedParticipants } from '../../../pipelines/interaction/addressee.js';
import { firstNames, unknownVocatives } from '../../../pipelines/interaction/session-naming.js';
import type { Participant } from '../../../graph/types.js';
import { introductionOf } from '../../../pipelines/memory/embedded-rules.js';
import { detectIntroduction } from '../../../pipelines/speaker/name-patterns.js';
import { couldBeName, isFunctionWord } from '../../../pipelines/speaker/name-words.js';

// A newcomer's trial: "My name is on the waiting list" made "On" a name, and the alias then addressed every "on".
describe('function and ordinary words are never names', () => {
  test('couldBeName: closed-class and ordinary words fail, first names (also those that are words) pass', () => {
    for (const w of ['On', 'in', 'Done', 'the', 'great', 'list', 'fine']) assert.equal(couldBeName(w), false, w);
    for (const w of ['Ana', 'Frank', 'Grace', 'Will', 'Ahmed', 'Priya', 'Eve', 'Ana Silva']) assert.equal(couldBeName(w), true, w);
    assert.equal(isFunctionWord('On'), true);
    assert.equal(isFunctionWord('Frank'), false);
  });

  test('"my name is on/in/done …" introduces no one, in the rules extractor and the speaker namer', () => {
    for (const s of ['Great. My name is on the waiting list for the new flat.', 'My name is in the book.', 'my name is done']) {
      assert.equal(introductionOf(s), null, s);
      assert.equal(detectIntroduction(s), null, s);
    }
    assert.deepEqual(introductionOf('My name is Ana.')?.name, 'Ana');
  });

  test('a function word the tenant already holds as a name ("on", a poisoned alias) is not accepted as known', () => {
    const known = new Set(['on', 'in', 'eve', 'frank']);
    assert.equal(detectIntroduction("ty than my name is on it i'll send you the contract", { known }), null);
    assert.equal(detectIntroduction('my name is in the queue', { known }), null);
    assert.deepEqual(detectIntroduction('my name is frank and i fix bikes', { known })?.name, 'Frank');
  });

  test('a function-word alias held from before is no first name to listen for or accept as known', () => {
    const ana: Participant = {
      id: 'a', name: 'Ana Silva', externalId: null, aliases: ['On', 'Annie'], attributes: {}, voiceprintCount: 0,
      createdAt: '2026-12-04T00:00:00Z', updatedAt: '2026-12-04T00:00:00Z',
    };
    assert.deepEqual([...firstNames([ana])].sort(), ['ana', 'annie']);
  });

  test('an ordinary word in a vocative slot ("Great.") is no name evidence', () => {
    assert.deepEqual(unknownVocatives('Great. My name is on the waiting list.', []), []);
    assert.deepEqual(unknownVocatives('Kevin, can you pass me the salt?', []), ['kevin']);
  });
});

describe('address by name', () => {
  const ana = { id: 'ana', name: 'Ana', aliases: ['On'] };
  const will = { id: 'will', name: 'Will', aliases: [] };
  const ben = { id: 'ben', name: 'Ben Costa', aliases: ['Ben'] };

  test('a function-word alias never matches, in any case', () => {
    assert.deepEqual(mentionedParticipants('I will see you on Wednesday then.', [ana]), []);
    assert.deepEqual(mentionedParticipants('On Wednesday then.', [ana]), []);
    assert.deepEqual(mentionedParticipants('see you on wednesday', [ana]), []);
    assert.deepEqual(mentionedParticipants('Ana, see you on Wednesday.', [ana]), ['ana']);
  });

  test('a name that is also a verb or adjective counts only capitalised in typed text; in lower-case speech as before', () => {
    assert.deepEqual(mentionedParticipants('I will see you then.', [will]), []);
    assert.deepEqual(mentionedParticipants('Thanks, Will. See you then.', [will]), ['will']);
    assert.deepEqual(mentionedParticipants('thanks will see you then', [will]), ['will']);
  });

  test('with the ids present, an absent participant counts by full display name only, never by alias', () => {
    const present = new Set(['ana']);
    assert.deepEqual(mentionedParticipants('Ben, are you coming?', [ana, ben], present), []);
    assert.deepEqual(mentionedParticipants('Is Ben Costa coming?', [ana, ben], present), ['ben']);
    assert.deepEqual(mentionedParticipants('Ben, are you coming?', [ana, ben], new Set(['ana', 'ben'])), ['ben']);
  });
});
