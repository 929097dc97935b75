/**
 * Rules 35: no false memories from ordinary sentences. A job needs a job-holder by WordNet, a liking for now, for a time
 * or said again a likeable kind; a holiday end ends its own clause only; a count past belief ends nothing and throws
 * nothing; a liking said again replaces every stored copy of the liking with the value held for now.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Fact } from '../../../graph/memory-store.js';
import { RuleDecider } from '../../../pipelines/memory/decide.js';
import { EMBEDDED_RULES_VERSION } from '../../../pipelines/memory/embedded-extractor.js';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { holdsAJob, likeableThing } from '../../../pipelines/memory/kinds.js';
import { namedEnd } from '../../../pipelines/memory/named-ends.js';
import { countOf, countedLength } from '../../../pipelines/memory/spans.js';
import { stateEnd } from '../../../pipelines/memory/state-end.js';
import { FOR_NOW_PREFERENCE, forNowPreference, preferenceSaidAgain } from '../../../pipelines/memory/temporary-slots.js';
import { defaultWordNet } from '../../../pipelines/retrieval/wordnet.js';
import { factsSaid } from '../../helpers/extract-said.js';
import { storedFact } from '../../helpers/stored-fact.js';

/** Tuesday 1 December 2026, 12:00 UTC. */
const TUESDAY = '2026-12-01T12:00:00.000Z';
const OTHERS = [['tom', 'Tom']] as const;

const facts = (text: string, time = TUESDAY): Promise<ExtractedFact[]> => factsSaid(text, time, ['pat', 'Pat'], ['rae', 'Rae'], OTHERS);

const isJob = (f: ExtractedFact): boolean => f.slot === 'occupation' || f.slot === 'works_at';
const isLiking = (f: ExtractedFact): boolean => f.kind === 'preference' || /^(?:preference|favourite):/.test(f.slot ?? '');

