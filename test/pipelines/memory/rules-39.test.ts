/**
 * Rules 39, from a newcomer's trial: a day named in a promise or plan told as past lies ahead ("Dan promised me he would
 * fix my laptop by Tuesday"), a fact's date is its own clause's ("Hi, I'm Dana, and next week I start a new job"), a
 * commitment ends at its clause ("i'll send you the contract on friday ... promise"), and two facts joined by "and"
 * are each kept ("I live in Oslo and I work as a nurse").
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EMBEDDED_RULES_VERSION, EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { findDates } from '../../../pipelines/memory/relative-date.js';

/** Friday 4 December 2026, 12:00 UTC. */
const FRIDAY = '2026-12-04T12:00:00.000Z';

async function facts(text: string): Promise<ExtractedFact[]> {
  const r = await new EmbeddedExtractor().extract({
    current: { id: 'u1', speakerId: 'pat', addresseeIds: ['rae'], text, time: FRIDAY, sessionId: 's' } as never, previous: [], names: { pat: 'Pat', rae: 'Rae' },
  });
  return r.facts;
}

describe('rules 39: dates of promises told as past, a fact\'s own clause, clause-bound commitments, "and"-joined facts', () => {
  test('the version is 39 or later', () => {
    assert.ok(EMBEDDED_RULES_VERSION >= 39);
  });

  test('a weekday in a promise, plan or future-in-the-past clause lies ahead', async () => {
    // On main each was read as told of the past ("promised", "said", "was"): Tuesday 1 / Monday 30 November.
    const ahead: Array<[string, string]> = [
      ['Dan promised me he would fix my laptop by Tuesday.', '2026-12-08'],
      ['She said she would call me on Monday.', '2026-12-07'],
      ['He was going to drop the keys off on Wednesday.', '2026-12-09'],
      ['Mia agreed to lend me her van on Sunday.', '2026-12-06'],
    ];
    for (const [text, date] of ahead) assert.equal(findDates(text, FRIDAY)[0]?.date, date, text);
    const promise = (await facts('Dan promised me he would fix my laptop by Tuesday.'))[0];
    assert.equal(promise?.eventTime, '2026-12-08');
    assert.match(promise?.content ?? '', /by Tuesday 8 December 2026/);
  });

  test('a weekday in a plain past report, or a future in the past that did not happen, lies behind', () => {
    const behind: Array<[string, string]> = [
      ['I saw him on Tuesday.', '2026-12-01'],
      ['We went to the cinema on Monday.', '2026-11-30'],
      ['I would have called on Monday, but my phone died.', '2026-11-30'],
    ];
    for (const [text, date] of behind) assert.equal(findDates(text, FRIDAY)[0]?.date, date, text);
  });

  test('a fact takes its date from its own clause, not from a date elsewhere in the sentence', async () => {
    const intro = await facts("Hi, I'm Dana, and next week I start a new job.");
    // On main the name fact was dated 2026-12-07, the week the job starts.
    assert.equal(intro.find((f) => f.slot === 'name')?.eventTime ?? null, null);
    assert.ok(intro.some((f) => f.eventTime === '2026-12-07'), 'the new job keeps its week');
    const moved = await facts('I moved to Oslo last year and I love skiing.');
    assert.equal(moved.find((f) => f.slot === 'lives_in')?.eventTime, '2025');
    // On main the liking was dated 2025 too.
    assert.equal(moved.find((f) => f.slot?.startsWith('preference:'))?.eventTime ?? null, null);
  });

  test('a commitment ends at its clause: a tag said after it ("... promise", ", okay?") is no part of it', async () => {
    for (const text of ["i'll send you the contract on friday ... promise", "I'll send you the contract on Friday, I promise.", "I'll pick you up at six, okay?"]) {
      const said = await facts(text);
      const commitment = said.find((f) => f.kind === 'commitment');
      assert.ok(commitment, text);
      // On main: "Pat will send Rae the contract on Friday 11 December 2026 ... promise", "…, Pat promise", "…, okay".
      assert.doesNotMatch(commitment.content, /\b(?:promise|okay)\b|\.\.\./i, text);
      assert.ok(said.every((f) => !/\bpromise\b/i.test(f.content)), text);
    }
    assert.match((await facts("I'll keep my promise to you.")).find((f) => f.kind === 'commitment')?.content ?? '', /\bpromise to Rae\b/, 'a promise said inside the clause stays');
  });

  test('two facts joined by "and" are each kept: the job beside the home', async () => {
    const names = ['Ana', 'Ben', 'Cleo', 'Dev', 'Eli'];
    for (const [i, text] of ['I live in Oslo and I work as a nurse.', 'I live in Bergen, and I work as a teacher.', 'I work as a plumber and I live in Leeds.',
      "I'm from Lyon and I work as a chef.", 'Well, I live in Porto but I work as a nurse.'].entries()) {
      const r = await new EmbeddedExtractor().extract({
        current: { id: 'u1', speakerId: 'p', addresseeIds: ['rae'], text, time: FRIDAY, sessionId: 's' } as never, previous: [], names: { p: names[i]!, rae: 'Rae' },
      });
      const slots = r.facts.map((f) => f.slot);
      // On main the job was never kept beside the home (0 of these).
      assert.ok(slots.includes('occupation'), `${text}: ${slots.join(', ')}`);
      assert.ok(slots.includes('lives_in') || slots.includes('from'), `${text}: ${slots.join(', ')}`);
    }
  });
});
