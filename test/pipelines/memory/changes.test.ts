import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cancellingClause, movedClause, settles, slotChange } from '../../../pipelines/memory/changes.js';
import { RuleDecider } from '../../../pipelines/memory/decide.js';
import type { Fact } from '../../../graph/memory-store.js';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import { storedFact } from '../../helpers/stored-fact.js';

test('slot changes are found across paraphrases', () => {
  assert.deepEqual(slotChange('We finally relocated to Lisbon in the spring.'), { slot: 'lives_in', value: 'Lisbon', attribute: 'lives_in' });
  assert.deepEqual(slotChange("I'm living in Oakland these days."), { slot: 'lives_in', value: 'Oakland', attribute: 'lives_in' });
  assert.equal(slotChange('I joined Globex in March.')?.value, 'Globex');
  assert.equal(slotChange('Just yesterday I joined a nearby church.'), null, 'joining a church, a gym or a group is no job');
  assert.equal(slotChange('I got a job at the public library.')?.slot, 'works_at');
  assert.deepEqual(slotChange('Sam and I broke up.'), { slot: 'relation:partner', value: null, ends: 'relationship' });
  assert.deepEqual(slotChange('I got laid off from Umbrella Corp.'), { slot: 'works_at', value: null, ends: 'occupation' });
  assert.equal(slotChange('I went vegan in January.')?.value, 'vegan');
  assert.deepEqual(slotChange('I eat meat again.'), { slot: 'diet', value: null });
  assert.equal(slotChange('I love the tacos here.'), null);
  assert.equal(slotChange("I'm a bit tired", () => false), null, 'not a noun phrase: not a job');
});

test('outcomes are told apart from plans', () => {
  assert.equal(settles('The raised beds are finished.'), 'done');
  assert.equal(settles("Sorry, I won't be able to call the plumber."), 'cancelled');
  assert.equal(settles("I've pulled out of the half marathon, my ankle is still sore."), 'cancelled');
  assert.equal(settles('Ben backed out of the camping trip.'), 'cancelled');
  assert.equal(settles('We decided to spend the grant on rain barrels instead.'), 'instead');
  assert.equal(settles("I'll build the raised beds."), null);
  assert.equal(settles("I haven't done pottery yet, but I'm game for trying new art."), null, 'denied');
  assert.equal(settles("I couldn't have done it without them."), null, 'counterfactual');
  assert.equal(settles('The beds are not finished.'), null, 'denied');
  assert.equal(settles('Have you finished the raised beds?'), null, 'asked');
  assert.equal(settles("I didn't think so, but I finished the beds."), 'done', 'a denial elsewhere in the sentence does not count');
  assert.equal(settles("Let me know what you think when you're done!"), null, 'not yet: a when-clause');
  assert.equal(settles('We can really get amazing stuff done together.'), null, 'not yet: a modal');
  assert.equal(settles("Can't wait to see your dance studio done!"), null, 'not yet: a wish');
  assert.equal(settles('By the way, I finished up my writing for my book last week.'), 'done');
  assert.equal(settles("Actually, my brother is lending me his van, so I won't need a courtesy car."), 'cancelled', "won't need");
  assert.equal(settles("Grandma already bought you boots, so we don't need to go shopping."), 'cancelled', "don't need to");
  assert.equal(settles("I've given up on the pottery class, it clashes with work."), 'cancelled', 'given up on');
  assert.equal(settles("And on second thought, don't do the MOT this time."), 'cancelled', 'a negative imperative');
  assert.equal(settles("Don't worry about the invoice."), null, "don't worry cancels nothing");
  assert.equal(settles("I still haven't cancelled my phone contract."), null, 'a denied cancelling');
  assert.equal(settles("I haven't got round to cancelling the gym membership."), null, 'not yet done');
  assert.equal(settles('I forgot to cancel the newspaper.'), null, 'forgotten');
  assert.equal(settles("I haven't managed to cancel it."), null);
  assert.equal(settles('I cancelled the newspaper.'), 'cancelled');
  assert.equal(settles('Oh, coach just texted, the match has been moved to Sunday.'), 'instead', 'a reschedule');
  assert.equal(settles('Staging is up and running.'), 'done', 'up and running');
  assert.equal(settles("We've moved house."), null, 'a move is no reschedule');
});

test('a cancellation is read from the clause that cancels', () => {
  assert.equal(cancellingClause("Actually, my brother is lending me his van, so I won't need a courtesy car."), "I won't need a courtesy car.");
  assert.equal(cancellingClause("And on second thought, don't do the MOT this time."), "don't do the MOT this time.");
  assert.equal(cancellingClause("I'm not going to sell the bike after all."), "I'm not going to sell the bike after all.");
  assert.equal(movedClause('Oh, coach just texted, the match has been moved to Sunday.'), 'the match has been moved to Sunday.');
  assert.equal(movedClause('We moved the sofa to the window.'), null);
});

