/**
 * A second liking of another thing is kept beside the first (fix9, issue #16 F6, a home-robot trial: "Maya likes
 * dinosaurs" after "Maya loves strawberries" kept only the strawberries). On main "And Maya likes dinosaurs" was the
 * speaker's statement (the name after "and" was no subject), and "…dinosaurs too" held the slot "preference:dinosaurs too".
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { factsSaid } from '../../helpers/extract-said.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';

const T = '2026-12-01T10:00:00.000Z';

describe('a second liking', () => {
  test('a name after a connective is the subject; "too" is no part of the thing', async () => {
    for (const said of ['And Maya likes dinosaurs.', 'Maya likes dinosaurs too.', 'Oh and Maya likes dinosaurs as well.']) {
      const facts = await factsSaid(said, T, ['tom', 'Tom'], ['sarah', 'Sarah'], [['maya', 'Maya']]);
      assert.deepEqual(facts.map((f) => [f.subjectId, f.kind, f.slot]), [['maya', 'preference', 'preference:dinosaur']], said);
    }
  });

  describe('stored', () => {
    let f: MemoryFixture;
    before(async () => {
      f = await memoryFixture('t-second-liking', ['Sarah', 'Tom', 'Maya']);
    });
    after(async () => {
      await f.close();
    });

    test('both likings of Maya stay current', async () => {
      await f.say('s1', 'Sarah', ['Tom'], 'Maya loves strawberries.', '2026-12-01T10:00:00Z');
      await f.say('s1', 'Tom', ['Sarah'], 'And Maya likes dinosaurs too.', '2026-12-01T10:01:00Z');
      const maya = await f.memory.listFacts('t-second-liking', { participantId: f.people.Maya! });
      assert.deepEqual(maya.filter((x) => x.validTo === null).map((x) => x.slot).sort(), ['preference:dinosaur', 'preference:strawberry']);
    });
  });
});
