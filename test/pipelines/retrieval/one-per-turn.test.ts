import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MemoryItem } from '../../../graph/core/events.js';
import { onePerSourceTurn, oncePerSourceTurn } from '../../../pipelines/retrieval/one-per-turn.js';

const item = (id: string, layer: MemoryItem['layer'], refer: string[], score: number, superseded = false): MemoryItem => ({
  id, layer, text: id, speaker: null as unknown as MemoryItem['speaker'], addressees: [], refer_ids: layer === 'interaction' ? [id] : refer,
  session_id: 's', time: null, valid_from: null, valid_to: null, superseded, event_time: null, source_text: layer === 'interaction' ? null : 'said', score,
});
const shape = (items: MemoryItem[]): string[] => items.map((i) => `${i.id}@${i.score}`);

test('one item per source turn: the table', () => {
  const cases: [string, MemoryItem[], string[]][] = [
    ['a turn, then its fact: the fact in the turn\'s place and score', [item('u1', 'interaction', [], 5), item('f1', 'fact', ['u1'], 3)], ['f1@5']],
    ['a fact, then its turn: the turn is left out', [item('f1', 'fact', ['u1'], 5), item('u1', 'interaction', [], 3)], ['f1@5']],
    ['two facts of one turn: the better one', [item('f1', 'fact', ['u1'], 5), item('f2', 'profile', ['u1'], 4)], ['f1@5']],
    ['other turns keep their places', [item('u1', 'interaction', [], 5), item('u2', 'interaction', [], 4), item('f1', 'fact', ['u1'], 3)], ['f1@5', 'u2@4']],
    ['a fact of two turns, one not served yet: its own place', [item('u1', 'interaction', [], 5), item('f1', 'fact', ['u1', 'u2'], 3)], ['u1@5', 'f1@3']],
    ['a superseded fact never stands in for a current turn', [item('u1', 'interaction', [], 5), item('f1', 'fact', ['u1'], 3, true)], ['u1@5']],
    ['a superseded fact first leaves its current turn its own place', [item('f1', 'fact', ['u1'], 5, true), item('u1', 'interaction', [], 3)], ['f1@5', 'u1@3']],
    ['a superseded fact first leaves a current fact of its turn its own place', [item('f0', 'fact', ['u1'], 5, true), item('f1', 'fact', ['u1'], 4)], ['f0@5', 'f1@4']],
    ['two superseded facts of one turn: the better one', [item('f0', 'fact', ['u1'], 5, true), item('f1', 'fact', ['u1'], 4, true)], ['f0@5']],
    ['persona nodes keep their places', [item('p1', 'persona', ['u1'], 5), item('u1', 'interaction', [], 4)], ['p1@5', 'u1@4']],
  ];
  for (const [name, input, want] of cases) assert.deepEqual(shape(onePerSourceTurn(input)), want, name);
});

test('oncePerSourceTurn over any item type: skippable, limit and defer', () => {
  type It = { id: string; src: string[] };
  const it = (id: string, ...src: string[]): It => ({ id, src });
  const ids = (xs: It[]): string[] => xs.map((x) => x.id);
  const items = [it('a', 't1'), it('b', 't1'), it('c', 't2'), it('d'), it('e', 't1', 't3'), it('f', 't3')];
  const sources = (x: It): string[] => x.src;
  assert.deepEqual(ids(oncePerSourceTurn(items, { sources })), ['a', 'c', 'd', 'e'], 'all source turns served: left out');
  assert.deepEqual(ids(oncePerSourceTurn(items, { sources, skippable: (x) => x.id !== 'b' })), ['a', 'b', 'c', 'd', 'e'], 'only skippable ones are left out');
  assert.deepEqual(ids(oncePerSourceTurn(items, { sources, limit: 2 })), ['a', 'c'], 'stops at the limit');
  // Put off `a`: `b` then serves t1, and `a` comes back last only if its turn is still unserved (it is not).
  assert.deepEqual(ids(oncePerSourceTurn(items, { sources, defer: (x) => x.id === 'a' })), ['b', 'c', 'd', 'e'], 'a put-off item fills places left');
  assert.deepEqual(ids(oncePerSourceTurn(items, { sources, defer: (x) => x.id === 'c' })), ['a', 'd', 'e', 'c'], 'a put-off item fills places left');
  assert.deepEqual(ids(oncePerSourceTurn(items, { sources, defer: (x) => x.id === 'c', limit: 3 })), ['a', 'd', 'e'], 'put-off items only fill places left');
  const kept = oncePerSourceTurn(items, { sources, standIn: (x, held) => (x.id === 'b' ? { ...held, id: `${held.id}+b` } : undefined) });
  assert.deepEqual(ids(kept), ['a+b', 'c', 'd', 'e'], 'standIn replaces the item serving the first source turn');
});
