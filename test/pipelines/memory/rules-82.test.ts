/**
 * Rules 82 (issue #16 item 2, review of rules 81): a bare new hour is read with the booking under discussion's own thing;
 * "at about 4pm instead" after a clause's own action is its own plan; "let's meet at 7 instead" retimes the meeting; a
 * typed name closing a question calls the listener. Each fails on main 7b76b708 (what it did there in the comment).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { eveningOuting, hourInstead } from '../../../pipelines/memory/clock-time.js';
import { eveningBooked, readPlanObject } from '../../../pipelines/memory/plan-object.js';
import { wink } from '../../../pipelines/wink.js';
import { withoutVocative } from '../../../pipelines/memory/called-listener.js';
import { edgeVocatives, findVocatives } from '../../../pipelines/speaker/vocatives.js';
import { openFactsAfter } from '../../helpers/memory-fixture.js';
import { factsSaid } from '../../helpers/extract-said.js';

const MONDAY = '2026-12-07T10:00:00.000Z';
const LATER = '2026-12-07T10:01:00.000Z';

/** The open facts' texts of `tenant` after `turns` (speaker Maria, to Jo, in one session). */
const said = openFactsAfter(MONDAY, LATER);

/** The facts of `text` said alone by Maria to Ben. */
const alone = async (text: string): Promise<ExtractedFact[]> => factsSaid(text, MONDAY, ['maria', 'Maria'], ['ben', 'Ben']);

const LUIGI = "Can we get a table for four at Luigi's on Friday at 8?";
const DENTIST = 'My dentist appointment is Tuesday at 5';

