import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Participant } from '../../../graph/types.js';
import { answerQuestion } from '../../../pipelines/retrieval/agentic-query.js';
import { eachSubjectPlaced, jointSubjects, secondSessionPlaced } from '../../../pipelines/retrieval/joint-subjects.js';
import type { Retriever } from '../../../pipelines/retrieval/retriever.js';
import { anaBenFixture, type AnaBenSessions, type MemoryFixture } from '../../helpers/memory-fixture.js';

const person = (id: string, name: string, aliases: string[] = []): Participant => ({
  id, name, externalId: null, aliases, attributes: {}, voiceprintCount: 0, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z',
});
const PEOPLE = [person('p_jon', 'Jon'), person('p_gina', 'Gina'), person('p_tim', 'Tim Baker'), person('p_ana', 'Ana')];

describe('people a question names together', () => {
  test('two names joined by "and" or "&", anywhere in the question, possessive or not', () => {
    assert.deepEqual(jointSubjects('What do Jon and Gina both have in common?', PEOPLE), ['p_jon', 'p_gina']);
    assert.deepEqual(jointSubjects('What movies have both Gina and Jon seen?', PEOPLE), ['p_gina', 'p_jon']);
    assert.deepEqual(jointSubjects("Who is Tim and Jon's favourite player?", PEOPLE), ['p_tim', 'p_jon']);
    assert.deepEqual(jointSubjects('What do Tim Baker & Ana like?', PEOPLE), ['p_tim', 'p_ana']);
  });

  test('none for one name, names not joined, addressees, or a name two people share', () => {
    assert.deepEqual(jointSubjects('What does Jon like?', PEOPLE), []);
    assert.deepEqual(jointSubjects('What did Jon tell Gina about the studio?', PEOPLE), []);
    assert.deepEqual(jointSubjects('What did Ana promise Jon and Gina?', PEOPLE, ['p_jon', 'p_gina']), []);
    assert.deepEqual(jointSubjects('What do Jon and dancers share?', PEOPLE), []);
    const twins = [...PEOPLE, person('p_gina2', 'Gina')];
    assert.deepEqual(jointSubjects('What do Jon and Gina both have in common?', twins), []);
  });
});

describe('each joint subject in the answer', () => {
  const item = (id: string, ...by: string[]): { id: string; by: string[] } => ({ id, by });
  const ids = (xs: readonly { id: string }[]): string[] => xs.map((x) => x.id);

  test("the missing subject's best item takes the lowest place that is neither the first nor another subject's only one", () => {
    const kept = [item('j1', 'jon'), item('j2', 'jon'), item('j3', 'jon'), item('j4', 'jon'), item('j5', 'jon')];
    const rest = [item('x', 'tim'), item('g1', 'gina'), item('g2', 'gina')];
    assert.deepEqual(ids(eachSubjectPlaced(kept, rest, ['jon', 'gina'], 5)), ['j1', 'j2', 'j3', 'j4', 'g1']);
    // Jon's only place is kept, whatever its rank; a place by neither is given up first from the bottom.
    const mixed = [item('t1', 'tim'), item('j1', 'jon'), item('t2', 'tim'), item('t3', 'tim'), item('t4', 'tim')];
    assert.deepEqual(ids(eachSubjectPlaced(mixed, rest, ['jon', 'gina'], 5)), ['t1', 'j1', 't2', 't3', 'g1']);
    const jonLast = [item('t1', 'tim'), item('t2', 'tim'), item('t3', 'tim'), item('t4', 'tim'), item('j1', 'jon')];
    assert.deepEqual(ids(eachSubjectPlaced(jonLast, rest, ['jon', 'gina'], 5)), ['t1', 't2', 't3', 'j1', 'g1']);
  });

  test('unchanged: both subjects there, a short answer, one subject, nothing usable by the missing one, or only the first place to give', () => {
    const both = [item('j1', 'jon'), item('g1', 'gina'), item('j2', 'jon')];
    assert.deepEqual(ids(eachSubjectPlaced(both, [item('g2', 'gina')], ['jon', 'gina'], 3)), ['j1', 'g1', 'j2']);
    const short = [item('j1', 'jon'), item('j2', 'jon')];
    assert.deepEqual(ids(eachSubjectPlaced(short, [item('g1', 'gina')], ['jon', 'gina'], 5)), ['j1', 'j2']);
    const full = [item('j1', 'jon'), item('j2', 'jon')];
    assert.deepEqual(ids(eachSubjectPlaced(full, [item('g1', 'gina')], ['jon'], 2)), ['j1', 'j2']);
    assert.deepEqual(ids(eachSubjectPlaced(full, [item('g1', 'gina')], ['jon', 'gina'], 2, () => false)), ['j1', 'j2']);
    assert.deepEqual(ids(eachSubjectPlaced([item('j1', 'jon')], [item('g1', 'gina')], ['jon', 'gina'], 1)), ['j1']);
  });
});

