import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RuleDecider, sameNamedThing } from '../../../pipelines/memory/decide.js';
import { EmbeddedExtractor, withElidedI } from '../../../pipelines/memory/embedded-extractor.js';
import { wink } from '../../../pipelines/wink.js';
import type { Fact } from '../../../graph/memory-store.js';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { storedFact } from '../../helpers/stored-fact.js';

test('an outcome in other words shares a named thing and a content word with what it settles', () => {
  assert.equal(sameNamedThing('Lena paid Marcus back for the tickets last night', 'Lena owes Marcus forty quid for the concert tickets'), true);
  assert.equal(sameNamedThing('Lena cancelled their Riverside membership', 'Lena is a member of the Riverside gym'), true, 'member / membership');
  assert.equal(sameNamedThing('Lena went camping in Snowdonia in June', "Lena is going camping in the Lakes"), false, 'another named place');
  assert.equal(sameNamedThing('Lena got all four tyres on the Corsa replaced', 'Lena drives a silver Corsa'), false, 'the name alone');
  assert.equal(sameNamedThing('Lena paid Marcus back for the tickets', 'Lena owes Marcus for the tickets', ['Marcus']), false,
    'a person the facts are about is no named thing');
});

const open = (over: Partial<Fact>): Fact => storedFact('2026-10-01T10:00:00.000Z', {
  id: 'f1', content: 'Lena owes Marcus forty quid for the concert tickets', speakerId: 'p_l', subjectId: 'p_l', referIds: ['u1'], ...over,
});
const outcome = (over: Partial<ExtractedFact>): ExtractedFact => ({
  content: 'Lena paid Marcus back for the tickets', kind: 'statement', subjectId: 'p_l', speakerId: 'p_l', addresseeIds: [],
  slot: null, value: null, retraction: false, confidence: 0.6, referIds: ['u2'], settles: 'done',
  planObject: { verb: 'pay', objects: ['marcus'], complements: [], past: true }, ...over,
});

test('the decider settles an obligation told done in other words, and keeps look-alikes open', async () => {
  const d = new RuleDecider({ settleCosine: 0.4 });
  const owed = open({});
  assert.deepEqual(await d.decide({ fact: outcome({}), candidates: [{ fact: owed, score: 0.5 }], retractedFacts: [] }), { op: 'UPDATE', targetId: 'f1' });
  const gym = open({ content: 'Lena is a member of the Riverside gym' });
  const quit = outcome({ content: 'Lena cancelled their Riverside membership', settles: 'cancelled', planObject: { verb: 'cancel', objects: ['membership'], complements: [], past: true } });
  assert.deepEqual(await d.decide({ fact: quit, candidates: [{ fact: gym, score: 0.5 }], retractedFacts: [] }), { op: 'DELETE', targetIds: ['f1'] });
  const theirs = outcome({ content: "Lena's cousin paid Marcus back for the tickets", planObject: { verb: 'pay', objects: ['marcus'], complements: [], past: true, doneBy: "Lena's cousin" } });
  assert.deepEqual(await d.decide({ fact: theirs, candidates: [{ fact: owed, score: 0.5 }], retractedFacts: [] }), { op: 'ADD' }, "someone else's act");
  const other = outcome({ content: 'Lena paid Marcus back for the taxi' });
  assert.deepEqual(await d.decide({ fact: other, candidates: [{ fact: owed, score: 0.5 }], retractedFacts: [] }), { op: 'ADD' }, 'another thing owed to the same person');
  const wife = open({ kind: 'relation', slot: 'relation:partner', content: "Priya is Lena's wife" });
  const hiked = outcome({ content: "Lena's wife Priya and Lena went hiking again", planObject: { verb: 'go', objects: ['hiking'], complements: [], past: true } });
  assert.deepEqual(await d.decide({ fact: hiked, candidates: [{ fact: wife, score: 0.6 }], retractedFacts: [] }), { op: 'ADD' }, 'who someone is is no plan');
  const likes = open({ content: "Lena's wife Priya loves hiking" });
  assert.deepEqual(await d.decide({ fact: hiked, candidates: [{ fact: likes, score: 0.6 }], retractedFacts: [] }), { op: 'ADD' }, 'done again: a habit, not a completion');
  const toCome = outcome({ content: 'Lena will pay Marcus back for the tickets' });
  assert.deepEqual(await d.decide({ fact: toCome, candidates: [{ fact: owed, score: 0.5 }], retractedFacts: [] }), { op: 'ADD' }, 'not done yet');
});

test('a diary-style sentence with its "I" left out is read with it', async () => {
  const nlp = wink();
  assert.equal(withElidedI(nlp, 'Paid Marcus back for the tickets last night.'), 'I paid Marcus back for the tickets last night.');
  assert.equal(withElidedI(nlp, 'Spoke to Gran this morning.'), 'I spoke to Gran this morning.');
  assert.equal(withElidedI(nlp, 'Put another two hundred into the boiler fund.'), 'Put another two hundred into the boiler fund.', 'a base form may be an imperative');
  assert.equal(withElidedI(nlp, 'Turns out the charger was fine.'), 'Turns out the charger was fine.');
  assert.equal(withElidedI(nlp, 'Based in Leeds, the firm makes tiles.'), 'Based in Leeds, the firm makes tiles.');
  const x = new EmbeddedExtractor();
  const u = { id: 'u1', sessionId: 's', seq: 1, speakerId: 'p_l', addresseeIds: ['p_b'], text: 'Paid Marcus back for the tickets last night.',
    time: '2026-11-01T10:00:00.000Z', startMs: null, endMs: null, confidence: null, audioRef: null };
  const { facts } = await x.extract({ current: u, previous: [], names: { p_l: 'Lena', p_b: 'Ben' }, unnamed: {} });
  assert.equal(facts[0]?.settles, 'done');
  assert.match(facts[0]?.content ?? '', /^Lena paid Marcus back/);
});
