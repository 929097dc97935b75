/**
 * Rules 93 (revfix; review of rules 87–88, review87): a move naming one booking never moves another; a move at another
 * hour of the asked day keeps who the booking is with; "<noun> for <hour> instead" about something else leaves the
 * booking; a statement or a request with a reason after a call is still said to whom it calls. Each failed on main
 * 863c26dc (what it did there in the comment).
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { splitPlanClauses } from '../../../pipelines/memory/clause-split.js';
import { wink } from '../../../pipelines/wink.js';
import { factsSaid } from '../../helpers/extract-said.js';
import { memoryFixture, openFactsAfter, type MemoryFixture } from '../../helpers/memory-fixture.js';

const MONDAY = '2026-11-30T09:00:00.000Z';
const LATER = '2026-11-30T09:01:00.000Z';

describe('rules 93: a move names the booking it moves (review87 F1, F2, F3)', () => {
  const fixtures: MemoryFixture[] = [];
  after(async () => {
    for (const f of fixtures) await f.close();
  });
  /** The open facts after the turns, each [speaker, text], said between Jess and Maria Lopez in one session. */
  const openAfter = async (tenant: string, turns: [speaker: 'Jess' | 'Maria Lopez', text: string][]): Promise<string[]> => {
    const f = await memoryFixture(tenant, ['Jess', 'Maria Lopez']);
    fixtures.push(f);
    for (const [i, [speaker, text]] of turns.entries()) {
      await f.say('s1', speaker, [speaker === 'Jess' ? 'Maria Lopez' : 'Jess'], text, i === 0 ? MONDAY : LATER);
    }
    return (await f.memory.listFacts(tenant)).filter((x) => x.validTo === null).map((x) => x.content);
  };
  const PATEL: [speaker: 'Jess', text: string] = ['Jess', 'You are booked with Dr. Patel on Tuesday at 10am.'];

  test('"I moved your appointment with Dr. Kim to Friday." leaves the booking with Dr. Patel', async () => {
    // On main: only "Maria Lopez is booked with Dr. Patel on Friday 4 December 2026 at 10am".
    const open = await openAfter('t-93-kim', [PATEL, ['Jess', 'I moved your appointment with Dr. Kim to Friday.']]);
    assert.ok(open.includes('Maria Lopez is booked with Dr. Patel on Tuesday 1 December 2026 at 10am'), JSON.stringify(open));
    assert.ok(open.some((c) => c.includes('Dr. Kim') && c.includes('Friday 4 December 2026')), JSON.stringify(open));
  });

  test('"your appointment" with no one named still moves the one booking', async () => {
    const open = await openAfter('t-93-your', [PATEL, ['Jess', 'I moved your appointment to Friday.']]);
    assert.ok(!open.some((c) => c.includes('Tuesday 1 December')), JSON.stringify(open));
    assert.ok(open.some((c) => c.includes('Dr. Patel') && c.includes('Friday 4 December 2026')), JSON.stringify(open));
  });

  test('a fact holding two bookings: the move never rewrites the other one\'s day', async () => {
    // On main: "Maria Lopez is booked with Dr. Patel on Friday 4 December 2026 at 10am and with Dr. Kim on Wednesday …".
    const open = await openAfter('t-93-two', [['Jess', 'You are booked with Dr. Patel on Tuesday at 10am and with Dr. Kim on Wednesday at 11am.'],
      ['Jess', 'I moved your appointment with Dr. Kim to Friday.']]);
    assert.ok(!open.some((c) => /Dr\. Patel on Friday/.test(c)), JSON.stringify(open));
    assert.ok(open.some((c) => /Dr\. Patel on Tuesday 1 December 2026 at 10am/.test(c)), JSON.stringify(open));
  });

  test('the receptionist confirms another hour of the asked day: the booking keeps whom it is with', async () => {
    // On main: only "Jess moved it to Thursday 3 December 2026 at 4pm" (Dr. Patel lost).
    for (const [i, done] of ['Okay, I moved it to Thursday at 4pm.', 'Done, moved to Thursday at 4pm.'].entries()) {
      const open = await openAfter(`t-93-hour-${i}`, [['Jess', 'Great, you are booked with Dr. Patel on Tuesday at 10am.'],
        ['Maria Lopez', 'Can we move it to Thursday at 3pm instead?'], ['Jess', done]]);
      assert.ok(open.some((c) => c.includes('Dr. Patel') && c.includes('Thursday 3 December 2026') && c.endsWith('at 4pm')), `${done}: ${JSON.stringify(open)}`);
      assert.ok(!open.some((c) => c.includes('Tuesday 1 December')), `${done}: ${JSON.stringify(open)}`);
    }
  });
});

