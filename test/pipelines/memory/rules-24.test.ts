/**
 * Rules 24: frequencies are no dates, "a few years back" lies behind, a verb that takes a clause keeps its sentence
 * when its "I" is left out, a date that is a sentence's subject takes no preposition, whole-job endings and
 * relationship status as slots, and "Sana's got her own place" is a report about Sana.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Fact } from '../../../graph/memory-store.js';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { slotChange } from '../../../pipelines/memory/changes.js';
import { RuleDecider } from '../../../pipelines/memory/decide.js';
import { EmbeddedExtractor, withElidedI } from '../../../pipelines/memory/embedded-extractor.js';
import { absoluteDates } from '../../../pipelines/memory/date-text.js';
import { eventDate, findDates } from '../../../pipelines/memory/relative-date.js';
import { wink } from '../../../pipelines/wink.js';
import { storedFact } from '../../helpers/stored-fact.js';

// Wednesday 15 November 2023, 10:00 UTC.
const SAID = '2023-11-15T10:00:00.000Z';
const x = new EmbeddedExtractor();
const NAMES = { p_ana: 'Ana', p_ben: 'Ben', p_sana: 'Sana' };

async function facts(text: string, id = 'u1', speakerId = 'p_ana'): Promise<ExtractedFact[]> {
  const addresseeIds = speakerId === 'p_ben' ? ['p_ana'] : ['p_ben'];
  return (await x.extract({
    current: { id, sessionId: 's', speakerId, addresseeIds, text, startMs: null, endMs: null, time: SAID, confidence: null, audioRef: null, seq: 1 },
    previous: [], names: NAMES,
  })).facts;
}

/** What the rule decider does with the first slotted fact of `second`, given the slotted facts `first` left. */
async function decideAfter(first: string[], second: string): Promise<{ op: string; targets: string[] }> {
  const stored: Fact[] = [];
  for (const [k, text] of first.entries()) {
    for (const f of (await facts(text, `u${k}`)).filter((f) => f.slot !== null)) {
      stored.push(storedFact(SAID, { id: `f${stored.length + 1}`, content: f.content, speakerId: f.speakerId, subjectId: f.subjectId,
        kind: f.kind, layer: 'profile', slot: f.slot, value: f.value, referIds: [`u${k}`], confidence: f.confidence }));
    }
  }
  const next = (await facts(second, 'u9')).find((f) => f.slot !== null);
  assert.ok(next, `a slotted fact from ${JSON.stringify(second)}`);
  const got = await new RuleDecider().decide({ fact: next, candidates: stored.map((f) => ({ fact: f, score: 0.3 })), retractedFacts: [] });
  const targets = got.op === 'DELETE' ? got.targetIds : 'targetId' in got ? [got.targetId] : [];
  return { op: got.op, targets: targets.map((id) => stored.find((f) => f.id === id)!.slot!) };
}

test('"twice a week", "once a month", "three times a day" are how often, not when', async () => {
  for (const t of ['I go running twice a week.', 'I ring my mum once a month.', 'I take the tablets three times a day.',
    'We see them every other week.']) {
    assert.deepEqual(findDates(t, SAID), [], t);
  }
  const [f] = await facts('I go running twice a week.');
  assert.equal(f?.content, 'Ana goes running twice a week');
  assert.equal(f?.eventTime, null);
  // A span named as a date stays one.
  assert.equal(findDates('I went to Leeds a week ago.', SAID)[0]?.date, '2023-11-06');
  assert.equal(findDates('See you in a week.', SAID).length, 1);
});

test('"a few years back" lies behind, and a "when" clause after it takes its time', async () => {
  assert.equal(findDates('I remember a few years back when I sat by a lake with friends.', SAID)[0]?.date, '2020');
  assert.equal(findDates('Two months back we went to Porto.', SAID)[0]?.date, '2023-09');
  assert.equal(eventDate('A few years back when I sat my driving test, I failed it twice.', SAID), '2020');
  const [f] = await facts('I remember a few years back when I sat by a lake with friends.');
  assert.equal(f?.eventTime, '2020', 'not this year, not years ahead');
  assert.equal(findDates('I gave the book back.', SAID).length, 0, 'a "back" after no span is no date');
});

