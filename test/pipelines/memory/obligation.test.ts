import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Utterance } from '../../../graph/types.js';
import { EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import { readObligation } from '../../../pipelines/memory/obligation.js';
import type { MemoryOp } from '../../../pipelines/memory/consolidate.js';
import { turnSessions, type TurnSessions } from '../../helpers/turn-sessions.js';

const who = { speaker: 'Ana', addressees: ['Ben'] };
const T = '2026-12-01T10:00:00.000Z'; // a Tuesday

describe('readObligation', () => {
  test('need to / have to / got to / must / should with a thing of its own is a plan, written in the third person', () => {
    assert.deepEqual(readObligation('I need to renew my passport.', who, false), { content: "Ana needs to renew Ana's passport", verb: 'renew' });
    assert.equal(readObligation('I have to write a reply to the landlord.', who, false)?.content, 'Ana has to write a reply to the landlord');
    assert.equal(readObligation("I've got to fix the gate before the storm.", who, false)?.content, 'Ana has got to fix the gate before the storm');
    assert.equal(readObligation('I gotta pay the electricity bill.', who, false)?.content, 'Ana has got to pay the electricity bill');
    assert.equal(readObligation('I must call the bank.', who, false)?.content, 'Ana must call the bank');
    assert.equal(readObligation('I should clean the oven.', who, false)?.content, 'Ana should clean the oven');
    assert.equal(readObligation('I ought to visit my grandmother.', who, false)?.content, "Ana ought to visit Ana's grandmother");
    assert.equal(readObligation('So I really need to book the hotel for the wedding.', who, false)?.content, 'Ana needs to book the hotel for the wedding');
    assert.equal(readObligation('I have to tidy up your room.', who, false)?.content, "Ana has to tidy up Ben's room");
  });

  test('a time makes an obligation without a particular thing a plan', () => {
    assert.equal(readObligation('I need to go swimming tomorrow.', who, true)?.verb, 'go');
    assert.ok(readObligation('I have to buy milk by Friday.', who, false));
    assert.equal(readObligation('I have to buy milk.', who, false), null);
    assert.ok(readObligation('I need to book a hotel in Rome for March.', who, false), 'a month to come said with "for" or "in"');
    assert.ok(readObligation('I have to finish a report before June.', who, false));
    assert.equal(readObligation('I need to book a hotel in Rome.', who, false), null);
  });

  test('maxims, habits, turns of phrase, states, questions and negations are no plans', () => {
    for (const s of ['I need to sleep more.', 'I should exercise more.', 'I need to relax.', 'I need to drink more water.',
      'I need to take better care of my back.', 'I need to spend more time with my family.', 'I need to find a new job.',
      'I have to take the train to work every morning.', 'I usually have to feed the cat.', 'I should call my brother more often.',
      'I have to say the soup was great.', 'I must admit the film surprised me.', 'I need to tell you about the party.',
      'I should have called the garage.', 'I need to be patient with my son.', 'Do I need to bring the charger?',
      'Should I call the landlord?', 'I must not forget the tickets.', 'I need to keep pushing myself.', 'You need to fix the gate.',
      'Tom has to sell the car.', 'I got to meet the band after the show.', 'I have to try that.', 'I should cook something like that.',
      'I should paint the shed myself, shouldn\'t I.',
      'I should build a treehouse of my own shouldn\'t I. It looks like fun.']) {
      assert.equal(readObligation(s, who, false), null, s);
    }
  });

  test('a leave-taking is no plan, even with a date near; going or leaving somewhere is', () => {
    for (const s of ['Okay, I have to go, my bus is here, talk to you tomorrow.', 'I have to go now, see you on Friday.',
      'So I have to run, speak to you on Monday.', 'I need to head off, talk tomorrow!', 'I have to go.']) {
      assert.equal(readObligation(s, who, true), null, s);
    }
    assert.equal(readObligation('I have to go to the dentist on Monday.', who, true)?.content, 'Ana has to go to the dentist on Monday');
    assert.ok(readObligation('I have to leave for the airport at six tomorrow.', who, true));
    assert.ok(readObligation('I have to run the stall at the fair on Saturday.', who, true));
  });
});

describe('embedded extractor: obligations', () => {
  const x = new EmbeddedExtractor();
  const u = (text: string): Utterance => ({ id: 'u1', sessionId: 's', speakerId: 'p_ana', addresseeIds: ['p_ben'], text,
    startMs: null, endMs: null, time: T, confidence: null, audioRef: null, seq: 1 });
  const names = { p_ana: 'Ana', p_ben: 'Ben' };

  test('an obligation with a thing of its own is a plan with a plan object', async () => {
    const r = await x.extract({ current: u('I need to return the drill to my neighbour.'), previous: [], names });
    assert.equal(r.facts.length, 1, JSON.stringify(r.facts));
    const f = r.facts[0]!;
    assert.equal(f.kind, 'plan');
    assert.equal(f.content, 'Ana needs to return the drill to their neighbour');
    assert.equal(f.planObject?.verb, 'return');
    assert.deepEqual(f.planObject?.objects, ['drill']);
    assert.equal(f.planObject?.shared, undefined);
  });

  test('a dated obligation fills a plan slot', async () => {
    const r = await x.extract({ current: u('I must call the bank tomorrow.'), previous: [], names });
    assert.equal(r.facts[0]?.kind, 'plan');
    assert.equal(r.facts[0]?.slot, 'plan:call:2026-12-02');
  });

  test('a maxim and a habit stay statements', async () => {
    for (const s of ['I need to sleep more.', 'I have to take the bus to work every day.']) {
      const r = await x.extract({ current: u(s), previous: [], names });
      assert.ok(r.facts.length > 0 && r.facts.every((f) => f.kind === 'statement'), `${s}: ${JSON.stringify(r.facts)}`);
    }
  });

  test('"I need you to…" stays a request', async () => {
    const r = await x.extract({ current: u('I need you to sign the form.'), previous: [], names });
    assert.equal(r.facts[0]?.kind, 'request');
  });
});

describe('consolidation: an obligation is closed by its outcome (real USE-lite, real SQLite)', () => {
  const tenant = 't_oblige';
  let fx: TurnSessions;
  let memory: TurnSessions['memory'];
  let ana: string;
  let ben: string;
  /** One utterance in its own session (a week apart), through the handler; its ops. */
  const say = (speaker: string, addressee: string, text: string): Promise<MemoryOp[]> => fx.say(speaker, addressee, text);

  before(async () => {
    fx = await turnSessions(tenant, ['Ana', 'Ben'], T, 7 * 86_400_000);
    ({ memory } = fx);
    ({ Ana: ana, Ben: ben } = fx.people as { Ana: string; Ben: string });
  });
  after(() => fx.close());

  test('"I need to renew my passport", then "I renewed my passport": the plan is superseded by the outcome', async () => {
    const plan = await say(ana, ben, 'I need to renew my passport.');
    assert.deepEqual(plan.map((o) => o.op), ['ADD']);
    const id = plan[0]!.memory_id;
    assert.equal((await memory.getFact(tenant, id))?.kind, 'plan');
    const done = await say(ana, ben, 'I renewed my passport.');
    assert.deepEqual(done.map((o) => o.op), ['UPDATE']);
    const closed = await memory.getFact(tenant, id);
    assert.equal(closed?.supersededBy, done[0]?.memory_id);
    assert.notEqual(closed?.validTo, null, 'the plan is no longer open');
  });

  test('a cancellation deletes an obligation; an outcome about something else leaves one open', async () => {
    const sell = await say(ana, ben, "I've got to sell my old piano.");
    const keep = await say(ana, ben, 'I have to repaint the garden shed.');
    const other = await say(ana, ben, 'I finished the jigsaw puzzle.');
    assert.ok(!other.some((o) => o.op === 'UPDATE' || o.op === 'DELETE'), JSON.stringify(other));
    const off = await say(ana, ben, "I'm not going to sell the piano after all.");
    assert.deepEqual(off.map((o) => [o.op, o.memory_id]), [['DELETE', sell[0]!.memory_id]]);
    assert.equal((await memory.getFact(tenant, keep[0]!.memory_id))?.validTo, null, 'the shed is still to be repainted');
  });
});