describe('rules 82: a bare new hour with a new day is read with the booking it moves (item 1)', () => {
  test('"Let\'s do Saturday at 7 instead" after a table at Luigi\'s on Friday at 8 is Saturday 7pm', async () => {
    // On main: "…on Saturday 12 December 2026 at 7am".
    const current = await said('t-82-luigi', [LUIGI, "Let's do Saturday at 7 instead"]);
    assert.ok(current.some((c) => /Luigi's on Saturday 12 December 2026 at 7pm$/.test(c)), JSON.stringify(current));
    assert.ok(!current.some((c) => /7am/.test(c)), JSON.stringify(current));
  });

  test('a booking of business hours keeps them; an hour said with its half is as said', async () => {
    for (const [i, [turn, at]] of [["Let's do Wednesday at 10 instead", 'Wednesday 9 December 2026 at 10am'],
      ["Let's do Wednesday at 9 instead", 'Wednesday 9 December 2026 at 9am'],
      ["Let's do Wednesday at 3 instead", 'Wednesday 9 December 2026 at 3pm']].entries()) {
      const current = await said(`t-82-dentist-${i}`, [DENTIST, turn!]);
      assert.ok(current.includes(`Maria's dentist appointment is on ${at}`), `${turn}: ${JSON.stringify(current)}`);
    }
    const current = await said('t-82-luigi-am', [LUIGI, "Let's do Saturday at 11am instead"]);
    assert.ok(current.some((c) => /Luigi's on Saturday 12 December 2026 at 11am$/.test(c)), JSON.stringify(current));
  });

  test('a new hour alone still reads the nearest half; a dentist stays out of the night', async () => {
    const current = await said('t-82-dentist-10', [DENTIST, 'How about 10 instead?']);
    assert.ok(current.includes("Maria's dentist appointment is on Tuesday 8 December 2026 at 10am"), JSON.stringify(current));
  });
});

describe('rules 82: one reading of the evening\'s outing, in the words and in the booked thing (item 2)', () => {
  test('what plan-object.ts reads as the booked thing agrees with the words', () => {
    // On main: no `eveningBooked` (plan-object.ts read no evening's outing; retimed.ts read the plan's words alone).
    const evening = ["I'm booking a table for four at Luigi's on Friday at 8", 'We are having dinner at Luigi\'s on Saturday at 7',
      'We are going to a concert on Friday at 9', 'We are going for drinks on Thursday at 10', 'We are going to the Christmas party on Friday at 8'];
    const business = ['I have a table tennis match on Friday at 10', 'I need to move the tables on Friday at 10',
      'I have a meeting about the Christmas party on Friday at 10', "I'm dropping off the film at the photo lab on Friday at 9",
      'I am booking a table for brunch on Sunday at 10', 'My dentist appointment is Tuesday at 5', 'I need to book a cleaning on Friday at 10'];
    for (const [s, want] of [...evening.map((s) => [s, true] as const), ...business.map((s) => [s, false] as const)]) {
      const o = readPlanObject(wink(), s);
      assert.ok(o, s);
      assert.deepEqual([eveningBooked(o), eveningOuting(s)], [want, want], `${s}: ${JSON.stringify(o)}`);
    }
  });
});

describe('rules 82: "at about 4pm instead" after a clause\'s own action (item 3)', () => {
  test('"I\'ll leave work at about 4pm instead" leaves the dentist appointment', async () => {
    // On main: "Maria's dentist appointment is on Tuesday 8 December 2026 at 4pm", leaving work gone.
    const current = await said('t-82-leave', [DENTIST, "I'll leave work at about 4pm instead."]);
    assert.ok(current.includes("Maria's dentist appointment is on Tuesday 8 December 2026 at 5pm"), JSON.stringify(current));
    assert.ok(current.some((c) => /leave work/.test(c)), JSON.stringify(current));
    assert.equal(hourInstead("I'll leave work at about 4pm instead."), null);
    assert.equal(hourInstead("I'll leave work for 4pm instead."), null);
  });

  test('"Can we move it to about 4pm instead?", "let\'s make it for 4pm instead" still retime', async () => {
    for (const [i, turn] of ['Can we move it to about 4pm instead?', "Let's make it for 4pm instead.", "Let's make it about 4pm instead."].entries()) {
      assert.ok(hourInstead(turn), turn);
      const current = await said(`t-82-move-${i}`, [DENTIST, turn]);
      assert.ok(current.includes("Maria's dentist appointment is on Tuesday 8 December 2026 at 4pm"), `${turn}: ${JSON.stringify(current)}`);
    }
  });
});

describe('rules 82: "let\'s meet at 7 instead" retimes the meeting (item 4)', () => {
  test('after "let\'s meet at 6 on Friday" the meeting is on Friday at 7pm', async () => {
    // On main: ["Maria and Jo plan to meet on Tuesday 8 December 2026 at 7am instead"], the meeting replaced.
    const current = await said('t-82-meet', ["Let's meet at 6 on Friday.", "Let's meet at 7 instead."]);
    assert.ok(current.includes('Maria and Jo plan to meet on Friday 11 December 2026 at 7pm'), JSON.stringify(current));
    assert.ok(!current.some((c) => /6pm|Monday/.test(c)), JSON.stringify(current));
  });

  test('"let\'s go at 7 instead", naming only a time, moves the outing, its day kept', async () => {
    // On main: ["Maria and Jo are going to see a film on Tuesday 8 December 2026 at 7am"] (moved to chrono's tomorrow).
    const current = await said('t-82-go', ["We're going to see a film on Friday at 8.", "Let's go at 7 instead."]);
    assert.deepEqual(current, ['Maria and Jo are going to see a film on Friday 11 December 2026 at 7pm']);
  });

  test('another action at the new hour is still its own plan', async () => {
    const current = await said('t-82-meet-own', ["Let's meet at 6 on Friday.", "I'll pick the kids up at 5 instead."]);
    assert.ok(current.includes('Maria and Jo plan to meet on Friday 11 December 2026 at 6pm'), JSON.stringify(current));
  });
});

describe('rules 82: a typed name closing a question calls the listener (item 5)', () => {
  test('"Can you send me the invoice tomorrow Ben?" asks Ben; the fact does not end with "Ben"', async () => {
    // On main: "Maria asked Ben to send Maria the invoice on Tuesday 8 December 2026 Ben".
    assert.deepEqual(findVocatives('Can you send me the invoice tomorrow Ben?'), ['Ben']);
    assert.equal(edgeVocatives('Can you send me the invoice tomorrow Ben?', ['Ben'])[0]?.at, 'closing');
    assert.equal(withoutVocative('Can you send me the invoice tomorrow Ben?', ['Ben']), 'Can you send me the invoice tomorrow?');
    const facts = await alone('Can you send me the invoice tomorrow Ben?');
    assert.ok(facts.length > 0 && facts.every((f) => !/\bBen\W*$/.test(f.content)), JSON.stringify(facts.map((f) => f.content)));
    assert.ok(facts.some((f) => /invoice/.test(f.content)), JSON.stringify(facts.map((f) => f.content)));
  });

  test('"Did you see Ben?", "Is it Ben?" keep Ben', () => {
    for (const text of ['Did you see Ben?', 'Is it Ben?', 'Are you Ben?', 'Are you free this Sunday?']) {
      assert.deepEqual(findVocatives(text), [], text);
      assert.deepEqual(edgeVocatives(text, ['Ben']), [], text);
      assert.equal(withoutVocative(text, ['Ben']), text);
    }
  });
});