describe('rules 35: jobs, likings and ends a person would write', () => {
  test('the version is 35 or later', () => {
    assert.ok(EMBEDDED_RULES_VERSION >= 35);
  });

  test('WordNet gives a noun its kinds: the most common sense, every sense when none is ranked', () => {
    const wn = defaultWordNet();
    assert.equal(wn.nounKinds('lifeguard')[0]?.lexFile, 'noun.person');
    assert.ok(wn.nounKinds('lifeguard')[0]?.ancestors.includes('worker'));
    assert.equal(wn.nounKinds('red wine')[0]?.lexFile, 'noun.food');
    // "jazz" has no ranked sense: the music genre is among them.
    assert.ok(wn.nounKinds('jazz').some((s) => s.ancestors.includes('music')));
    assert.deepEqual(wn.nounKinds('qwzx'), []);
  });

  test('a job needs a job-holder: "I\'m a mess this week" is none, "I\'m a lifeguard for the summer" one', async () => {
    for (const text of ["I'm a mess this week.", "I'm a zombie until I've had my coffee.", "I'm an early riser these days.",
      "I'm a nervous wreck until the results come out.", "Tom's a real handful over the holidays.", "I'm a complete beginner at chess for now."]) {
      assert.deepEqual((await facts(text)).filter(isJob), [], text);
    }
    const cases: Array<[string, string, string]> = [
      ["I'm a lifeguard for the summer.", 'pat', 'lifeguard'],
      ["I'm a barista for the holidays.", 'pat', 'barista'],
      ['I work as a nurse.', 'pat', 'nurse'],
      ["I'm a software engineer.", 'pat', 'software engineer'],
      ["I'm a ski instructor until April.", 'pat', 'ski instructor'],
      ['Tom is a postman for the holidays.', 'tom', 'postman'],
    ];
    for (const [text, who, value] of cases) {
      const job = (await facts(text)).find(isJob);
      assert.deepEqual([job?.subjectId, job?.slot, job?.value], [who, 'occupation', value], text);
    }
    const noun = (): boolean => true;
    assert.equal(holdsAJob('grandmother', noun), false);
    assert.equal(holdsAJob('chef', noun), true);
    // Not in WordNet: the tagger's noun, or a word for a person by its ending.
    assert.equal(holdsAJob('postwoman', () => false), true);
  });

  test('a liking for now or for a time needs a likeable kind; an unlikeable one is said as a statement', async () => {
    for (const text of ['For now I like the plan.', "I'm into the idea this week.", 'I prefer Tuesday for now.', "I'm watching Max this week.",
      "I'm reading the contract this week.", 'At the moment I prefer the morning slot.', "I'm eating lunch at my desk this week."]) {
      const got = await facts(text);
      assert.deepEqual(got.filter(isLiking), [], text);
      assert.ok(got.length > 0, `${text}: still told as said`);
    }
    const cases: Array<[string, string]> = [
      ["For now I'm drinking decaf.", 'decaf'], ["At the moment I'm into jazz.", 'jazz'], ["This week I'm really into techno.", 'techno'],
      ["I'm reading poetry for a month.", 'poetry'], ["I'm drinking rooibos for now.", 'rooibos'], ["I'm watching the Max show this week.", 'Max show'],
      ["These days I'm into baking.", 'baking'], ['For now I prefer kombucha.', 'kombucha'], ["At the moment I'm into hip hop.", 'hip hop'],
      // Capitalised, and a kind WordNet lists: a liking, though no "show" or "book" is said.
      ["For now I'm drinking Darjeeling.", 'Darjeeling'], ["At the moment I'm eating Thai curry.", 'Thai curry'],
    ];
    for (const [text, value] of cases) {
      const got = await facts(text);
      assert.deepEqual(got.filter(isLiking).map((f) => [f.slot, f.value]), [[FOR_NOW_PREFERENCE, value]], text);
    }
    assert.equal(forNowPreference('For now I like your idea.'), null);
    assert.equal(likeableThing('thrillers', "I'm into thrillers"), true);
    assert.equal(likeableThing('whatever\'s in the fridge', "I'm eating whatever's in the fridge", true), false);
  });

  test('a liking said again needs a likeable kind: "back on the night shift" is none', async () => {
    for (const text of ["I'm back on the night shift.", "I'm back on the waiting list.", "I've gone back to the old password.", "I'm back on antibiotics."]) {
      assert.equal(preferenceSaidAgain(text), null, text);
      assert.deepEqual((await facts(text)).filter(isLiking), [], text);
    }
    assert.equal(preferenceSaidAgain("I'm back on regular coffee."), 'regular coffee');
  });

  test('a holiday end ends its own clause, the first: not a state said before it', async () => {
    for (const text of ["I'm working from home, but over the holidays Mum is here.", "I'm working from home, and over the holidays we are at Mum's.",
      "I'm on nights, and we're at Gran's until Christmas."]) {
      assert.equal(namedEnd(text, TUESDAY), null, text);
      assert.deepEqual((await facts(text)).filter((f) => f.validUntil), [], text);
    }
    for (const text of ["I'm a barista for the holidays, so I'll be busy.", "Over the holidays, I'm a postman.", "I'm at Mum's until Christmas, and then home.",
      "Good news, and I'm a postman over the holidays."]) {
      assert.notEqual(namedEnd(text, TUESDAY), null, text);
    }
  });

  test('a count past belief ends nothing and throws nothing', async () => {
    assert.equal(countOf('3660'), 3660);
    assert.equal(countOf('100000'), null);
    assert.equal(countedLength('for 100000 days'), null);
    assert.equal(countedLength('for 3000 weeks'), null);
    assert.equal(countedLength('for 300 months'), null);
    assert.deepEqual(countedLength('for 118 months'), { count: 118, unit: 'month' });
    for (const text of ["I'm staying here for 100000000 nights.", "I'm off for 100000000 days.", "I'm off for 100000 days."]) {
      assert.equal(stateEnd(text, TUESDAY), null, text);
      assert.deepEqual((await facts(text)).filter((f) => f.validUntil), [], text);
    }
    assert.equal(stateEnd("I'm off for two weeks.", TUESDAY), '2026-12-15T12:00:00.000Z');
  });

  test('a liking said again replaces the value held for now and every stored copy of the liking', async () => {
    const stored = (id: string, slot: string, value: string): Fact =>
      storedFact(TUESDAY, { id, content: value, kind: 'preference', slot, value, subjectId: 'pat', speakerId: 'pat' });
    const [again] = await facts("I'm back on coffee.");
    const d = new RuleDecider();
    // "I love coffee" stored the value "love": said again with "back on", it is replaced all the same.
    const loved = stored('loved', 'preference:coffee', 'love');
    const decaf = stored('decaf', FOR_NOW_PREFERENCE, 'decaf');
    assert.deepEqual(await d.decide({ fact: again!, candidates: [{ fact: loved, score: 0.9 }, { fact: decaf, score: 0.3 }], retractedFacts: [] }),
      { op: 'UPDATE', targetId: 'decaf', alsoReplaces: ['loved'] });
    assert.deepEqual(await d.decide({ fact: again!, candidates: [{ fact: decaf, score: 0.3 }], retractedFacts: [] }), { op: 'UPDATE', targetId: 'decaf' });
  });
});
