/**
 * A cancelled plan ends what hangs on it (life5): the stay told with a trip ends with the trip, in the same session or a
 * later one, through the real pipeline (embedded extraction, rule decider, SQLite); nothing said apart from it ends.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { STAY_SLOT } from '../../../pipelines/memory/stays.js';
import { turnSessions, type TurnSessions } from '../../helpers/turn-sessions.js';

const TENANT = 'cancelled-plans';

describe('a cancelled plan ends what hangs on it', () => {
  let fx: TurnSessions;
  before(async () => {
    fx = await turnSessions(TENANT, ['Ana', 'Ben', 'Kim'], '2026-12-01T10:00:00.000Z', 60_000);
  });
  after(async () => {
    await fx.close();
  });

  const current = async (who: string, slot?: string) => fx.memory.listFacts(TENANT, { subjectId: fx.people[who]!, ...(slot ? { slot } : {}) });

  test('a trip called off in the next turn ends the stay said ahead with it', async () => {
    await fx.say(fx.people.Ben!, fx.people.Ana!, "I'm staying in Nantes for a week in January.");
    assert.equal((await current('Ben', STAY_SLOT)).length, 1, 'the stay is stored ahead');
    const ops = await fx.say(fx.people.Ben!, fx.people.Ana!, "Oh wait, I'm not going to Nantes anymore.");
    assert.ok(ops.filter((o) => o.op === 'DELETE').length >= 2, JSON.stringify(ops));
    assert.deepEqual(await current('Ben', STAY_SLOT), []);
    assert.deepEqual((await current('Ben')).map((f) => f.content), []);
  });

  test('in a later session, and the hostel told with the trip ends too; the home and another stay do not', async () => {
    await fx.say(fx.people.Ana!, fx.people.Ben!, 'I live in Lyon.');
    await fx.say(fx.people.Ana!, fx.people.Ben!, "I'm visiting Oslo in February, I'll stay at a hostel there.");
    await fx.say(fx.people.Ana!, fx.people.Ben!, "I'm staying in Bath this weekend.");
    await fx.say(fx.people.Ana!, fx.people.Ben!, "Actually I won't go to Oslo after all.");
    const left = (await current('Ana')).map((f) => f.content).sort();
    assert.ok(left.includes('Ana lives in Lyon'), JSON.stringify(left));
    assert.ok(left.some((c) => c.includes('Bath')), JSON.stringify(left));
    assert.ok(!left.some((c) => /Oslo|hostel/.test(c)), JSON.stringify(left));
  });

  test('a stay told in a later turn of the trip\'s conversation ends with the trip; one naming another place, or told in another conversation, does not', async () => {
    // On rules 47 the stay told apart stayed current after "I cancelled the Lisbon trip" (text6).
    await fx.say(fx.people.Kim!, fx.people.Ana!, "I'm flying to Lisbon on Friday.", undefined, 'kim-a');
    await fx.say(fx.people.Kim!, fx.people.Ana!, "I'll stay at your place for the weekend.", undefined, 'kim-a');
    await fx.say(fx.people.Kim!, fx.people.Ana!, "I'm staying in Bath next weekend.", undefined, 'kim-a');
    await fx.say(fx.people.Kim!, fx.people.Ana!, 'I cancelled the Lisbon trip.', undefined, 'kim-a');
    const left = (await current('Kim')).map((f) => f.content);
    assert.ok(!left.some((c) => /Lisbon|Ana's place/.test(c)), JSON.stringify(left));
    assert.ok(left.some((c) => c.includes('Bath')), JSON.stringify(left));

    await fx.say(fx.people.Ben!, fx.people.Kim!, "I'm flying to Porto on Friday.", undefined, 'ben-a');
    await fx.say(fx.people.Ben!, fx.people.Kim!, "I'll stay at your place for the weekend.", undefined, 'ben-b');
    await fx.say(fx.people.Ben!, fx.people.Kim!, 'I cancelled the Porto trip.', undefined, 'ben-a');
    const bens = (await current('Ben')).map((f) => f.content);
    assert.ok(bens.some((c) => c.includes("Kim's place")), JSON.stringify(bens));
  });
});
