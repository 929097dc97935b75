/**
 * Rules 43 (issue #16 items 2-4, the rules43 backlog): "store nothing" is one explicit decision (`NOOP`), on the rules and
 * the LLM path; a liking and its withdrawal name one slot ("video games"); a month after a past verb whose form is its
 * lemma lies behind with a noun subject too ("my sister quit in May"); and only "last / past / previous" before a time
 * looks back ("the last time I'll see him is Friday" is ahead). Each test fails on main ef215fc (what it did there in the
 * comment) unless it says it pins what main already did.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Fact } from '../../../graph/memory-store.js';
import { RuleDecider, type Candidate } from '../../../pipelines/memory/decide.js';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import type { LlmJsonClient } from '../../../pipelines/memory/llm-client.js';
import { LlmDecider } from '../../../pipelines/memory/llm-decider.js';
import { DECIDE_PROMPT_VERSION, DECIDE_SCHEMA, DECIDE_SYSTEM_PROMPT } from '../../../pipelines/memory/llm-prompts.js';
import { findDates } from '../../../pipelines/memory/relative-date.js';
import { factsSaid, slotsOf } from '../../helpers/extract-said.js';
import { lostBy } from '../../helpers/lost-by.js';
import { storedFact } from '../../helpers/stored-fact.js';

const T0 = '2026-12-01T10:00:00.000Z';
const MARCH = '2026-03-10T12:00:00Z';
const DECEMBER = '2026-12-03T15:00:00Z';
const facts = (text: string, time = DECEMBER): Promise<ExtractedFact[]> => factsSaid(text, time, ['pat', 'Pat'], ['rae', 'Rae']);

/** A new fact of Ana's for a decider. */
function said(over: Partial<ExtractedFact> & Pick<ExtractedFact, 'content'>): ExtractedFact {
  return { kind: 'profile', subjectId: 'ana', speakerId: 'ana', addresseeIds: [], slot: null, value: null, retraction: false,
    confidence: 0.7, referIds: ['u9'], ...over };
}

/** A stored fact of Ana's, as a candidate of cosine `score`. */
function held(id: string, slot: string, value: string | null, content: string, score = 0.5, kind: Fact['kind'] = 'profile'): Candidate {
  return { fact: storedFact(T0, { id, content, speakerId: 'ana', subjectId: 'ana', kind, slot, value }), score };
}

/** An LLM client whose every answer is `reply`. */
function answering(reply: object): LlmJsonClient {
  return { complete: async () => reply } as unknown as LlmJsonClient;
}

describe('rules 43: storing nothing is one explicit decision (item 1)', () => {
  const photographer = said({ content: 'Ana is not a photographer anymore', slot: 'occupation', value: 'photographer', retraction: true });
  const tesco = said({ content: 'Ana left tesco', slot: 'works_at', value: 'tesco', retraction: true });

  test('a withdrawal of a named value no one holds is a NOOP, not a DELETE of nothing', async () => {
    const d = new RuleDecider();
    // On main: { op: 'DELETE', targetIds: [] }, which the writer turned into nothing by a special case.
    assert.deepEqual(await d.decide({ fact: photographer, candidates: [held('f_nurse', 'occupation', 'nurse', 'Ana is a nurse')], retractedFacts: [] }),
      { op: 'NOOP', reason: 'value_not_held' });
    assert.deepEqual(await d.decide({ fact: tesco, candidates: [held('f_bank', 'works_at', 'the bank', 'Ana works at the bank')], retractedFacts: [] }),
      { op: 'NOOP', reason: 'value_not_held' });
    // What holds the value is ended as before; a slot holding nothing stores the withdrawal (rules 42).
    assert.deepEqual(await d.decide({ fact: tesco, candidates: [held('f_tesco', 'works_at', 'Tesco', 'Ana works at Tesco')], retractedFacts: [] }),
      { op: 'DELETE', targetIds: ['f_tesco'] });
    assert.deepEqual(await d.decide({ fact: tesco, candidates: [], retractedFacts: [] }), { op: 'ADD' });
  });

  test('through the store a NOOP ends and stores nothing (pins what main did by its special case)', async () => {
    const { lost, now } = await lostBy('r43-photographer', ["I'm a nurse."], "I'm not a photographer anymore.");
    assert.deepEqual(lost, []);
    assert.deepEqual(now, ['occupation=nurse']);
  });

  test('the extractor marks no withdrawal "named only": one mechanism, in the decider', async () => {
    // On main: "i left google" and "i don't work at the weekend now" carried `namedOnly: true`.
    for (const text of ['i left google', "i don't work at the weekend now"]) {
      const got = await facts(text);
      assert.ok(got.some((f) => f.retraction && f.slot === 'works_at' && f.value !== null), text);
      assert.ok(got.every((f) => !('namedOnly' in f)), text);
    }
  });

  test('the LLM decider can say "store nothing", only for a withdrawal of a named value', async () => {
    const candidates = [held('f_nurse', 'occupation', 'nurse', 'Ana is a nurse')];
    const noop = new LlmDecider(answering({ op: 'NOOP', ids: [], also_replaces: [] }));
    // On main: a NOOP reply was no operation it knew, so the fact was added.
    assert.deepEqual(await noop.decide({ fact: photographer, candidates, retractedFacts: [] }), { op: 'NOOP', reason: 'value_not_held' });
    // Said of anything else the reply would drop what was told: it is added.
    const statement = said({ content: 'Ana is a photographer', slot: 'occupation:photographer', value: 'photographer' });
    assert.deepEqual(await noop.decide({ fact: statement, candidates, retractedFacts: [] }), { op: 'ADD' });
    assert.deepEqual(await noop.decide({ fact: { ...photographer, value: null }, candidates, retractedFacts: [] }), { op: 'ADD' });
    assert.ok(Number(/^decide-v(\d+)$/.exec(DECIDE_PROMPT_VERSION)?.[1]) >= 5, DECIDE_PROMPT_VERSION);
    assert.ok((DECIDE_SCHEMA.properties.op.enum as readonly string[]).includes('NOOP'));
    assert.match(DECIDE_SYSTEM_PROMPT, /with none of that job, NOOP/);
  });
});

