/**
 * trial12 F11 (a dental front desk's simulated week): cancellations said on the phone. What each gave on main 674fd1be
 * is in the comments.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { withDayAfterThing } from '../../../pipelines/memory/day-named-thing.js';
import { openingIntroduction } from '../../../pipelines/memory/opening-introduction.js';
import { wink } from '../../../pipelines/wink.js';
import { factsSaid } from '../../helpers/extract-said.js';

/** A Monday. */
const MONDAY = '2026-12-07T10:00:00.000Z';
const read = async (text: string): Promise<ExtractedFact[]> => factsSaid(text, MONDAY, ['maria', 'Maria Gomez'], ['jo', 'Receptionist Jo']);
/** A fact as the tests compare it: text, event day, how it settles, what it is about. */
const shown = (f: ExtractedFact): [string, string | null, string | null, string[]] =>
  [f.content, f.eventTime ?? null, f.settles ?? null, f.planObject?.objects ?? []];

describe('trial12 F11: a thing named by its day ("my Thursday cleaning")', () => {
  test('is the thing, dated by the day, for any plan noun and weekday', async () => {
    // On main: "Maria Gomez asked Receptionist Jo to cancel Maria Gomez's on Thursday 10 December 2026 cleaning", no object.
    assert.deepEqual((await read('Please cancel my Thursday cleaning.')).map(shown),
      [['Maria Gomez asked Receptionist Jo to cancel their cleaning on Thursday 10 December 2026', '2026-12-10', 'cancelled', ['cleaning']]]);
    // On main: "…has to cancel Maria Gomez's on Tuesday 8 December 2026 appointment", a plan that settled nothing.
    assert.deepEqual((await read('I have to cancel my Tuesday dentist appointment.')).map(shown),
      [['Maria Gomez has to cancel their dentist appointment on Tuesday 8 December 2026', '2026-12-08', 'cancelled', ['appointment', 'dentist']]]);
    // On main: "Maria Gomez booked their on Thursday 3 December 2026 cleaning".
    assert.deepEqual((await read('I booked my Friday morning yoga class.')).map((f) => f.content),
      ['Maria Gomez booked their yoga class on the morning of Friday 4 December 2026']);
  });

  test('the cut: the day after the thing; a day with no thing after it stays', () => {
    const nlp = wink();
    assert.equal(withDayAfterThing(nlp, 'hi, cancel my Thursday cleaning, thanks'), 'hi, cancel my cleaning on Thursday, thanks');
    assert.equal(withDayAfterThing(nlp, 'We need to cancel our Saturday dinner reservation.'), 'We need to cancel our dinner reservation on Saturday.');
    assert.equal(withDayAfterThing(nlp, "Can I move the Monday's meeting?"), 'Can I move the meeting on Monday?');
    // What says which thing stays with it: "the class in watercolour" is not "the oil painting class" (rules 13).
    assert.equal(withDayAfterThing(nlp, "I'm going to take the Saturday class in watercolour."), "I'm going to take the class in watercolour on Saturday.");
    assert.equal(withDayAfterThing(nlp, 'My Sunday was great.'), 'My Sunday was great.');
    assert.equal(withDayAfterThing(nlp, 'See you on Thursday.'), 'See you on Thursday.');
  });

  test('a name or a title after the day is no thing (reviewD M4)', async () => {
    const nlp = wink();
    // Rules 70–74: "I read the Times on Sunday every week."
    assert.equal(withDayAfterThing(nlp, 'I read the Sunday Times every week.'), 'I read the Sunday Times every week.');
    assert.equal(withDayAfterThing(nlp, 'I do the Sunday Times crossword.'), 'I do the Sunday Times crossword.');
    assert.equal(withDayAfterThing(nlp, 'I watched the Monday Night Football game.'), 'I watched the Monday Night Football game.');
    // Rules 70–74: "I remember the Maria on Friday called me.", and so a recogniser's lower-case listed name.
    assert.equal(withDayAfterThing(nlp, 'I remember the Friday Maria called me.'), 'I remember the Friday Maria called me.');
    assert.equal(withDayAfterThing(nlp, 'i remember the friday ben called me'), 'i remember the friday ben called me');
    // A name inside what says which thing stays with it; a thing before a name is still the thing.
    assert.equal(withDayAfterThing(nlp, 'I have my Tuesday appointment with Dr Lee.'), 'I have my appointment with Dr Lee on Tuesday.');
    assert.equal(withDayAfterThing(nlp, 'cancel my friday pilates class'), 'cancel my pilates class on friday');
    // Rules 70–74: "Maria Gomez remembers the Maria Gomez on Friday 4 December 2026 called Maria Gomez".
    const [said] = await read('I remember the Friday Maria called me.');
    assert.ok(!/the Maria( Gomez)? on Friday/.test(said?.content ?? ''), said?.content);
    const [times] = await read('I read the Sunday Times every week.');
    assert.match(times?.content ?? '', /the Sunday Times/);
  });
});

describe('trial12 F11: a cancellation said with its day ("cancel my cleaning on Thursday")', () => {
  test('settles the booking it names, as the same words undated do', async () => {
    // On main: a plan with a slot of its own ("plan:cancel:2026-12-10"), which settled nothing.
    assert.deepEqual((await read('I need to cancel my cleaning on Thursday, something came up, sorry.')).map(shown),
      [['Maria Gomez needs to cancel their cleaning on Thursday 10 December 2026, something came up, sorry', '2026-12-10', 'cancelled', ['cleaning']]]);
    const [wanted] = await read('I want to cancel my checkup on Friday.');
    assert.equal(wanted?.settles, 'cancelled');
    assert.equal(wanted?.slot, null);
    // A dated plan that cancels nothing still fills its slot.
    assert.equal((await read('I need to renew my passport on Friday.'))[0]?.slot, 'plan:renew:2026-12-11');
  });
});

describe('trial12 F11: a cancellation asked bare after a self-introduction, joined by commas', () => {
  test('is the caller\'s request', async () => {
    // Before rules 70: the self-introduction alone.
    assert.deepEqual((await read("hi, it's Maria, cancel my Thursday cleaning, thanks")).map(shown), [
      ["The speaker's name is Maria", null, null, []],
      ['Maria asked Receptionist Jo to cancel their cleaning on Thursday 10 December 2026', '2026-12-10', 'cancelled', ['cleaning']], // Rules 76: no ", thanks".
    ]);
    for (const verb of ['book', 'reschedule']) {
      const facts = (await read(`hello this is maria gomez ${verb} my cleaning on friday`)).map((f) => f.content);
      assert.ok(facts.some((f) => f.includes(`asked Receptionist Jo to ${verb} their cleaning on Friday 11 December 2026`)), facts.join(' | '));
    }
  });

  test('the cut: the introduction, then the request', () => {
    assert.deepEqual(openingIntroduction("hi, it's Maria, cancel my cleaning on Thursday, thanks"), ["Hi, it's Maria.", 'Cancel my cleaning on Thursday, thanks']);
    // A surname is still read before a name's comma, and "Book" is no surname.
    assert.deepEqual(openingIntroduction('hello this is maria book a cleaning for me'), ['hello this is maria.', 'Book a cleaning for me']);
  });
});