const fact = (over: Partial<Fact>): Fact => storedFact('2026-12-01T10:00:00.000Z', {
  id: 'f1', content: 'Tom will build the raised beds', speakerId: 'p_tom', subjectId: 'p_tom', kind: 'commitment', referIds: ['u1'], ...over,
});
const outcome = (settled: ExtractedFact['settles']): ExtractedFact => ({
  content: 'The raised beds are finished', kind: 'statement', subjectId: 'p_tom', speakerId: 'p_tom', addresseeIds: [],
  slot: null, value: null, retraction: false, confidence: 0.6, referIds: ['u2'], settles: settled,
});

test('a cancellation that does what a plan to cancel says closes it as done (UPDATE); one of another plan withdraws it (DELETE)', async () => {
  const d = new RuleDecider({ settleCosine: 0.4 });
  const cancelling = { verb: 'cancel', objects: ['delivery'], complements: [], past: true };
  const said = { ...outcome('cancelled'), content: 'Tom cancelled the paper delivery', planObject: cancelling };
  const toCancel = fact({ kind: 'plan', content: 'Tom needs to cancel the newspaper delivery', planObject: { verb: 'cancel', objects: ['delivery'], complements: [] } });
  assert.deepEqual(await d.decide({ fact: said, candidates: [{ fact: toCancel, score: 0.6 }], retractedFacts: [] }), { op: 'UPDATE', targetId: 'f1' });
  const toBook = fact({ kind: 'plan', content: 'Tom is going to book the delivery', planObject: { verb: 'book', objects: ['delivery'], complements: [] } });
  assert.deepEqual(await d.decide({ fact: said, candidates: [{ fact: toBook, score: 0.6 }], retractedFacts: [] }), { op: 'DELETE', targetIds: ['f1'] });
});

test('the decider settles only an open plan or commitment similar enough', async () => {
  const d = new RuleDecider({ settleCosine: 0.4 });
  assert.deepEqual(await d.decide({ fact: outcome('done'), candidates: [{ fact: fact({}), score: 0.6 }], retractedFacts: [] }), { op: 'UPDATE', targetId: 'f1' });
  assert.deepEqual(await d.decide({ fact: outcome('cancelled'), candidates: [{ fact: fact({}), score: 0.6 }], retractedFacts: [] }), { op: 'DELETE', targetIds: ['f1'] });
  assert.deepEqual(await d.decide({ fact: outcome('done'), candidates: [{ fact: fact({}), score: 0.2 }], retractedFacts: [] }), { op: 'ADD' });
  const pref = fact({ kind: 'preference', content: 'Tom likes raised beds' });
  assert.deepEqual(await d.decide({ fact: outcome('done'), candidates: [{ fact: pref, score: 0.8 }], retractedFacts: [] }), { op: 'ADD' },
    'a preference is not settled by an outcome');
});

test('an outcome settles only a plan about the same thing, and a dated plan only once due', async () => {
  const d = new RuleDecider({ settleCosine: 0.4 });
  const wish = fact({ kind: 'plan', content: 'Melanie wants to be brave for Melanie\'s family' });
  const painted: ExtractedFact = { ...outcome('done'), content: "Melanie's kids and Melanie just finished another painting" };
  assert.deepEqual(await d.decide({ fact: painted, candidates: [{ fact: wish, score: 0.7 }], retractedFacts: [] }), { op: 'ADD' },
    'no shared topic word (names left out): not settled');
  const show = fact({ kind: 'plan', content: 'Caroline is having an art show with her paintings', eventTime: '2023-08' });
  const finished: ExtractedFact = { ...outcome('done'), content: 'Caroline has been busy painting, here is something she just finished' };
  const at = (time: string) => ({ fact: finished, candidates: [{ fact: show, score: 0.7 }], retractedFacts: [], time });
  assert.deepEqual(await d.decide(at('2023-07-20T10:00:00.000Z')), { op: 'ADD' }, 'a show next month is not done yet');
  assert.deepEqual(await d.decide(at('2023-08-20T10:00:00.000Z')), { op: 'UPDATE', targetId: 'f1' }, 'once its month has come it may be');
  const cancelled: ExtractedFact = { ...outcome('cancelled'), content: 'Caroline called off the art show' };
  assert.deepEqual(await d.decide({ fact: cancelled, candidates: [{ fact: show, score: 0.7 }], retractedFacts: [], time: '2023-07-20T10:00:00.000Z' }),
    { op: 'DELETE', targetIds: ['f1'] }, 'a plan can be cancelled before its date');
});

