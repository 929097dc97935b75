/**
 * Rules 109 (cancel2): cancellations still missed or misread after rules 106. Two turns or more: plans, then the
 * cancellation; the plan it is of closes, and no other. Each test with an "On main" comment failed on main 13d1d6cc (what it
 * did there in the comment); the others guard what must stay as it was.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { factsSaid } from '../../helpers/extract-said.js';
import { allFactsAfter } from '../../helpers/memory-fixture.js';
import { assertCloses, openAndClosed } from '../../helpers/open-closed.js';

const MONDAY = '2026-12-07T10:00:00.000Z';
const CONCERT = 'I am going to a concert on Friday.';
const TOMS = 'Tom is playing a concert on Friday.';

const split = openAndClosed;
const closes = assertCloses;

describe('rules 109: "is off", "called off", "had to cancel" close the plan', () => {
  const factsAfter = allFactsAfter(MONDAY);

  test('the concert or the lunch closes', async () => {
    // On main: each left the plan open ("is off" cancelled nothing; "called off", "had to cancel" fell under the cosine).
    for (const [i, [first, said, plan]] of ([
      [CONCERT, 'The concert is off.', /^Maria is going to a concert on Friday/],
      [CONCERT, 'The concert was called off.', /^Maria is going to a concert on Friday/],
      [CONCERT, 'Unfortunately they had to cancel the concert.', /^Maria is going to a concert on Friday/],
      [TOMS, "Tom's concert is off.", /^Tom is playing a concert on Friday/],
      [TOMS, 'The concert is off.', /^Tom is playing a concert on Friday/],
      ["I'm having lunch with Tom on Thursday.", 'Lunch with Tom is off.', /^Maria is having lunch with Tom on Thursday/],
      ["I'm going to Tom's party on Saturday.", "The party's off.", /^Maria is going to Tom's party on Saturday/],
    ] as [string, string, RegExp][]).entries()) {
      closes(split(await factsAfter(`t-109-off-${i}`, [first, said])), plan, said);
    }
  });

  test('"The light is off", "I\'m off on Friday", "Take the day off" close nothing', async () => {
    for (const [i, said] of ['The light is off.', "I'm off on Friday.", 'Take the day off.', 'The concert is off to a great start.'].entries()) {
      const { open, closed } = split(await factsAfter(`t-109-not-off-${i}`, [CONCERT, said]));
      assert.ok(open.some((c) => /^Maria is going to a concert on Friday/.test(c)), `${said}: ${JSON.stringify({ open, closed })}`);
      assert.deepEqual(closed, [], said);
    }
  });
});

describe('rules 109: a cancellation told in reported speech closes the teller\'s plan', () => {
  const factsAfter = allFactsAfter(MONDAY);

  test('"Tom said his concert got cancelled" closes Tom\'s concert and leaves Maria\'s', async () => {
    // On main: both plans left open (the reporting verb "say" read as the cancellation's action).
    for (const [i, turns] of [
      [CONCERT, 'Tom is going to a concert on Saturday.', 'Tom said his concert got cancelled.'],
      ['Tom is going to a concert on Saturday.', CONCERT, 'Tom told me his concert was cancelled.'],
    ].entries()) {
      const facts = split(await factsAfter(`t-109-said-${i}`, turns));
      closes(facts, /^Tom is going to a concert on Saturday/, turns[2]!);
      assert.ok(facts.open.some((c) => /^Maria is going to a concert on Friday/.test(c)), `${i}: ${JSON.stringify(facts)}`);
    }
  });
});

describe('rules 109: a day, or a place, before "\'s" is no owner', () => {
  const factsAfter = allFactsAfter(MONDAY);

  test('"Tomorrow\'s meeting got cancelled" closes the meeting planned for tomorrow', async () => {
    // On main: left open (read as the plan of a person "tomorrow").
    for (const [i, [first, said, plan]] of ([
      ['I have a meeting tomorrow at 10am.', "Tomorrow's meeting got cancelled.", /^Maria has a meeting on Tuesday 8 December/],
      ["I'm going to a concert tomorrow.", "Tomorrow's concert got cancelled.", /^Maria is going to a concert on Tuesday 8 December/],
      ["I have dinner at Luigi's on Friday.", "The dinner at Luigi's got cancelled.", /^Maria has dinner at Luigi's on Friday/],
    ] as [string, string, RegExp][]).entries()) {
      closes(split(await factsAfter(`t-109-day-${i}`, [first, said])), plan, said);
    }
  });

  test('"Friday\'s concert", "Luigi\'s dinner" name no owner: the plan closes with Tom\'s named too', async () => {
    // A guard: on main these closed by the fallback to the first plan, which rules 109 narrows to the owner's (`theirs`).
    for (const [i, [first, said, plan]] of ([
      [CONCERT, "Friday's concert got cancelled.", /^Maria is going to a concert on Friday/],
      ["I'm having dinner at Luigi's on Friday.", "Luigi's dinner got cancelled.", /^Maria is having dinner at Luigi's/],
    ] as [string, string, RegExp][]).entries()) {
      closes(split(await factsAfter(`t-109-place-${i}`, [first, 'Tom is going to the gym on Saturday.', said])), plan, said);
    }
  });
});

describe('rules 109: another\'s cancellation of their own thing leaves the speaker\'s plan', () => {
  const factsAfter = allFactsAfter(MONDAY);

  test('"My sister cancelled the gym", "Tom\'s concert got cancelled" with no plan of theirs close nothing', async () => {
    // On main: Maria's own plan closed.
    for (const [i, [first, said]] of [
      ['I am going to the gym on Friday.', 'My sister cancelled the gym.'],
      [CONCERT, "Tom's concert got cancelled."],
      [CONCERT, 'Tom cancelled his concert.'],
    ].entries()) {
      const { open, closed } = split(await factsAfter(`t-109-theirs-${i}`, [first!, said!]));
      assert.ok(open.some((c) => /^Maria is going to (?:the gym|a concert) on Friday/.test(c)), `${said}: ${JSON.stringify({ open, closed })}`);
      assert.deepEqual(closed, [], said);
    }
  });

  test('one of the speaker\'s thing, an arrangement with them or an event for a day, by another closes it', async () => {
    // A guard: each closed on main too.
    for (const [i, [first, said, plan]] of ([
      ['I have a dentist appointment on Friday at 3pm.', 'My sister cancelled my dentist appointment.', /dentist appointment on Friday/],
      ["I'm having lunch with Tom on Thursday.", 'Tom cancelled lunch.', /^Maria is having lunch with Tom on Thursday/],
      ['I have a flat viewing on Friday.', 'My landlord cancelled the viewing.', /^Maria has a flat viewing on Friday/],
    ] as [string, string, RegExp][]).entries()) {
      closes(split(await factsAfter(`t-109-mine-${i}`, [first, said])), plan, said);
    }
  });
});

describe('rules 109: a possessive before an "-ing" noun stays a possessive', () => {
  test('"Tom\'s booking got cancelled" is not "Tom is booking got cancelled"', async () => {
    // On main: "Tom is booking got cancelled".
    for (const said of ["Tom's booking got cancelled.", "Tom's wedding was called off.", "Tom's meeting is off."]) {
      const texts = (await factsSaid(said, MONDAY, ['maria', 'Maria'], ['jo', 'Jo'])).map((f) => f.content);
      assert.ok(texts.some((c) => c.startsWith(said.split(' ').slice(0, 2).join(' '))), `${said}: ${JSON.stringify(texts)}`);
      assert.ok(!texts.some((c) => /^Tom is (?:booking|wedding|meeting)\b/.test(c)), `${said}: ${JSON.stringify(texts)}`);
    }
    // "Tom's going to the gym" stays "Tom is going…".
    const going = (await factsSaid("Tom's going to the gym on Friday.", MONDAY, ['maria', 'Maria'], ['jo', 'Jo'])).map((f) => f.content);
    assert.ok(going.some((c) => /^Tom is going to the gym/.test(c)), JSON.stringify(going));
  });
});

describe('rules 109: "the flight" is the flying', () => {
  const factsAfter = allFactsAfter(MONDAY);

  test('"The flight to Berlin was cancelled" closes "I\'m flying to Berlin on the 15th"', async () => {
    // On main: left open (WordNet derives "flight" from "flee", not "fly").
    for (const [i, said] of ['The flight to Berlin was cancelled.', 'My flight to Berlin got cancelled.'].entries()) {
      closes(split(await factsAfter(`t-109-flight-${i}`, ["I'm flying to Berlin on the 15th.", said])), /^Maria is flying to Berlin/, said);
    }
  });

  test('a flight elsewhere closes nothing', async () => {
    const { open } = split(await factsAfter('t-109-flight-not', ["I'm flying to Berlin on the 15th.", 'The flight to Rome was cancelled.']));
    assert.ok(open.some((c) => /^Maria is flying to Berlin/.test(c)), JSON.stringify(open));
  });
});

describe('rules 109 after review: a cancellation naming a date closes only a plan on that date', () => {
  const factsAfter = allFactsAfter(MONDAY);

  test('two plans on different days: the cancellation naming the other day closes nothing of the first', async () => {
    // On the branch before the review fix (54e63a08): the plan of the other day closed (review-cancel2 H1, H2, H4).
    for (const [i, turns] of [
      [CONCERT, "I'm going to the opera on Saturday.", 'The concert on Saturday is off.'],
      [CONCERT, "I'm going to a football match on Saturday.", "Saturday's concert is off."],
      [CONCERT, "I'm having dinner with Ana on Saturday.", 'The dinner on Friday is off.'],
      [CONCERT, "I'm going to a wedding on Saturday.", 'The wedding on Sunday is off.'],
    ].entries()) {
      const { open, closed } = split(await factsAfter(`t-109-date-${i}`, turns));
      assert.deepEqual(closed, [], `${turns[2]}: ${JSON.stringify({ open, closed })}`);
      assert.equal(open.filter((c) => /^Maria is /.test(c)).length, 2, `${turns[2]}: ${JSON.stringify({ open, closed })}`);
    }
  });

  test('"next Friday", "in March" name another date than the plan\'s', async () => {
    // On the branch before the review fix: the concert of 11 December closed (review-cancel2 H5).
    for (const [i, said] of ['The concert next Friday is off.', 'The concert in March is off.'].entries()) {
      const { open, closed } = split(await factsAfter(`t-109-other-${i}`, [CONCERT, said]));
      assert.ok(open.some((c) => /^Maria is going to a concert on Friday/.test(c)), `${said}: ${JSON.stringify({ open, closed })}`);
      assert.deepEqual(closed, [], said);
    }
  });

  test('Maria\'s Friday concert and Tom\'s Saturday one: the named day closes only its own', async () => {
    // On the branch before the review fix: both closed (review-cancel2 H3).
    const toms = 'Tom is going to a concert on Saturday.';
    const sat = split(await factsAfter('t-109-two-sat', [CONCERT, toms, "Saturday's concert is off."]));
    assert.ok(sat.open.some((c) => /^Maria is going to a concert on Friday/.test(c)), JSON.stringify(sat));
    const fri = split(await factsAfter('t-109-two-fri', [CONCERT, toms, 'The concert on Friday is off.']));
    closes(fri, /^Maria is going to a concert on Friday/, 'The concert on Friday is off.');
    assert.ok(fri.open.some((c) => /^Tom is going to a concert on Saturday/.test(c)), JSON.stringify(fri));
    // No day named, two concerts: one closes, not both. Pinned choice: the speaker's own (the plan named under
    // `settleCosine` takes no booking of another's with it; review-cancel2 H3 and H6).
    for (const [i, said] of ['The concert was called off.', 'They had to cancel the concert.'].entries()) {
      const { open, closed } = split(await factsAfter(`t-109-two-none-${i}`, [CONCERT, toms, said]));
      assert.equal(closed.length, 1, `${said}: ${JSON.stringify({ open, closed })}`);
    }
  });

  test('a bare weekday told in the past tense is the plan\'s day', async () => {
    // A guard: closed on main; the past tense reads "on Saturday" as the Saturday past.
    closes(split(await factsAfter('t-109-past-day', ["I'm going to the match on Saturday.", 'The match on Saturday was called off.'])),
      /^Maria is going to the match on Saturday/, 'The match on Saturday was called off.');
  });

  test('H6 pinned: "I heard the concert got cancelled" with Tom\'s concert the same day closes one of the two', async () => {
    // Ambiguous: the branch closes the speaker's own (main closed Tom's). Pinned so a change of choice is seen.
    const { open, closed } = split(await factsAfter('t-109-heard', [CONCERT, TOMS, 'I heard the concert got cancelled.']));
    assert.deepEqual(closed.filter((c) => /concert/.test(c)).length, 1, JSON.stringify({ open, closed }));
    closes({ open, closed }, /^Maria is going to a concert on Friday/, 'I heard the concert got cancelled.');
  });
});

describe('rules 109 after review: "not off after all", and more events told as off', () => {
  const factsAfter = allFactsAfter(MONDAY);

  test('"The concert is not off after all" closes nothing', async () => {
    // On the branch before the review fix (and on main): the concert closed (read as a retraction; review-cancel2 M3).
    for (const [i, said] of ['The concert is not off after all.', "The concert isn't off after all."].entries()) {
      const { open, closed } = split(await factsAfter(`t-109-on-${i}`, [CONCERT, said]));
      assert.ok(open.some((c) => /^Maria is going to a concert on Friday/.test(c)), `${said}: ${JSON.stringify({ open, closed })}`);
      assert.deepEqual(closed, [], said);
    }
  });

  test('"the viewing is off", "the opera is off" close the plan', async () => {
    // On the branch before the review fix: left open ("viewing", "opera" not among the events; review-cancel2 L1).
    for (const [i, [first, said, plan]] of ([
      ['I have a flat viewing on Friday.', 'The viewing is off.', /^Maria has a flat viewing on Friday/],
      ["I'm going to the opera on Friday.", 'The opera is off.', /^Maria is going to the opera on Friday/],
    ] as [string, string, RegExp][]).entries()) {
      closes(split(await factsAfter(`t-109-more-${i}`, [first, said])), plan, said);
    }
  });
});