describe('rules 43: a liking and its withdrawal name one slot (item 2)', () => {
  test('"video games" liked, given up and gone off are one slot', async () => {
    // On main: "preference:video games=love" beside "preference:video game ended" / "=dislike".
    assert.deepEqual(slotsOf(await facts('I love video games')), ['preference:video game=love']);
    assert.deepEqual(slotsOf(await facts("i'm not into video games anymore")), ['preference:video game ended']);
    assert.deepEqual(slotsOf(await facts("I've gone off video games")), ['preference:video game=dislike']);
    // Words whose "s" is no plural keep it; a long span keeps its words (rules 42).
    assert.deepEqual(slotsOf(await facts('I love the news')), ['preference:news=love']);
    assert.deepEqual(slotsOf(await facts('I love hummus')), ['preference:hummus=love']);
    assert.deepEqual(slotsOf(await facts('I love Christmas')), ['preference:christmas=love']);
    assert.deepEqual(slotsOf(await facts('I love board games')), ['preference:board game=love']);
  });

  test('a taste gone off replaces the liking, stored before rules 43 with the plural too', async () => {
    // On main: both stayed current, "loves video games" and "has gone off video games".
    const { lost } = await lostBy('r43-games', ['I love video games.'], "I've gone off video games.");
    assert.deepEqual(lost, ['preference:video game=love']);
    const d = new RuleDecider();
    const dislike = said({ content: 'Ana has gone off video games', kind: 'preference', slot: 'preference:video game', value: 'dislike' });
    const old = held('f_old', 'preference:video games', 'love', 'Ana loves video games', 0.6, 'preference');
    assert.deepEqual(await d.decide({ fact: dislike, candidates: [old], retractedFacts: [] }), { op: 'UPDATE', targetId: 'f_old' });
    const gone = said({ content: 'Ana is not into video games anymore', kind: 'preference', slot: 'preference:video game', retraction: true });
    assert.deepEqual(await d.decide({ fact: gone, candidates: [{ ...old, score: 0 }], retractedFacts: [] }), { op: 'DELETE', targetIds: ['f_old'] });
  });
});

describe('rules 43: a month after a past verb said of someone else lies behind (item 3)', () => {
  test('"my sister quit in May", said in March, is last May', async () => {
    // On main: May 2026, to come.
    for (const text of ['My sister quit in May', 'Tom quit his job in May', 'my boss quit in may', 'the company shut down in May']) {
      assert.equal((await facts(text, MARCH))[0]?.eventTime, '2025-05', text);
    }
  });

  test('the first person and forms to come, as main read them (pins)', async () => {
    assert.equal((await facts('I quit in May', MARCH))[0]?.eventTime, '2025-05');
    assert.equal((await facts("I'm quitting in May", MARCH))[0]?.eventTime, '2026-05');
    assert.equal((await facts("I'm quitting in May"))[0]?.eventTime, '2027-05');
    assert.equal((await facts('my sister will quit in May', MARCH))[0]?.eventTime, '2026-05');
    assert.equal(findDates('the bus will quit in May', MARCH)[0]?.date, '2026-05');
  });
});

describe('rules 43: only "last" before a time looks back (item 4)', () => {
  const date = (text: string): string | undefined => findDates(text, MARCH)[0]?.date;

  test('"last", "past" and "previous" not before a time date nothing behind', () => {
    // On main each was Friday 6 March, the Friday before it was said (Tuesday 10 March).
    assert.equal(date("the last time I'll see him is Friday"), '2026-03-13');
    assert.equal(date('my last exam is on Friday'), '2026-03-13');
    assert.equal(date("I'll meet you at half past six on Friday"), '2026-03-13');
    assert.equal(date('the previous owner is coming round on Friday'), '2026-03-13');
    // A week of something else is no week gone by (on main: June 2025).
    assert.equal(date("I'm away the last week of June"), '2026-06');
  });

  test('"last / past / previous" before a time still look back (pins)', () => {
    assert.equal(date('I saw him last Friday'), '2026-03-06');
    assert.equal(date('this past weekend I went hiking'), '2026-03-08');
    assert.equal(findDates('last week I went to Paris on Friday', MARCH).at(-1)?.date, '2026-03-06');
    assert.equal(findDates('in the last few days it rained on Sunday', MARCH).at(-1)?.date, '2026-03-08');
  });
});