test('a worse transcript of the same statement keeps the better text; a real change still updates', async () => {
  const d = new RuleDecider();
  const stored = fact({ id: 'f_home', kind: 'profile', layer: 'profile', content: 'Lena moved to Berkeley', slot: 'lives_in', value: 'Berkeley', confidence: 0.85 });
  const heard = (value: string, confidence: number): ExtractedFact => ({
    content: `Lena moved to ${value}`, kind: 'profile', subjectId: 'p_tom', speakerId: 'p_tom', addresseeIds: [], slot: 'lives_in', value,
    retraction: false, confidence, referIds: ['u3'],
  });
  const input = (f: ExtractedFact) => ({ fact: f, candidates: [{ fact: stored, score: 0.9 }], retractedFacts: [] });
  assert.deepEqual(await d.decide(input(heard('Berkley', 0.4))), { op: 'KEEP', targetId: 'f_home' });
  assert.deepEqual(await d.decide(input(heard('Berkley', 0.95))), { op: 'UPDATE', targetId: 'f_home' }, 'a surer transcript replaces');
  assert.deepEqual(await d.decide(input(heard('Oakland', 0.4))), { op: 'UPDATE', targetId: 'f_home' }, 'another place is a change');
});

test('an outcome told as done settles a problem about the same thing; a cancellation or another topic does not', async () => {
  const d = new RuleDecider({ settleCosine: 0.4 });
  const stuck = fact({ kind: 'statement', content: 'Mei is still stuck on the flaky payment tests' });
  const fixed: ExtractedFact = { ...outcome('done'), content: 'The payment tests are fixed, it was the database cleanup after all' };
  assert.deepEqual(await d.decide({ fact: fixed, candidates: [{ fact: stuck, score: 0.6 }], retractedFacts: [] }), { op: 'UPDATE', targetId: 'f1' });
  const boiler = fact({ kind: 'statement', content: 'The boiler stopped working on Sunday night' });
  const repaired: ExtractedFact = { ...outcome('done'), content: 'The plumber has fixed the boiler' };
  assert.deepEqual(await d.decide({ fact: repaired, candidates: [{ fact: boiler, score: 0.6 }], retractedFacts: [] }), { op: 'UPDATE', targetId: 'f1' });
  const other: ExtractedFact = { ...outcome('done'), content: 'The login page redesign is finished' };
  assert.deepEqual(await d.decide({ fact: other, candidates: [{ fact: stuck, score: 0.6 }], retractedFacts: [] }), { op: 'ADD' }, 'another topic');
  const dropped: ExtractedFact = { ...outcome('cancelled'), content: 'We dropped the payment tests' };
  assert.deepEqual(await d.decide({ fact: dropped, candidates: [{ fact: stuck, score: 0.6 }], retractedFacts: [] }), { op: 'ADD' }, 'a problem is not cancelled');
  const state = fact({ kind: 'statement', content: 'Mei is working on the flaky payment tests' });
  assert.deepEqual(await d.decide({ fact: fixed, candidates: [{ fact: state, score: 0.6 }], retractedFacts: [] }), { op: 'ADD' }, 'no problem told');
});

const extractor = new EmbeddedExtractor();
/** What Ana's first turn leaves stored and what her second (said `later`) decides about it, at cosine 0.6. */
async function pair(first: string, second: string, later = '2026-12-01T15:00:00.000Z'): Promise<string> {
  const said = async (text: string, id: string, time: string) => (await extractor.extract({
    current: { id, sessionId: 's', speakerId: 'p_ana', addresseeIds: ['p_ben'], text, startMs: null, endMs: null, time, confidence: null, audioRef: null, seq: 1 },
    previous: [], names: { p_ana: 'Ana', p_ben: 'Ben' },
  })).facts;
  const stored = (await said(first, 'u1', '2026-12-01T10:00:00.000Z')).map((f, i) => fact({
    id: `f${i + 1}`, content: f.content, kind: f.kind, slot: f.slot, eventTime: f.eventTime ?? null, planObject: f.planObject ?? null,
    subjectId: 'p_ana', speakerId: 'p_ana',
  }));
  const outcome = (await said(second, 'u2', later)).find((f) => f.settles);
  if (!outcome) return 'ADD';
  const d = new RuleDecider({ settleCosine: 0.4 });
  const got = await d.decide({ fact: outcome, candidates: stored.map((f) => ({ fact: f, score: 0.6 })), retractedFacts: [], time: later });
  return got.op === 'UPDATE' ? `UPDATE ${stored.find((f) => f.id === got.targetId)!.content}` : got.op;
}

