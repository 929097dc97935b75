import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { attribute, displacers, splitDifferences, type DumpLine } from '../../bench/lib/locomo-attribution.js';

/** A dump line with any@5 per variant (1 found, 0 not) and optional served items. */
const line = (question: string, any: Record<string, number>, category = 1, items?: DumpLine['items']): DumpLine => ({
  conv: 'c1', question, category, gold: ['g'], scores: Object.fromEntries(Object.entries(any).map(([v, s]) => [v, { any: s }])),
  ...(items ? { items } : {}),
});

describe('attributing a variant gap to stages (bench/lib/locomo-attribution.ts)', () => {
  const lines = [
    line('q1', { def: 0, before: 1, noPersona: 1, noValidity: 0 }),
    line('q2', { def: 0, before: 1, noPersona: 0, noValidity: 1 }),
    line('q3', { def: 1, before: 0, noPersona: 1, noValidity: 0 }),
    line('q4', { def: 1, before: 1, noPersona: 1, noValidity: 0 }),
    line('q5', { def: 0, before: 1, noPersona: 1, noValidity: 1 }, 5),
  ];

  test('splits the questions each side wins, within the categories asked', () => {
    const { bWins, aWins } = splitDifferences(lines, 'def', 'before', 'any', [1, 2, 3, 4]);
    assert.deepEqual(bWins.map((l) => l.question), ['q1', 'q2']);
    assert.deepEqual(aWins.map((l) => l.question), ['q3']);
    assert.deepEqual(splitDifferences(lines, 'def', 'before', 'any', [5]).bWins.map((l) => l.question), ['q5']);
  });

  test('counts, per ablation, the losses it recovers, the wins it gives away and its changes elsewhere', () => {
    assert.deepEqual(attribute(lines, 'def', 'before', 'any', [1, 2, 3, 4]), [
      { variant: 'noPersona', recovers: 1, gives: 0, elsewhere: 0 },
      { variant: 'noValidity', recovers: 1, gives: 1, elsewhere: 1 },
    ]);
  });

  test('a metric missing from the dump is an error, not a zero', () => {
    assert.throws(() => splitDifferences(lines, 'def', 'before', 'all', [1]), /no all for variant "(def|before)"/);
  });

  test('displacers are the loser\'s items whose turns the winner did not serve', () => {
    const l = line('q', { a: 0, b: 1 }, 1, {
      a: [{ refs: ['t1'], text: 'shared', layer: 'interaction' }, { refs: [], text: 'Ana likes tea', layer: 'persona' },
        { refs: ['t9'], text: 'other turn', layer: 'fact' }],
      b: [{ refs: ['t1'], text: 'shared', layer: 'interaction' }, { refs: ['g'], text: 'gold', layer: 'interaction' }],
    });
    assert.deepEqual(displacers(l, 'b', 'a').map((d) => d.text), ['Ana likes tea', 'other turn']);
  });
});
