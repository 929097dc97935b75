/**
 * Set phrases and pleasantries are no memory (issue #16 part 2): a sentence read with its "I" left out must tell of
 * an act (a thing, place, person or time named after its verb), and a pleasantry opened by a word of feeling with
 * nothing named gives no fact. The useful ones stay ("Spoke to Gran this morning", "Started when I was young").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Utterance } from '../../../graph/types.js';
import { EmbeddedExtractor, pleasantry, withElidedI } from '../../../pipelines/memory/embedded-extractor.js';
import { wink } from '../../../pipelines/wink.js';

const x = new EmbeddedExtractor();
const nlp = wink();
const T = '2026-12-01T10:00:00.000Z';
const u = (text: string): Utterance => ({ id: 'u1', sessionId: 's', speakerId: 'p_ana', addresseeIds: ['p_ben'], text,
  startMs: null, endMs: null, time: T, confidence: null, audioRef: null, seq: 1 });
const contents = async (text: string): Promise<string[]> =>
  (await x.extract({ current: u(text), previous: [], names: { p_ana: 'Ana', p_ben: 'Ben' } })).facts.map((f) => f.content);

test('a reaction with its "I" left out names nothing after its verb: read as said, no fact', async () => {
  for (const t of ['Got it covered!', 'Got your back.', 'Got it, Ben.', 'Got it Ben, see you soon!', 'Agreed, Ben!',
    'Agreed, nature has a way of being so inspiring!', 'Felt so refreshing!', 'Blessed we both have this mindset.']) {
    assert.deepEqual(await contents(t), [], t);
  }
  assert.equal(withElidedI(nlp, 'Got it Ben, see you soon!', ['Ben']), 'Got it Ben, see you soon!', "the listener's name is no object");
});

test('an act with its "I" left out still names a thing, a place, a person or a time', async () => {
  // the part of the day stays (text7)
  assert.deepEqual(await contents('Spoke to Gran this morning.'), ['Ana spoke to Gran on the morning of Tuesday 1 December 2026']);
  assert.deepEqual(await contents('Paid Marcus back for the tickets.'), ['Ana paid Marcus back for the tickets']);
  assert.deepEqual(await contents("Started when I was young and it's been great."), ["Ana started when they were young and it's been great"]);
  assert.deepEqual(await contents('Took some trial and error but I figured out a schedule.'),
    ['Ana took some trial and error but they figured out a schedule']);
  assert.deepEqual(await contents('Felt sick yesterday.'), ['Ana felt sick on Monday 30 November 2026']);
});

test('a pleasantry opened by a word of feeling with nothing named is no memory; one that names something stays', async () => {
  for (const t of ['Glad to hear it!', 'Glad to help, Ben.', 'Glad everyone could make it.', 'Awesome to hear from you!', 'Same here!']) {
    assert.ok(pleasantry(nlp, t, ['Ben']), t);
    assert.deepEqual(await contents(t), [], t);
  }
  for (const t of ["Glad your son is okay, Ben.", 'Awesome, Galway looks amazing!', "Blue's my fave.", 'Money-wise, I got some deals.']) {
    assert.ok(!pleasantry(nlp, t, ['Ben']), t);
  }
  // The name Ben is called by is not part of the fact (rules 25).
  assert.deepEqual(await contents('Glad your son is okay, Ben.'), ["Glad Ben's son is okay"]);
});
