/**
 * Rules 36: each clause's fact ends as its own clause says; "Italian food" and "Thai food" are likings, a word WordNet
 * does not list is no liking when it is only listened to or watched ("a podcast"), still one when drunk or liked
 * ("kombucha"); "I'm a model" is a job, "I'm a mess", "I'm a star", "I'm a Seagulls man" are none.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EMBEDDED_RULES_VERSION, EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { clauseEnds, endOfValue } from '../../../pipelines/memory/clause-ends.js';
import { holdsAJob, likeableThing } from '../../../pipelines/memory/kinds.js';
import { FOR_NOW_PREFERENCE } from '../../../pipelines/memory/temporary-slots.js';

/** Tuesday 1 December 2026, 12:00 UTC: "the holidays" are the Christmas ones, ending on 2 January. */
const TUESDAY = '2026-12-01T12:00:00.000Z';
const HOLIDAYS_END = '2027-01-02T00:00:00.000Z';
const NEXT_MONDAY = '2026-12-07T00:00:00.000Z';

async function facts(text: string): Promise<ExtractedFact[]> {
  const r = await new EmbeddedExtractor().extract({
    current: { id: 'u1', speakerId: 'pat', addresseeIds: ['rae'], text, time: TUESDAY, sessionId: 's' } as never, previous: [], names: { pat: 'Pat', rae: 'Rae' },
  });
  return r.facts;
}

const jobOf = async (text: string): Promise<ExtractedFact | undefined> => (await facts(text)).find((f) => f.slot === 'occupation');
const likings = async (text: string): Promise<Array<[string | null, string | null]>> =>
  (await facts(text)).filter((f) => f.kind === 'preference').map((f) => [f.slot, f.value]);

describe('rules 36: ends per clause, food and music likings, jobs by a less common sense', () => {
  test('the version is 36 or later', () => {
    assert.ok(EMBEDDED_RULES_VERSION >= 36);
  });

  test('a fact ends as the clause that says its value: the holidays end the job said beside them, not the one before', async () => {
    const ended: Array<[string, string | null]> = [
      ["I'm working from home, and I'm a postman over the holidays.", HOLIDAYS_END],
      ["I'm tired, but I'm a postman over the holidays.", HOLIDAYS_END],
      ["I'm working from home this week, and I'm a postman over the holidays.", HOLIDAYS_END],
      // The week ends working from home, not the job said before it.
      ["I'm a postman, and I'm working from home this week.", null],
      // One clause, or a clause with no verb of its own, as before.
      ["Over the holidays, I'm a postman.", HOLIDAYS_END],
      ["I'm a postman over the holidays.", HOLIDAYS_END],
      ["Good news, and I'm a postman over the holidays.", HOLIDAYS_END],
    ];
    for (const [text, until] of ended) {
      const job = await jobOf(text);
      assert.deepEqual([job?.value, job?.validUntil], ['postman', until], text);
    }
  });

  test('clauseEnds cuts a sentence at its clauses with verbs; endOfValue finds the clause of a value', () => {
    const text = "I'm working from home this week, and I'm a postman over the holidays.";
    const clauses = clauseEnds(text, TUESDAY);
    assert.deepEqual(clauses.map((c) => c.until), [NEXT_MONDAY, HOLIDAYS_END]);
    assert.equal(endOfValue(text, clauses, 'postman', NEXT_MONDAY), HOLIDAYS_END);
    assert.equal(endOfValue(text, clauses, 'home', null), NEXT_MONDAY);
    // A value not said as written, or only inside another word, keeps the sentence's end.
    assert.equal(endOfValue(text, clauses, 'like', NEXT_MONDAY), NEXT_MONDAY);
    assert.equal(endOfValue(text, clauses, 'man', NEXT_MONDAY), NEXT_MONDAY);
    const art = "I'm starting this week, and I'm into art over the holidays.";
    assert.equal(endOfValue(art, clauseEnds(art, TUESDAY), 'art', null), HOLIDAYS_END);
    assert.equal(endOfValue('I fixed it (again), and I use C++ until Friday.', clauseEnds('I fixed it (again), and I use C++ until Friday.', TUESDAY), 'C++', null), '2026-12-05T00:00:00.000Z');
    // A piece with no verb belongs to its neighbour: one clause.
    assert.equal(clauseEnds("Over the holidays, I'm a postman.", TUESDAY).length, 1);
    assert.equal(clauseEnds("I'm a barista for the holidays and weekends.", TUESDAY).length, 1);
  });

  test('"Italian food", "Thai food": a kind word as the head is a liking, said for now or lasting', async () => {
    assert.deepEqual(await likings("For now I'm into Thai food."), [[FOR_NOW_PREFERENCE, 'Thai food']]);
    assert.deepEqual(await likings('At the moment I love Italian food.'), [[FOR_NOW_PREFERENCE, 'Italian food']]);
    assert.deepEqual(await likings("These days I'm into Korean music."), [[FOR_NOW_PREFERENCE, 'Korean music']]);
    assert.equal((await likings('I love Italian food.')).length, 1);
    assert.equal(likeableThing('spicy food', "I'm into spicy food"), true);
    assert.equal(likeableThing('Thai cuisine', "I'm into Thai cuisine"), true);
  });

  test('a word WordNet does not list is a liking when liked, drunk or eaten, not when one of it is listened to or watched', async () => {
    for (const text of ["I'm listening to a podcast about taxes right now.", "For now I'm listening to a podcast."]) {
      assert.deepEqual(await likings(text), [], text);
      assert.ok((await facts(text)).length > 0, `${text}: still told as said`);
    }
    assert.deepEqual(await likings("For now I'm drinking kombucha."), [[FOR_NOW_PREFERENCE, 'kombucha']]);
    assert.deepEqual(await likings("For now I'm into kombucha."), [[FOR_NOW_PREFERENCE, 'kombucha']]);
    assert.deepEqual(await likings('For now I prefer kombucha.'), [[FOR_NOW_PREFERENCE, 'kombucha']]);
    // A kind WordNet lists is a liking however it is said.
    assert.deepEqual(await likings("At the moment I'm listening to jazz."), [[FOR_NOW_PREFERENCE, 'jazz']]);
    // Said bare, with no article, it names a kind one likes ("synthwave"), not one thing one does ("a podcast").
    assert.deepEqual(await likings("For now I'm listening to synthwave."), [[FOR_NOW_PREFERENCE, 'synthwave']]);
    assert.deepEqual(await likings("These days I'm reading manga."), [[FOR_NOW_PREFERENCE, 'manga']]);
    assert.deepEqual(await likings("These days I'm watching a vlog about vans."), []);
    assert.equal(likeableThing('podcast', "I'm listening to a podcast", 'done'), false);
    assert.equal(likeableThing('podcast', "I'm into podcasts", 'liked'), true);
  });

  test('"I\'m a model" is a job by its sense that works for a living; praise, animals and people of no trade are none', async () => {
    assert.deepEqual((await jobOf("I'm a model."))?.value, 'model');
    for (const text of ["I'm a mess.", "I'm a star.", "I'm a man.", "I'm a rock.", "I'm a rat.", "I'm a Seagulls man.", "I'm a die-hard Android person."]) {
      assert.equal(await jobOf(text), undefined, text);
    }
    // Only the bare "I'm a model" reads the less common sense; a model said within a phrase keeps the commonest.
    assert.equal(holdsAJob('model', () => true), false);
    assert.equal(holdsAJob('model', () => true, undefined, true), true);
    assert.deepEqual((await jobOf("I'm a nurse."))?.value, 'nurse');
  });
});