test('a plan clause after a report names the report\'s thing by its pronoun; an outcome naming that thing settles it', async () => {
  assert.match(await pair("The plumber sent me a quote, I'll forward it to my landlord tonight.", "I forwarded the plumber's quote to my landlord."),
    /^UPDATE Ana will forward the quote/);
  assert.match(await pair('My aunt left a message, I\'ll call her back after lunch.', 'I called my aunt back this afternoon.'), /^UPDATE Ana will call their aunt back/);
  assert.equal(await pair("The dentist sent a reminder, I'll reply to it tomorrow.", 'I replied to the email from my boss.'), 'ADD',
    'another thing replied to: the reminder stays open');
});

test('the second of two joined plan actions is a plan of its own', async () => {
  assert.match(await pair("I'll check the boiler settings and ring the landlord.", 'I rang the landlord this morning.'), /^UPDATE Ana will ring the landlord/);
  assert.equal(await pair("I'll wash the car and clean the windows.", 'I cleaned the oven yesterday.'), 'ADD');
});

test('an event told for a day is moved by a reschedule of the same one, not of another', async () => {
  assert.match(await pair("I've got a football match on Saturday at ten.", 'Coach just texted, the match has been moved to Sunday.'), /^UPDATE Ana has got a football match/);
  assert.match(await pair('The book club meets on Wednesday evening.', 'Book club has been moved to Friday this week.'), /^UPDATE The book club meets/);
  assert.equal(await pair('My yoga class is on Thursday evening.', 'The pottery class has been moved to Tuesday.'), 'ADD', 'another class');
  assert.equal(await pair('Alright, I have to go now, talk tomorrow!', "I'm not going to go to the party after all."), 'ADD', 'a farewell names no event');
});

test('an alternative naming only a time moves the latest dated plan of the day; "the plan is to" is a plan', async () => {
  assert.match(await pair('I can deliver the crates on Friday afternoon.', "Let's do Saturday at seven instead."), /^UPDATE Ana can deliver/);
  assert.equal(await pair('I will bring the crates myself.', "Let's do Saturday at seven instead."), 'ADD', 'no dated plan to move');
  assert.equal(await pair('I delivered the crates on Monday.', "Let's do Saturday at seven instead."), 'ADD', 'a day gone by is not moved');
  assert.match(await pair('The plan is to meet at the station at six.', "Let's meet at the cafe instead."), /^UPDATE/);
  assert.equal(await pair("I'll call you back on Wednesday.", "Please text my mobile rather than the landline, it's being disconnected on Friday."), 'ADD',
    'an alternative naming what it replaces moves no plan by its time');
  assert.equal(await pair('Friday is no good, I need the car for work.', "Let's say Saturday at eight instead."), 'ADD', 'a time turned down is not moved');
});

test('another action cancels a plan only by naming its object, not a thing it is about', async () => {
  assert.equal(await pair("I'll check the warehouse and call you back about the lemons.", "Actually, don't send the lemons, we found some locally."), 'ADD');
  assert.equal(await pair("I'll send the lemons on Friday.", "Actually, don't send the lemons, we found some locally."), 'DELETE');
});

test('a return trip does not cancel the outbound one; another class does not; "won\'t" said as a change of mind does', async () => {
  assert.equal(await pair('I need to book a taxi to the airport.', "I won't need a taxi back from the airport, Sam is picking me up."), 'ADD');
  assert.equal(await pair('I need to book a taxi to the airport.', "I won't need a taxi to the airport, Sam is driving me."), 'DELETE');
  assert.equal(await pair("I'm going to take the Saturday class in watercolour.", 'I dropped the oil painting class.'), 'ADD');
  assert.equal(await pair("I'm going to order the blue curtains for the lounge.", "Actually, I won't order the curtains, the old ones are fine."), 'DELETE');
  assert.equal(settles("I won't forget the curtains, actually."), null, 'not a cancellation');
  assert.equal(settles("I won't order the curtains."), null, 'no change of mind told');
});

test('"up and running" is about its subject; "had a chat with" is talking; "get someone to fix" is fixing', async () => {
  assert.match(await pair('I need to set up the new printer at the office.', 'The new printer is up and running.'), /^UPDATE/);
  assert.equal(await pair('I need to set up the new router.', 'The coffee machine is up and running again.'), 'ADD');
  assert.match(await pair('I need to talk to my manager about the rota.', 'I had a chat with my manager about the rota yesterday.'), /^UPDATE/);
  assert.match(await pair('I need to get someone to fix the roof.', 'A roofer fixed the roof on Tuesday.'), /^UPDATE/);
  assert.equal(await pair('I need to get someone to fix the roof.', 'A roofer fixed the shed door on Tuesday.'), 'ADD');
});
