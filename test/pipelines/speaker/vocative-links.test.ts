import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cannotLinkFrom, planMerges, type MergeCandidate } from '../../../pipelines/speaker/merge.js';
import { withNamedAddressees } from '../../../pipelines/speaker/vocative-links.js';

const people = [
  { id: 'p_ana', name: 'Ana', aliases: [] },
  { id: 'p_ben', name: 'Ben Okafor', aliases: ['Benny'] },
  { id: 'p_x', name: null, aliases: [] },
];
const line = (speakerId: string, text: string, startMs: number) => ({ speakerId, text, startMs, endMs: startMs + 1000 });
const same = Float32Array.from([1, 0]);
const cand = (participantId: string): MergeCandidate => ({ participantId, prototype: same, utterances: 3, known: false });

describe('vocative cannot-links for the end-of-session merge', () => {
  test('names addressed vocatively become named addressees; replies and mentions do not', () => {
    const ev = withNamedAddressees([
      line('p_ana', 'Ben, could you send me the slides?', 0),
      line('p_ben', 'Sure, I will do it tonight.', 2000),
      line('p_x', 'I talked to Ana yesterday about the budget.', 4000),
      line('p_x', 'What do you think, Benny?', 6000),
    ], people);
    assert.deepEqual(ev.map((e) => e.namedAddresseeIds), [['p_ben'], [], [], ['p_ben']]);
    assert.deepEqual(cannotLinkFrom(ev).map((p) => [...p].sort().join('-')).sort(), ['p_ana-p_ben', 'p_ben-p_x']);
  });

  test('ids with identical voices are not merged when one named the other, and are merged otherwise', () => {
    const named = cannotLinkFrom(withNamedAddressees([line('p_ana', 'Ben, are you there?', 0), line('p_ben', 'Yes.', 2000)], people));
    assert.deepEqual(planMerges([cand('p_ana'), cand('p_ben')], { mergeTau: 0.9, cannotLink: named }), []);
    const plain = cannotLinkFrom(withNamedAddressees([line('p_ana', 'Are you there?', 0), line('p_ben', 'Yes.', 2000)], people));
    assert.equal(planMerges([cand('p_ana'), cand('p_ben')], { mergeTau: 0.9, cannotLink: plain }).length, 1);
  });

  test('a speaker naming themself links nothing', () => {
    const ev = withNamedAddressees([line('p_ana', 'Ana here, can everyone hear me?', 0)], people);
    assert.deepEqual(cannotLinkFrom(ev), []);
  });
});
