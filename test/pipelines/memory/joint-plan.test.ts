import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Utterance } from '../../../graph/types.js';
import { EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import { readJointPlan } from '../../../pipelines/memory/joint-plan.js';
import { consolidationLockKeys, type MemoryOp } from '../../../pipelines/memory/consolidate.js';
import { turnSessions, type TurnSessions } from '../../helpers/turn-sessions.js';

const who = { speaker: 'Ana', addressees: ['Ben'] };
const T = '2026-12-01T10:00:00.000Z'; // a Tuesday

describe('readJointPlan', () => {
  test('"we", "let\'s" and "shall we" plans name everyone they are for', () => {
    assert.deepEqual(readJointPlan("We'll rent a canoe at the marina.", who, false), { content: 'Ana and Ben will rent a canoe at the marina', verb: 'rent', shared: true });
    assert.equal(readJointPlan("We're going to redo the bathroom tiles.", who, false)?.content, 'Ana and Ben are going to redo the bathroom tiles');
    assert.equal(readJointPlan('We plan to cycle to the old mill.', who, false)?.content, 'Ana and Ben plan to cycle to the old mill');
    assert.equal(readJointPlan("Let's try the ramen bar after work.", who, false)?.content, 'Ana and Ben plan to try the ramen bar after work');
    assert.equal(readJointPlan('Shall we visit the flea market?', who, false)?.content, 'Ana and Ben could visit the flea market');
    assert.equal(readJointPlan("Let's not forget to water the plants.", who, false)?.content, 'Ana and Ben will water the plants');
    assert.equal(readJointPlan("We're all going to the quiz night.", { speaker: 'Ana', addressees: ['Ben', 'Cy'] }, false)?.content,
      'Ana and the group are going to the quiz night');
  });

  test('a decision told to one person with no time to come is the speaker\'s own people\'s, not shared; with one, or to a group, it is everyone\'s', () => {
    assert.deepEqual(readJointPlan("We've decided to repaint your study.", who, false),
      { content: "Ana and others have decided to repaint Ben's study", verb: 'repaint', shared: false });
    assert.equal(readJointPlan('We decided to do doggy playdates, which is awesome considering we all need friends for our pets.', who, false)?.content,
      "Ana and others decided to do doggy playdates, which is awesome considering Ana and others all need friends for their pets");
    assert.deepEqual(readJointPlan("We've decided to sell the old car next month.", who, true),
      { content: 'Ana and Ben have decided to sell the old car next month', verb: 'sell', shared: true });
    assert.equal(readJointPlan("We're flying to Madrid on the 12th.", who, true)?.shared, true);
    assert.equal(readJointPlan('We decided last week to sell the car on Friday.', who, true)?.shared ?? false, false);
    assert.equal(readJointPlan('We decided to do doggy playdates.', { speaker: 'Ana', addressees: ['Ben', 'Cy'] }, false)?.shared, true);
  });

  test('a time said first is written last', () => {
    assert.equal(readJointPlan("Tomorrow we're going to fix the gate.", who, true)?.content, 'Ana and Ben are going to fix the gate tomorrow');
    assert.equal(readJointPlan("On Sunday, let's bake bread.", who, true)?.content, 'Ana and Ben plan to bake bread on Sunday');
  });

  test('habits, questions, maxims, negations and idle talk are no plans', () => {
    for (const s of ['We always walk the dog after dinner.', 'Should we sell the piano?', 'What should we cook tonight?',
      'We should all read more.', "We won't make it to the concert.", "We'll see.", "Let's face it, the plan was bad.",
      "We're having a great time.", 'We went bowling on Friday.', 'We need to relax.', "Let's not argue about it."]) {
      assert.equal(readJointPlan(s, who, false), null, s);
    }
  });

  test('"we should" or a progressive is a plan with a time or a thing of its own', () => {
    assert.ok(readJointPlan('We should book the dentist.', who, false));
    assert.ok(readJointPlan('We should go swimming tomorrow.', who, true));
    assert.equal(readJointPlan('We should go swimming.', who, false), null);
    assert.ok(readJointPlan("We're driving to the coast next week.", who, true));
    assert.equal(readJointPlan("We're driving to the coast.", who, false), null);
  });

  test('farewells and leave-takings are no plans; a talk with a topic, a meeting with a place are', () => {
    for (const s of ["Let's chat soon!", "Let's catch up later, Ben.", 'Okay, let\'s speak later then.', "Great, let's talk again soon.",
      "Let's keep in touch.", 'We have to go now, the kids are tired.', "We need to run, let's talk tomorrow."]) {
      assert.equal(readJointPlan(s, who, /tomorrow/.test(s)), null, s);
    }
    assert.equal(readJointPlan("Let's talk to the landlord on Monday.", who, true)?.content, 'Ana and Ben plan to talk to the landlord on Monday');
    assert.ok(readJointPlan("Let's catch up over dinner at Luigi's on Friday.", who, true));
    assert.ok(readJointPlan('We have to leave for the station at seven tomorrow.', who, true));
  });

  test('the cues shared with obligations: habits said with "daily" / "every night", a bare "that", a thing of theirs', () => {
    for (const s of ["We'll water the tomatoes daily.", "We'll walk the dog every night.", "We'll tidy the shed regularly.",
      'We should try that.']) {
      assert.equal(readJointPlan(s, who, false), null, s);
    }
    assert.equal(readJointPlan('We need to fix their fence.', who, false)?.content, 'Ana and Ben need to fix their fence');
    assert.ok(readJointPlan('We should try that bakery.', who, false));
  });
});

describe('readJointPlan: encouragement and wishes are no plans', () => {
  test('carrying on, feelings, cheers and abstract goals stay statements', () => {
    for (const s of ["Let's keep pushing forward!", "Let's keep cheering each other on.", "We'll keep at it.", "Let's continue to share the load.",
      "We'll make a real difference together.", "Let's chase our dreams this year.", "We'll find some good people.", "Let's do this!",
      "Let's go for it, Ben!", "We'll get there.", "We'll make it.", "Let's cherish these days.", "Let's make the party unforgettable.",
      "Let's work together on this.", "Let's spread some joy tomorrow.", "Let's boogie!", "We'll have to check some out.",
      "Let's hope the weather holds.", "We'll always have the summer.", "Let's make sure we make progress next month."]) {
      assert.equal(readJointPlan(s, who, /tomorrow|next month|this year/.test(s)), null, s);
    }
  });

  test('an activity with a time, a place, a thing or an event of its own stays a plan', () => {
    for (const [s, dated] of [["Let's grab lunch on Thursday.", true], ["We're going hiking in August.", true], ["Let's go camping.", false],
      ["Let's book a table at the noodle place.", false], ["We'll repaint the fence.", false], ["Let's keep the old sofa.", false],
      ["Let's make sure we book the van.", false], ["Let's talk to the landlord about the boiler.", false], ['We should plan a road trip soon.', true],
      ["Let's go to the pottery class.", false], ["We're all going to the quiz night.", false]] as const) {
      assert.ok(readJointPlan(s, who, dated), s);
    }
  });

  test('a name said to at the end is not part of the plan', () => {
    assert.equal(readJointPlan("Let's rent a boat on Sunday, Ben.", who, true)?.content, 'Ana and Ben plan to rent a boat on Sunday');
  });

  test('"let\'s plan a hike" is a plan to hike, said once', () => {
    assert.equal(readJointPlan("Let's plan a hike.", who, false)?.content, 'Ana and Ben will plan a hike');
    assert.equal(readJointPlan('We plan to plan the party.', who, false)?.content, 'Ana and Ben will plan the party');
    assert.equal(readJointPlan("We're planning to plan the party.", who, false)?.content, 'Ana and Ben will plan the party');
  });

  test('going to a place is going, not a verb "the"', () => {
    assert.equal(readJointPlan("We're going to the lake house in July.", who, true)?.verb, 'go');
    assert.equal(readJointPlan("We're going to Lisbon.", who, false)?.verb, 'go');
    assert.equal(readJointPlan("We're going to paint the hall.", who, false)?.verb, 'paint');
  });
});

describe('embedded extractor: joint plans', () => {
  const x = new EmbeddedExtractor();
  const u = (text: string): Utterance => ({ id: 'u1', sessionId: 's', speakerId: 'p_ana', addresseeIds: ['p_ben'], text,
    startMs: null, endMs: null, time: T, confidence: null, audioRef: null, seq: 1 });

  test('a "we" plan is a plan of the speaker with a shared plan object', async () => {
    const r = await x.extract({ current: u("We're going to build a treehouse for the kids next month."), previous: [], names: { p_ana: 'Ana', p_ben: 'Ben' } });
    assert.equal(r.facts.length, 1, JSON.stringify(r.facts));
    const f = r.facts[0]!;
    assert.equal(f.kind, 'plan');
    assert.equal(f.subjectId, 'p_ana');
    assert.match(f.content, /^Ana and Ben are going to build a treehouse for the kids/);
    assert.equal(f.planObject?.verb, 'build');
    assert.deepEqual(f.planObject?.objects, ['treehouse']);
    assert.equal(f.planObject?.shared, true);
  });

  test('a month after "in" is written once, and the slot is keyed on going', async () => {
    const r = await x.extract({ current: u("We're going to the lake house in July."), previous: [], names: { p_ana: 'Ana', p_ben: 'Ben' } });
    assert.equal(r.facts[0]?.content, 'Ana and Ben are going to the lake house in July 2027');
    assert.equal(r.facts[0]?.slot, 'plan:go:2027-07');
    const own = await x.extract({ current: u("I'm flying to Oslo in March."), previous: [], names: { p_ana: 'Ana', p_ben: 'Ben' } });
    assert.match(own.facts[0]?.content ?? '', /to Oslo in March 2027$/);
  });

  test('encouragement said with "let\'s" is no plan', async () => {
    const r = await x.extract({ current: u("Let's keep motivating each other and make a difference together!"), previous: [], names: { p_ana: 'Ana', p_ben: 'Ben' } });
    assert.ok(!r.facts.some((f) => f.kind === 'plan'), JSON.stringify(r.facts));
  });

  test('a plan said with "I" is not shared', async () => {
    const r = await x.extract({ current: u("I'm going to build a treehouse next month."), previous: [], names: { p_ana: 'Ana', p_ben: 'Ben' } });
    assert.equal(r.facts[0]?.kind, 'commitment');
    assert.equal(r.facts[0]?.planObject?.shared, undefined);
  });

  test('a habit said with "we" stays a statement', async () => {
    const r = await x.extract({ current: u('We usually build a snowman every winter.'), previous: [], names: { p_ana: 'Ana', p_ben: 'Ben' } });
    assert.ok(!r.facts.some((f) => f.kind === 'plan'), JSON.stringify(r.facts));
  });
});

test('a settling turn locks its addressees too: the plan may be one they share', () => {
  const fact = { content: 'x', kind: 'statement' as const, subjectId: 'p_ben', speakerId: 'p_ben', addresseeIds: ['p_ana'], slot: null, value: null,
    retraction: false, confidence: 0.6, referIds: ['u'] };
  assert.deepEqual(consolidationLockKeys('t', 's', { facts: [{ ...fact, settles: 'cancelled' }], profileUpdates: [] }).sort(),
    ['consolidate:t:session:s', 'consolidate:t:subject:p_ana', 'consolidate:t:subject:p_ben']);
  assert.deepEqual(consolidationLockKeys('t', 's', { facts: [fact], profileUpdates: [] }), ['consolidate:t:subject:p_ben']);
});

describe('consolidation: a joint plan is closed by either of its people (real USE-lite, real SQLite)', () => {
  const tenant = 't_joint';
  let fx: TurnSessions;
  let memory: TurnSessions['memory'];
  let ana: string;
  let ben: string;
  /** One utterance in its own session (a day apart), through the handler; its ops. */
  const say = (speaker: string, addressee: string, text: string): Promise<MemoryOp[]> => fx.say(speaker, addressee, text);

  before(async () => {
    fx = await turnSessions(tenant, ['Ana', 'Ben'], T, 86_400_000);
    ({ memory } = fx);
    ({ Ana: ana, Ben: ben } = fx.people as { Ana: string; Ben: string });
  });
  after(() => fx.close());

  test('a "we" plan cancelled by the other person, in another session, is cancelled', async () => {
    const plan = await say(ana, ben, "We'll go kayaking on the river next weekend.");
    assert.deepEqual(plan.map((o) => o.op), ['ADD']);
    const id = plan[0]!.memory_id;
    assert.equal((await memory.getFact(tenant, id))?.kind, 'plan');
    const off = await say(ben, ana, 'We called off the kayaking, the river is flooded.');
    assert.deepEqual(off.map((o) => [o.op, o.memory_id]), [['DELETE', id]]);
    const closed = await memory.getFact(tenant, id);
    assert.notEqual(closed?.validTo, null, 'the plan is no longer open');
  });

  test('an outcome by the speaker settles their own "we" plan', async () => {
    const plan = await say(ana, ben, "Let's clean out the shed on Saturday.");
    const id = plan[0]!.memory_id;
    const done = await say(ana, ben, 'We finished cleaning out the shed.');
    assert.deepEqual(done.map((o) => [o.op]), [['UPDATE']]);
    assert.equal((await memory.getFact(tenant, id))?.supersededBy, done[0]?.memory_id);
  });

  test('a dated "we" decision still settles the proposal it chooses between', async () => {
    const proposal = await say(ana, ben, 'We could host the reunion at the boathouse in March.');
    const id = proposal[0]!.memory_id;
    const decided = await say(ana, ben, 'We decided to host the reunion at the old school on Saturday.');
    assert.deepEqual(decided.map((o) => o.op), ['UPDATE']);
    assert.equal((await memory.getFact(tenant, id))?.supersededBy, decided[0]?.memory_id);
    assert.equal((await memory.getFact(tenant, decided[0]!.memory_id))?.kind, 'plan', 'the decision is a plan of its own');
  });

  test('a plan of the speaker\'s own is not closed by the addressee\'s outcome in another session', async () => {
    const plan = await say(ana, ben, "I'm going to sell my old guitar next month.");
    const id = plan[0]!.memory_id;
    await say(ben, ana, 'I sold the old guitar.');
    assert.equal((await memory.getFact(tenant, id))?.validTo, null, 'still open: Ben sold a guitar of his own');
  });
});