describe('a second session in a list\'s answer', () => {
  const item = (id: string, session: string | null): { id: string; session: string | null } => ({ id, session });
  const ids = (xs: readonly { id: string }[]): string[] => xs.map((x) => x.id);
  const sessionOf = (x: { session: string | null }): string | null => x.session;

  test('a full answer from one session gives its last place to the best item of another session', () => {
    const kept = [item('a1', 's1'), item('a2', 's1'), item('a3', 's1')];
    const rest = [item('a4', 's1'), item('p', null), item('b1', 's2'), item('c1', 's3')];
    assert.deepEqual(ids(secondSessionPlaced(kept, rest, 3, sessionOf)), ['a1', 'a2', 'b1']);
    assert.deepEqual(ids(secondSessionPlaced(kept, rest, 3, sessionOf, (x) => x.id !== 'b1')), ['a1', 'a2', 'c1']);
  });

  test('unchanged when two sessions are there already, the answer is short, or no other session is usable', () => {
    const two = [item('a1', 's1'), item('b1', 's2'), item('a2', 's1')];
    assert.deepEqual(ids(secondSessionPlaced(two, [item('c1', 's3')], 3, sessionOf)), ['a1', 'b1', 'a2']);
    const one = [item('a1', 's1'), item('a2', 's1')];
    assert.deepEqual(ids(secondSessionPlaced(one, [item('b1', 's2')], 3, sessionOf)), ['a1', 'a2']);
    assert.deepEqual(ids(secondSessionPlaced(one, [item('a3', 's1'), item('p', null)], 2, sessionOf)), ['a1', 'a2']);
    assert.deepEqual(ids(secondSessionPlaced([item('a1', 's1')], [item('b1', 's2')], 1, sessionOf)), ['a1']);
  });
});

/** Ana tells Ben about her garden at length in one session; Ben says he gardens too, once, in another. */
const CONVERSATION: AnaBenSessions = [
  { session: 's1', day: '05-01', lines: [
    ['Ana', 'Gardening is my favourite hobby, I love gardening so much.'], ['Ben', 'What do you grow?'],
    ['Ana', 'I grow roses and tomatoes, gardening every weekend is my hobby.'], ['Ben', 'Nice.'],
    ['Ana', 'My garden hobby keeps me calm, I love my roses.'], ['Ben', 'Sounds lovely.'],
    ['Ana', 'Gardening with roses is the best hobby there is.'], ['Ben', 'I believe you.']] },
  { session: 's2', day: '06-01', lines: [
    ['Ben', 'Guess what, I started growing herbs on my balcony.'], ['Ana', 'Oh nice!'],
    ['Ben', 'The basil is doing well.'], ['Ana', 'Good to hear.']] },
];

describe('agentic question answering: a question about two people (eachJointSubject)', () => {
  const T = 't_joint_subjects';
  let f: MemoryFixture;
  let retriever: Retriever;
  before(async () => {
    ({ f, retriever } = await anaBenFixture(T, CONVERSATION));
  });
  after(async () => {
    await f.close();
  });

  test("a full answer told by one of the two gains the other's best item", async () => {
    const question = 'What gardening hobby do Ana and Ben both have?';
    const speakers = async (options: object): Promise<string[]> => {
      const items = (await answerQuestion(retriever, T, { question, k: 3 }, { sessionBestWeight: 0, ...options })).evidence;
      assert.equal(items.length, 3);
      return items.map((i) => i.speaker?.id ?? '?');
    };
    const ben = f.people.Ben as string;
    assert.ok(!(await speakers({})).includes(ben), 'off: Ana fills the answer');
    const on = await speakers({ eachJointSubject: true });
    assert.ok(on.includes(ben), `on: ${on.join(', ')}`);
    assert.equal(on[0], f.people.Ana, 'the first place stays');
  });
});
