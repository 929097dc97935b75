import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { contentWords, statesAnswer } from '../../bench/lib/answer-match.js';
import { bootstrapDelta, bootstrapMean } from '../../bench/lib/bootstrap.js';
import { answerScores } from '../../bench/lib/locomo-systems.js';

describe('answer-level judging (bench/lib/answer-match.ts)', () => {
  test('dates in any common form match; another day does not', () => {
    assert.ok(statesAnswer('The support group met on 2023-05-07, it was great', '7 May 2023'));
    assert.ok(statesAnswer('I went on May 7th, 2023', '7 May 2023'));
    assert.ok(statesAnswer('see you on 7 may 2023', 'May 7, 2023'));
    assert.ok(!statesAnswer('I went on 9 June 2024', '7 May 2023'));
  });

  test('a dated answer needs its day: another day of the same month and year does not match', () => {
    assert.ok(!statesAnswer('I went on 2023-05-02', '7 May 2023'));
    assert.ok(!statesAnswer('we met on 20 May 2023', 'May 7, 2023'));
    assert.ok(!statesAnswer('I went on 7 May 2022', '7 May 2023'), 'another year');
    assert.ok(statesAnswer('it was on the 13th of august', '13 August'), 'no year on either side');
    assert.ok(statesAnswer('the move 2023-08-13', '13 August'));
    assert.ok(statesAnswer('I went in May 2023', 'May 2023'), 'a month answer is still judged on words');
  });

  test('a relative dated answer accepts the days it allows', () => {
    // 25 May 2023 was a Thursday: the Sunday before is 21 May.
    assert.ok(statesAnswer('Painted it 2023-05-21', 'The sunday before 25 May 2023'));
    assert.ok(!statesAnswer('Painted it 2023-05-14', 'The sunday before 25 May 2023'));
    assert.ok(!statesAnswer('Painted it 2023-05-25', 'The sunday before 25 May 2023'));
    assert.ok(statesAnswer('trip on 2023-06-03', 'The week before 9 June 2023'));
    // 9 June 2023 was a Friday: "last week" said that day is the week of Monday 29 May.
    assert.ok(statesAnswer('trip on 2023-05-29', 'The week before 9 June 2023'));
    assert.ok(!statesAnswer('trip on 2023-05-26', 'The week before 9 June 2023'));
    assert.ok(statesAnswer('got her 2023-07-28', 'Two weeks before 11 August 2023'));
    assert.ok(!statesAnswer('got her 2023-08-04', 'Two weeks before 11 August 2023'));
    assert.ok(statesAnswer('made it 2022-06-25', 'The weekend of 24June, 2022.'));
    assert.ok(statesAnswer('applied 2023-08-21', 'The week of 23 August 2023'));
    assert.ok(!statesAnswer('applied 2023-08-14', 'The week of 23 August 2023'));
    assert.ok(statesAnswer('met 2023-07-17', 'three days before 20 July 2023'));
    assert.ok(!statesAnswer('met 2023-07-18', 'three days before 20 July 2023'));
    assert.ok(!statesAnswer('trip on 2023-06-20', 'The week before 9 June 2023'));
    assert.ok(statesAnswer('on 2022-06-05', 'The weekend after 3June, 2022.'), 'a day glued to its month');
    assert.ok(statesAnswer('the day after 4 July 2023 we left', 'the day after 4 July 2023'), "the answer's own words");
    assert.ok(statesAnswer('left on 2023-07-05', 'the day after 4 July 2023'));
    assert.ok(!statesAnswer('left on 2023-07-06', 'the day after 4 July 2023'));
  });

  test('content words with light stemming, at least half of them; stop words do not count', () => {
    assert.ok(statesAnswer('Melanie painted two sunsets by the lake', 'sunset'));
    assert.ok(statesAnswer('She is researching adoption agencies', 'Researching adoption agencies'));
    assert.ok(statesAnswer('I will study psychology', 'Psychology, counseling'), 'one of two words is half');
    assert.ok(!statesAnswer('I will study psychology', 'Psychology, counseling certification'), 'one of three is not half');
    assert.ok(!statesAnswer('it is what it is', 'it is'), 'an answer of stop words only never matches');
    assert.ok(statesAnswer('we have three kids', 3), 'number words and numbers');
    assert.deepEqual([...contentWords('The Sept. 3rd meetings')].sort(), ['3', 'meeting', 'september']);
  });
});

describe('bootstrap intervals (bench/lib/bootstrap.ts)', () => {
  test('the interval holds the mean, narrows with more questions, and is repeatable', () => {
    const small = Array.from({ length: 40 }, (_, i) => (i % 4 === 0 ? 0 : 1));
    const large = Array.from({ length: 4000 }, (_, i) => (i % 4 === 0 ? 0 : 1));
    const a = bootstrapMean(small);
    const b = bootstrapMean(large);
    assert.equal(a.mean, 0.75);
    assert.ok(a.lo < 0.75 && a.hi > 0.75);
    assert.ok(b.hi - b.lo < (a.hi - a.lo) / 5);
    assert.deepEqual(bootstrapMean(small), a, 'seeded');
    assert.deepEqual(bootstrapMean([1, 1, 1]), { mean: 1, lo: 1, hi: 1 });
  });

  test('a paired difference of identical systems is exactly zero; a consistent gain excludes zero', () => {
    const x = Array.from({ length: 200 }, (_, i) => i % 2);
    assert.deepEqual(bootstrapDelta(x, x), { mean: 0, lo: 0, hi: 0 });
    const better = x.map((v, i) => (i % 10 === 0 ? 1 : v));
    const d = bootstrapDelta(better, x);
    assert.ok(d.mean > 0 && d.lo > 0, JSON.stringify(d));
    assert.throws(() => bootstrapDelta([1], [1, 0]));
  });

  test("ans@1 with date reads the top item's event_time; ans@1 reads its words only", () => {
    const dated = [{ refs: ['u1'], text: 'I went to the support group yesterday', eventTime: '2023-05-07' }, { refs: ['u2'], text: 'on 7 May 2023' }];
    assert.deepEqual(answerScores(dated, '7 May 2023'), { ans1: 0, ans3: 1, ans1d: 1 });
    assert.deepEqual(answerScores([{ ...dated[0]!, eventTime: '2024-06-09' }], '7 May 2023'), { ans1: 0, ans3: 0, ans1d: 0 }, 'another date');
    assert.deepEqual(answerScores([{ refs: ['u3'], text: 'Caroline went on 7 May 2023' }], '7 May 2023'), { ans1: 1, ans3: 1, ans1d: 1 });
    assert.deepEqual(answerScores([], 'Rex'), { ans1: 0, ans3: 0, ans1d: 0 });
  });
});
