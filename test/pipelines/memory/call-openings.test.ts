/**
 * Spoken call openings and agent turns (calls2, newcomer trial8 F6, F8, F9): a greeting and self-introduction that opens
 * a turn is cut off and the rest read as said; "hi this is <name>" names the caller; an agent's "Done Maria, …" or
 * "Tom, …" keeps no vocative; "Parcelo support, Raj speaking" is no fact and no evidence.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import type { ExtractionResult } from '../../../pipelines/memory/extractor.js';
import { withoutPhatic } from '../../../pipelines/memory/call-phrases.js';
import { openingIntroduction } from '../../../pipelines/memory/opening-introduction.js';
import { hasContent } from '../../../pipelines/retrieval/turn-evidence.js';

const TIME = '2026-12-01T10:00:00.000Z';

/** What the rules read from `text` said by `a` to `to`, names as given (null: not known yet), as recognised speech is. */
function extract(text: string, names: Record<string, string | null>, to: string[] = ['b']): Promise<ExtractionResult> {
  return new EmbeddedExtractor().extract({
    current: { id: 'u1', speakerId: 'a', addresseeIds: to, text, time: TIME, sessionId: 's', confidence: 0.71 } as never,
    previous: [], names,
  });
}
const contents = (r: ExtractionResult): string[] => r.facts.map((f) => f.content);

describe('calls2 F6: a greeting and self-introduction opening a turn', () => {
  test('the rest of an unpunctuated turn is read as said', async () => {
    const said = await extract('hello this is nina cole please send it to my office at 8 canal street leeds', { a: 'Nina Cole', b: 'Agent Kim' });
    assert.ok(contents(said).includes('Nina Cole asked Agent Kim to send it to their office at 8 canal street leeds'), JSON.stringify(contents(said)));
    const order = await extract('hello this is nina cole i ordered a red toaster order 3300 and it arrived broken please send a new one to my office',
      { a: 'Nina Cole', b: 'Agent Kim' });
    assert.deepEqual(order.facts.filter((f) => f.slot !== 'name').map((f) => f.content), ['Nina Cole ordered a red toaster order 3300 and it arrived broken',
      'Nina Cole asked Agent Kim to send a new one to their office']);
  });

  test('a greeting alone before the caller\'s clause hides nothing', async () => {
    for (const [text, fact] of [['Hi, I would like to return my toaster.', 'Customer would like to return their toaster'],
      ['hello i ordered a kettle and it never came', 'Customer ordered a kettle and it never came']] as const) {
      const said = await extract(text, { a: 'Customer', b: 'Agent Kim' });
      assert.deepEqual(contents(said), [fact], text);
    }
  });

  test('the cut: the introduction, then the clause after it; nothing cut without one', () => {
    assert.deepEqual(openingIntroduction('hello this is nina cole please send it to my office'),
      ['hello this is nina cole.', 'Please send it to my office']);
    assert.deepEqual(openingIntroduction('Hi, this is Maria Lopez, I want to change my address.'),
      ['Hi, this is Maria Lopez.', 'I want to change my address.']);
    assert.deepEqual(openingIntroduction('Hello, I ordered a kettle.'), ['I ordered a kettle.']);
    for (const whole of ['this is great I love it', 'this is the parcel I ordered', 'hello there', 'Hi Ben, I moved']) {
      assert.deepEqual(openingIntroduction(whole), [whole]);
    }
  });
});

describe('calls2 F8: "hi this is <name>" introduces the caller', () => {
  test('an unnamed caller is named, and the rest is theirs, said to the agent or to no one', async () => {
    for (const to of [['b'], []]) {
      const r = await extract('hi this is maria lopez i want to change my delivery address', { a: null, b: 'Agent Kim' }, to);
      assert.deepEqual(r.facts.map((f) => [f.content, f.slot, f.subjectId, f.addresseeIds]), [
        ["The speaker's name is Maria Lopez", 'name', 'a', to],
        ['Maria Lopez wants to change their delivery address', null, 'a', to]], `to ${to.length}`);
      assert.deepEqual(r.profileUpdates.map((p) => [p.participantId, p.attribute, p.value]), [['a', 'name', 'Maria Lopez']]);
    }
  });

  test('typed, with a greeting; "This is Boston." alone names no one', async () => {
    assert.deepEqual(contents(await extract('Hello, this is Nina Cole.', { a: null, b: 'Agent Kim' })), ["The speaker's name is Nina Cole"]);
    assert.ok(!(await extract('This is Boston.', { a: null, b: 'Agent Kim' })).facts.some((f) => f.slot === 'name'));
  });
});

describe('calls2 F9: agent turns', () => {
  test('an acknowledgement and the caller\'s name called before what is said are no part of the fact', async () => {
    const done = await extract('Done Maria, the new delivery address is 4 Mill Lane, York.', { a: 'Agent Raj', b: 'Maria Lopez' });
    assert.ok(contents(done).every((c) => !/\b(?:done|Maria)\b/i.test(c)) && done.facts.length > 0, JSON.stringify(contents(done)));
    const tom = await extract('Tom, I have cancelled order 5520.', { a: 'Agent Kim', b: 'Tom Becker' });
    assert.deepEqual(contents(tom), ['Agent Kim has cancelled order 5520']);
  });

  test('trial11 F5: an acknowledgement, with or without a name, opens no fact when the listener is unknown, unnamed or named otherwise', async () => {
    const listeners: [string, Record<string, string | null>, string[]][] = [
      ['no one known', { a: 'Agent Sam' }, []], ['the caller, not named yet', { a: 'Agent Sam', b: null }, ['b']],
      ['a caller named otherwise', { a: 'Agent Sam', b: 'Nina Cole' }, ['b']]];
    for (const [who, names, to] of listeners) {
      for (const text of ['Done Tom, the new delivery address is 4 Mill Lane.', 'No problem, the new delivery address is 4 Mill Lane.',
        'No problem Tom, the new delivery address is 4 Mill Lane.', 'No problem, Tom, the new delivery address is 4 Mill Lane.']) {
        assert.deepEqual(contents(await extract(text, names, to)), ['The new delivery address is 4 Mill Lane'], `${text} (to ${who})`);
      }
      const done = contents(await extract('Done Tom, your repair is booked for Tuesday.', names, to));
      assert.ok(done.every((c) => !/\b(?:done|Tom|listener)\b/i.test(c)), `${JSON.stringify(done)} (to ${who})`);
      assert.deepEqual(contents(await extract('No problem Tom, I have cancelled order 5520.', names, to)), ['Agent Sam has cancelled order 5520'], who);
    }
    // A name that is part of what is said stays, and so does an answer's "no" or "yes".
    assert.deepEqual(contents(await extract('Sure, Tom is handling the refund.', { a: 'Agent Sam', b: null }, ['b'])), ['Tom is handling the refund']);
  });

  test('an agent answering the phone is no fact and no evidence', async () => {
    for (const text of ['Parcelo support, Raj speaking.', 'Parcelo, Kim speaking.', 'parcelo support raj speaking how can i help you']) {
      assert.deepEqual(contents(await extract(text, { a: 'Agent Raj', b: 'Maria Lopez' })), [], text);
      assert.equal(hasContent(text), false, text);
    }
    assert.equal(hasContent('thank you for calling brightside home services how can i help you'), false);
    for (const kept of ['I was speaking to Tom about the refund', 'she is not speaking to her brother']) {
      assert.equal(withoutPhatic(kept), kept);
      assert.equal(hasContent(kept), true, kept);
    }
  });
});
