import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Participant } from '../../../graph/types.js';
import { roundActions } from '../../../pipelines/retrieval/question-policy.js';
import { rewriteQuestion } from '../../../pipelines/retrieval/question-rewrite.js';
import { reciprocalRankFusion } from '../../../pipelines/retrieval/rrf.js';

const PEOPLE: Participant[] = [{
  id: 'p_mel', name: 'Melanie', externalId: null, aliases: [], attributes: {}, voiceprintCount: 0, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z',
}];

describe('fusion: lists of one group are one piece of evidence', () => {
  test('an id found by two lists of one group scores its best share, not the sum', () => {
    // u_fact was found by BM25 over turns (rank 2) and, through the fact drawn from it, by BM25 over facts (rank 1);
    // u_bare by BM25 over turns only (rank 1), and by nothing else: no fact was drawn from it.
    const turns = { ids: ['u_bare', 'u_fact'], weight: 1, group: 'bm25' };
    const facts = { ids: ['u_fact'], weight: 1, group: 'bm25' };
    const fused = reciprocalRankFusion([turns, facts], 5);
    assert.deepEqual(fused.map((f) => f.id), ['u_bare', 'u_fact']);
    assert.equal(fused[1]?.score, 1 / 6, 'u_fact scores its better share (rank 1 of the fact list)');
    const ungrouped = reciprocalRankFusion([{ ids: turns.ids }, { ids: facts.ids }], 5);
    assert.deepEqual(ungrouped.map((f) => f.id), ['u_fact', 'u_bare'], 'without a group both shares add up (as before)');
  });

  test('lists of other groups, or of none, still add up', () => {
    const fused = reciprocalRankFusion([{ ids: ['a'], group: 'x' }, { ids: ['a'], group: 'y' }, { ids: ['a'] }], 5);
    assert.equal(fused[0]?.score, 3 / 6);
  });
});

describe('agentic policy: factTurnOnce', () => {
  const q = rewriteQuestion('Where has Melanie camped?', PEOPLE);
  for (const round of [1, 2]) {
    test(`round ${round}: BM25 over turns and over facts form one group; the per-speaker searches stay their own`, () => {
      const expansion = round === 2 ? ['tent'] : [];
      const history = round === 2 ? roundActions(1, q, [], [], {}, { factTurnOnce: true }) : [];
      const actions = roundActions(round, q, expansion, history, {}, { factTurnOnce: true }).filter((a) => a.tool === 'bm25');
      const grouped = actions.filter((a) => a.group === 'bm25');
      assert.deepEqual(grouped.map((a) => a.layer).sort(), ['fact', 'interaction']);
      assert.ok(grouped.every((a) => !a.speakerId), 'the unfiltered searches only');
      assert.ok(actions.some((a) => a.speakerId && a.group === undefined), 'Melanie\'s own search counts apart');
      assert.ok(roundActions(round, q, expansion, history, {}, {}).every((a) => a.group === undefined), 'off by default');
    });
  }
});