test('a verb that takes a clause, its "I" left out, still gives a fact read with the "I"', async () => {
  const nlp = wink();
  assert.equal(withElidedI(nlp, "Thought I'd brush up on my Spanish."), "I thought I'd brush up on my Spanish.");
  assert.equal(withElidedI(nlp, "Heard they're really friendly."), "I heard they're really friendly.");
  assert.equal(withElidedI(nlp, "Figured I'd give it a try."), "I figured I'd give it a try.");
  assert.deepEqual((await facts("Thought I'd brush up on my Spanish.")).map((f) => f.content), ['Ana thought they would brush up on their Spanish']);
  assert.deepEqual((await facts("Heard they're really friendly.")).map((f) => f.content), ["Ana heard they're really friendly"]);
  assert.equal((await facts("Figured I'd give it a try.")).length, 1);
  // Not a verb that takes a clause: a reaction stays as said and gives nothing.
  assert.deepEqual(await facts('Blessed we both have this mindset.'), []);
});

test('a date that is the sentence\'s subject takes no preposition', async () => {
  const week = findDates('This week has been swamped with exams.', SAID);
  assert.equal(absoluteDates('This week has been swamped with exams', week), 'the week of Monday 13 November 2023 has been swamped with exams');
  assert.deepEqual((await facts('This week has been swamped with exams.')).map((f) => f.content),
    ['The week of Monday 13 November 2023 has been swamped with exams']);
  assert.equal(absoluteDates('Last year was tough', findDates('Last year was tough.', SAID)), '2022 was tough');
  assert.equal(absoluteDates('I was busy this week', findDates('I was busy this week.', SAID)), 'I was busy in the week of Monday 13 November 2023',
    'not the subject: a preposition as before');
});

test('notice handed in, resigning, being let go or retiring ends the employer and the role', async () => {
  for (const t of ['I handed in my notice on Monday.', "I've resigned from Globex.", 'I got let go last week.', 'They let me go in October.',
    "I've retired.", 'I retired in the summer.']) {
    assert.deepEqual(slotChange(t), { slot: 'works_at', value: null, ends: 'occupation' }, t);
  }
  for (const t of ["I'm going to hand in my notice.", "I'm retiring next year.", 'I resigned myself to a long wait.']) assert.equal(slotChange(t), null, t);
  const ended = await decideAfter(['I work at Globex.', "I'm a data analyst."], 'I handed in my notice on Monday.');
  assert.deepEqual({ op: ended.op, targets: ended.targets.sort() }, { op: 'DELETE', targets: ['occupation', 'works_at'] });
  assert.deepEqual(await decideAfter(["I'm a data analyst."], "I've retired."), { op: 'DELETE', targets: ['occupation'] });
});

test('relationship status is one slot whose new value closes the old; a break-up ends the partner and the status', async () => {
  assert.equal(slotChange("I've started seeing someone from my climbing club.")?.value, 'dating');
  assert.equal(slotChange('We got engaged at the weekend!')?.value, 'engaged');
  assert.equal(slotChange('We got married in June.')?.value, 'married');
  assert.equal(slotChange("I've been seeing a guy from work for a few months.")?.value, 'dating');
  assert.deepEqual(slotChange('I got divorced last year.'), { slot: 'relation:partner', value: null, ends: 'relationship' });
  assert.equal(slotChange("I'm engaged in a long project at work."), null);
  assert.equal(slotChange("We're getting married next spring."), null, 'a wedding to come is a plan');
  assert.equal(slotChange('We separated the recycling.'), null);
  assert.deepEqual(await decideAfter(['We got engaged at the weekend!'], 'We got married in June.'), { op: 'UPDATE', targets: ['relationship'] });
  const over = await decideAfter(['My boyfriend is Sam.', 'We got engaged at the weekend!'], 'Sam and I split up.');
  assert.deepEqual({ op: over.op, targets: over.targets.sort() }, { op: 'DELETE', targets: ['relation:partner', 'relationship'] });
});

test('"Sana\'s got her own place now", said by someone else, is where Sana lives; living with one\'s parents or sharing a flat is where one lives', async () => {
  const [f] = await facts("Sana's got her own place now.", 'u1', 'p_ben');
  assert.deepEqual({ subject: f?.subjectId, slot: f?.slot, value: f?.value }, { subject: 'p_sana', slot: 'lives_in', value: 'own place' });
  const flat = (await facts("Sana's got her own flat in Leeds.", 'u1', 'p_ben'))[0];
  assert.equal(flat?.value, 'own flat in Leeds');
  assert.equal(slotChange("I'm living with my parents while I save up.")?.value, 'with my parents');
  assert.equal(slotChange('I share a flat with two nurses.')?.value, 'a flat');
  assert.deepEqual(await decideAfter(["I'm living with my parents while I save up."], "I've got my own place now."), { op: 'UPDATE', targets: ['lives_in'] });
});