describe('rules 93: "<noun> for <hour> instead" about something else leaves the booking (review87 F6)', () => {
  const said = openFactsAfter('2026-12-07T10:00:00.000Z', '2026-12-07T10:01:00.000Z');
  test('"I\'ll push my call / book a meeting / make the kids dinner for <hour> instead"', async () => {
    // On main: the dentist appointment / haircut moved to the new hour and the call, meeting, dinner lost.
    for (const [i, [first, then, kept, other]] of ([
      ['My dentist appointment is Tuesday at 5pm.', "I'll push my call for 4pm instead.", "Maria's dentist appointment is on Tuesday 8 December 2026 at 5pm", /call/],
      ['My dentist appointment is Tuesday at 5pm.', "I'll book a meeting for 9am instead.", "Maria's dentist appointment is on Tuesday 8 December 2026 at 5pm", /meeting/],
      ['I have a haircut on Thursday at 4pm.', "I'll make the kids dinner for 6pm instead.", 'Maria has a haircut on Thursday 10 December 2026 at 4pm', /dinner/],
    ] as const).entries()) {
      const open = await said(`t-93-for-${i}`, [first, then]);
      assert.ok(open.includes(kept), `${then}: ${JSON.stringify(open)}`);
      assert.ok(open.some((c) => other.test(c)), `${then}: ${JSON.stringify(open)}`);
    }
  });

  test('the booking named before "for <hour> instead" still moves', async () => {
    const open = await said('t-93-for-it', ['My dentist appointment is Tuesday at 5pm', 'Can you change the appointment for 3pm instead?']);
    assert.ok(open.some((c) => c.includes('Tuesday 8 December 2026') && c.endsWith('at 3pm')), JSON.stringify(open));
  });
});

describe('rules 93: a later sentence calling someone is said to them (review87 F7, F12)', () => {
  const WHEN = '2026-12-07T10:00:00.000Z';
  /** The facts of `text` said by Tom to Ana, Ben and Chen taking part. */
  const told = async (text: string): Promise<ExtractedFact[]> => factsSaid(text, WHEN, ['tom', 'Tom'], ['ana', 'Ana'], [['ben', 'Ben'], ['chen', 'Chen']]);
  const show = (facts: readonly ExtractedFact[]): string => JSON.stringify(facts.map((f) => [f.content, f.addresseeIds]));

  test('a statement told to the one called: said to them, the name not glued in', async () => {
    // On main: "Chen, the report is due on Friday 11 December 2026" said to Ana.
    for (const [s, who, want] of [
      ['Thanks. Chen, the report is due Friday.', 'chen', /^The report is due on Friday 11 December 2026/],
      ['OK. Ben, the client wants the slides by Thursday.', 'ben', /^The client wants the slides by Thursday 10 December 2026/],
      ['Great. Chen, tomorrow works for me.', 'chen', /^(?:Tomorrow|Tuesday 8 December 2026) works for Tom/],
    ] as const) {
      const facts = await told(s);
      const f = facts.find((x) => want.test(x.content));
      assert.ok(f, `${s}: ${show(facts)}`);
      assert.deepEqual(f.addresseeIds, [who], `${s}: ${show(facts)}`);
    }
  });

  test('a request with a reason after a second comma: asked of whom it calls', async () => {
    // On main: "Tom asked Ana to update the slides…" and the like, each said to Ana.
    for (const [s, who] of [
      ['Thanks. Ben, please update the slides, Marcus wants them by Friday.', 'Ben'],
      ['Thanks. Chen, can you fix the tests, builds are failing.', 'Chen'],
      ['Thanks. Chen, could you call the client, James is waiting.', 'Chen'],
      ['Thanks. Ben, please send the invoice, Charles needs it today.', 'Ben'],
      ['Thanks. Chen, can you check the logs, users are complaining.', 'Chen'],
    ] as const) {
      const facts = await told(s);
      assert.ok(facts.some((f) => f.content.startsWith(`Tom asked ${who} to `)), `${s}: ${show(facts)}`);
      assert.ok(!facts.some((f) => f.content.startsWith('Tom asked Ana')), `${s}: ${show(facts)}`);
    }
  });

  test('a name with an aside before its own predicate is still no call (rules 88)', async () => {
    const facts = await told('I met Sarah yesterday. Sarah, my sister, starts her new job on Monday.');
    assert.ok(facts.some((f) => /^Sarah, Tom's sister, starts her new job/.test(f.content)), show(facts));
  });
});

describe('rules 93: a value of one\'s own after a subordinate clause is no sentence glued to it (review87 F4; rules 95)', () => {
  test('"Since I started at Google, my new manager is Sam.": the act and the value apart, no fragment stored', async () => {
    // On main 863c26dc: "Since I started at Google." and "My new manager is Sam." apart, the fragment stored as where
    // Maria works; rules 93 glued the manager to it. Rules 95 reads the act without its subordinator.
    for (const [s, act, value] of [['Since I started at Google, my new manager is Sam.', 'I started at Google.', 'My new manager is Sam.'],
      ['Because I moved to Denver, my new commute is an hour.', 'I moved to Denver.', 'My new commute is an hour.'],
      ['When I moved to Austin, my new address is 5 Oak Lane.', 'I moved to Austin.', 'My new address is 5 Oak Lane.']] as const) {
      assert.deepEqual(splitPlanClauses(wink(), s), [act, value]);
    }
    const facts = (await factsSaid('Since I started at Google, my new manager is Sam.', MONDAY, ['maria', 'Maria Lopez'], ['jess', 'Jess'])).map((f) => f.content);
    assert.ok(facts.some((c) => c.includes('manager is Sam') && !c.includes('Google')), JSON.stringify(facts));
    assert.ok(!facts.some((c) => /^since\b/i.test(c)), JSON.stringify(facts));
  });

  test('a clause of its own before the value still splits (rules 87)', () => {
    assert.deepEqual(splitPlanClauses(wink(), 'I just moved to Oakland, my new number is 555 0123.'),
      ['I just moved to Oakland.', 'My new number is 555 0123.']);
  });
});
