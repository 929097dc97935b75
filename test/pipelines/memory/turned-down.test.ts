/**
 * A preference said with the alternative turned down (life5): "For now I prefer tea, not coffee" is a liking held for
 * now (its "not" turns down coffee, it denies no liking), and "I prefer tea to coffee" / "…rather than coffee" fill the
 * slot of tea, not of "tea to coffee".
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { withoutTurnedDown } from '../../../pipelines/memory/rejected-alternative.js';
import { FOR_NOW_PREFERENCE } from '../../../pipelines/memory/temporary-slots.js';
import { turnSessions, type TurnSessions } from '../../helpers/turn-sessions.js';

describe('a preference with the alternative turned down', () => {
  test('the alternative after "not", "rather than", "instead of", and "to" after "prefer"; none in an infinitive', () => {
    assert.deepEqual(withoutTurnedDown('For now I prefer tea, not coffee.'), { kept: 'For now I prefer tea.', turnedDown: 'coffee' });
    assert.deepEqual(withoutTurnedDown('prefer tea to coffee'), { kept: 'prefer tea', turnedDown: 'coffee' });
    assert.deepEqual(withoutTurnedDown('I prefer tea rather than coffee'), { kept: 'I prefer tea', turnedDown: 'coffee' });
    assert.equal(withoutTurnedDown('prefer to walk to work'), null);
    assert.equal(withoutTurnedDown("I'm listening to jazz for now."), null);
  });

  describe('through consolidation', () => {
    let fx: TurnSessions;
    before(async () => {
      fx = await turnSessions('turned-down', ['Ida', 'Jon'], '2026-12-01T10:00:00.000Z', 60_000);
    });
    after(async () => {
      await fx.close();
    });

    test('"For now I prefer tea, not coffee" is held for now; "I prefer tea to coffee" is the slot of tea', async () => {
      await fx.say(fx.people.Ida!, fx.people.Jon!, 'For now I prefer tea, not coffee.');
      const forNow = await fx.memory.listFacts('turned-down', { subjectId: fx.people.Ida!, slot: FOR_NOW_PREFERENCE });
      assert.deepEqual(forNow.map((f) => f.value), ['tea']);
      await fx.say(fx.people.Jon!, fx.people.Ida!, 'I prefer tea to coffee.');
      const jons = await fx.memory.listFacts('turned-down', { subjectId: fx.people.Jon! });
      assert.deepEqual(jons.map((f) => f.slot), ['preference:tea']);
      assert.equal(jons[0]?.content, 'Jon prefers tea to coffee');
    });
  });
});
