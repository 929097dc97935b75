import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { holdsTimeAnswer } from '../../../pipelines/retrieval/answer-type.js';
import { answerQuestion } from '../../../pipelines/retrieval/agentic-query.js';
import type { Retriever } from '../../../pipelines/retrieval/retriever.js';
import { anaBenMemory } from '../../helpers/ana-ben-sessions.js';
import type { MemoryFixture } from '../../helpers/memory-fixture.js';

const SAID = '2023-07-20T14:00:00Z';

describe('a time for "When…?" judged as the memory dates it (timeAnswers)', () => {
  test('dated: an act told as just done, an abbreviated weekday and a day of the month hold a time; chrono alone reads none', () => {
    for (const text of ['I just joined a new activist group!', 'We joined the group last Tues.', 'I met the team again on the 15th after my trip.']) {
      assert.equal(holdsTimeAnswer({ text, time: SAID }, 'words'), false, `words: ${text}`);
      assert.equal(holdsTimeAnswer({ text, time: SAID }, 'dated'), true, `dated: ${text}`);
    }
  });

  test('dated: what the words date stays a time, a year on its own too; a plain statement, a wish or a duration is none', () => {
    assert.ok(holdsTimeAnswer({ text: 'I went to the support group yesterday.', time: SAID }, 'dated'));
    assert.ok(holdsTimeAnswer({ text: 'I have lived here since 2019.', time: SAID }, 'dated'));
    for (const text of ['I love my activist group.', 'I just want to help people.', 'I will stay for a month.']) {
      assert.equal(holdsTimeAnswer({ text, time: SAID }, 'dated'), false, text);
    }
  });

  test('dated-facts: a fact whose date is a field holds a time; dated alone reads its text only', () => {
    const fact = { text: 'Caroline joined an LGBTQ activist group', time: SAID, eventTime: '2023-07-18' };
    assert.equal(holdsTimeAnswer(fact, 'dated-facts'), true);
    assert.equal(holdsTimeAnswer(fact, 'dated'), false);
    assert.equal(holdsTimeAnswer(fact, 'words'), false);
    assert.equal(holdsTimeAnswer({ ...fact, eventTime: null }, 'dated-facts'), false);
  });
});

describe('agentic question answering: "When did…?" finds the turn the memory can date', () => {
  const T = 't_time_answers';
  let f: MemoryFixture;
  let retriever: Retriever;
  before(async () => {
    ({ f, retriever } = await anaBenMemory(T, [
      ['s1', '06-01', [['Ana', 'My activist group is great, the activist group does so much good.'], ['Ben', 'That sounds nice.'],
        ['Ana', 'The people in the activist group are so kind.'], ['Ben', 'I should come along one day.']]],
      ['s2', '07-20', [['Ben', 'Hey Ana, what is new?'], ['Ana', 'I just joined a new activist group!'],
        ['Ben', 'Wow, good for you.'], ['Ana', 'I bake bread at weekends now.']]],
    ]));
  });
  after(async () => {
    await f.close();
  });

  const rankOfJoining = async (options: object): Promise<number> => {
    const items = (await answerQuestion(retriever, T, { question: 'When did Ana join the activist group?', k: 5 }, options)).evidence;
    const at = items.findIndex((i) => (i.source_text ?? i.text).includes('just joined'));
    return at < 0 ? Infinity : at;
  };

  test('the turn told as just done ranks above turns that only talk of the group with dated, not with words', async () => {
    const words = await rankOfJoining({ timeAnswers: 'words' });
    const dated = await rankOfJoining({ timeAnswers: 'dated' });
    assert.equal(dated, 0, `rank ${dated} with dated`);
    assert.ok(dated < words, `rank ${dated} with dated, ${words} with words`);
  });

  test('an unknown mode is refused', async () => {
    await assert.rejects(answerQuestion(retriever, T, { question: 'When did Ana join the activist group?', k: 5 }, { timeAnswers: 'chrono' as never }), /timeAnswers/);
  });
});
