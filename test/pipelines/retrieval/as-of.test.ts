import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { MemoryItem } from '../../../graph/core/events.js';
import { answerQuestion } from '../../../pipelines/retrieval/agentic-query.js';
import { heldAsOf } from '../../../pipelines/retrieval/as-of.js';
import { Retriever } from '../../../pipelines/retrieval/retriever.js';
import { timeScope } from '../../../pipelines/retrieval/time-scope.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';

describe('validity as of a named time', () => {
  const year2025 = [{ since: '2025-01-01T00:00:00.000Z', until: '2026-01-01T00:00:00.000Z', open: false }];

  test('held then: begun before the window ended and not closed before its middle', () => {
    assert.ok(heldAsOf('2024-03-01T00:00:00Z', null, year2025), 'begun before, still holds');
    assert.ok(heldAsOf('2025-11-20T00:00:00Z', null, year2025), 'told within the window: held then');
    assert.ok(heldAsOf('2024-03-01T00:00:00Z', '2025-09-01T00:00:00Z', year2025), 'replaced late in the window');
    assert.ok(!heldAsOf('2024-03-01T00:00:00Z', '2025-02-10T00:00:00Z', year2025), 'replaced early in the window');
    assert.ok(!heldAsOf('2024-03-01T00:00:00Z', '2024-12-01T00:00:00Z', year2025), 'replaced before it');
    assert.ok(!heldAsOf('2026-01-05T00:00:00Z', null, year2025), 'begun after it');
  });

  test('an open window ("since", "until") only asks for an overlap', () => {
    const since = [{ since: '2024-01-01T00:00:00.000Z', until: '2026-03-01T00:00:00.000Z', open: true }];
    assert.ok(heldAsOf('2023-03-01T00:00:00Z', '2024-02-01T00:00:00Z', since));
    assert.ok(!heldAsOf('2023-03-01T00:00:00Z', '2023-12-01T00:00:00Z', since));
  });

  test('the windows a question names: no slack, "last year" is a calendar year, "since" runs to now, "until" from the start', () => {
    const now = new Date('2026-03-10T12:00:00Z');
    assert.deepEqual(timeScope('Where did Lena live last year?', now)?.windows,
      [{ since: '2025-01-01T00:00:00.000Z', until: '2026-01-01T00:00:00.000Z', open: false }]);
    assert.deepEqual(timeScope('Where did Lena live in 2024?', now)?.windows,
      [{ since: '2024-01-01T00:00:00.000Z', until: '2025-01-01T00:00:00.000Z', open: false }]);
    assert.deepEqual(timeScope('Where has Lena lived since 2024?', now)?.windows,
      [{ since: '2024-01-01T00:00:00.000Z', until: '2026-03-10T12:00:00.000Z', open: true }]);
    assert.deepEqual(timeScope('Where did Lena live until March 2025?', now)?.windows,
      [{ since: '1970-01-01T00:00:00.000Z', until: '2025-04-01T00:00:00.000Z', open: true }]);
    assert.deepEqual(timeScope('What has Lena done this year?', now)?.windows,
      [{ since: '2026-01-01T00:00:00.000Z', until: '2026-03-10T12:00:00.000Z', open: false }], 'runs at most to now');
    assert.deepEqual(timeScope('Where did Lena live in June?', now)?.windows,
      [{ since: '2025-06-01T00:00:00.000Z', until: '2025-07-01T00:00:00.000Z', open: false }], 'the latest June begun');
    assert.deepEqual(timeScope('Where did Lena live before 2025?', now)?.windows,
      [{ since: '1970-01-01T00:00:00.000Z', until: '2025-01-01T00:00:00.000Z', open: true }], '"before": everything before it');
    assert.deepEqual(timeScope('What did Ana do before June 2024?', now)?.expressions, ['before June 2024'], '"before" belongs to the time');
    assert.deepEqual(timeScope('What did Ana do before June 2024?', now)?.ranges,
      [{ since: '1970-01-01T00:00:00.000Z', until: '2024-06-01T00:00:00.000Z' }], 'and the turns searched are those before it');
    assert.deepEqual(timeScope('Where did Lena live between 2023 and 2024?', now)?.windows,
      [{ since: '2023-01-01T00:00:00.000Z', until: '2025-01-01T00:00:00.000Z', open: false }]);
    assert.deepEqual(timeScope('Where did Lena live between March and June 2024?', now)?.windows,
      [{ since: '2024-03-01T00:00:00.000Z', until: '2024-07-01T00:00:00.000Z', open: false }], 'the year of the second time serves the first');
    assert.deepEqual(timeScope('What did Ana eat in the summer of 2025?', now)?.windows,
      [{ since: '2025-06-01T00:00:00.000Z', until: '2025-09-01T00:00:00.000Z', open: false }]);
    assert.equal(timeScope('What did Ana eat in the summer of 2025?', now)?.rest, 'What did Ana eat in the ?', 'the season is out of the keywords');
    assert.deepEqual(timeScope('What did Ana do last summer?', now)?.windows,
      [{ since: '2025-06-01T00:00:00.000Z', until: '2025-09-01T00:00:00.000Z', open: false }]);
    assert.deepEqual(timeScope('What did Ana do this winter?', now)?.windows,
      [{ since: '2025-12-01T00:00:00.000Z', until: '2026-03-01T00:00:00.000Z', open: false }], 'in March, the winter just past');
    assert.equal(timeScope('Did Ana go to summer camp?', now), null, 'a season with no year or anchor is a topic');
    assert.deepEqual(timeScope('Where did Lena live in 2024?', now)?.ranges,
      [{ since: '2023-12-31T00:00:00.000Z', until: '2025-01-15T00:00:00.000Z' }], 'the search ranges keep their slack');
  });
});

describe('questions that name a time are answered as of that time (real USE-lite, SQLite, consolidation)', () => {
  const T = 't_as_of';
  const NOW = new Date('2026-03-01T12:00:00Z');
  let f: MemoryFixture;
  let retriever: Retriever;
  before(async () => {
    f = await memoryFixture(T, ['Lena', 'Omar']);
    await f.say('lena-1', 'Lena', ['Omar'], 'I live in Richmond, close to the marina.', '2024-03-01T09:00:00Z');
    await f.say('lena-1', 'Omar', ['Lena'], 'Nice, I love the marina in spring.', '2024-03-01T09:01:00Z');
    await f.say('lena-2', 'Lena', ['Omar'], 'I moved to Berkeley, near the campus.', '2025-02-10T09:00:00Z');
    await f.say('lena-2', 'Omar', ['Lena'], 'Berkeley is lovely.', '2025-02-10T09:01:00Z');
    retriever = new Retriever(f, f.entities, f.embedder, { minPool: 1 });
  });
  after(async () => {
    await f.close();
  });
  const ask = async (question: string, options = {}): Promise<MemoryItem[]> =>
    (await answerQuestion(retriever, T, { question, k: 4, now: NOW }, options)).evidence;
  const said = (item: MemoryItem | undefined): string => item?.source_text ?? item?.text ?? '';
  const show = (items: MemoryItem[]): string => items.map((i) => `${i.layer}${i.superseded ? ' (superseded)' : ''}: ${said(i)} ${i.score.toFixed(4)}`).join(' | ');

  test('"in 2024": Richmond first, though replaced since, and still marked superseded', async () => {
    const items = await ask('Where did Lena live in 2024?');
    assert.match(said(items[0]), /Richmond/, show(items));
    assert.equal(items[0]?.superseded, true, 'marked as replaced (as of now)');
    assert.ok(items.some((i) => /Berkeley/.test(said(i)) && !i.superseded), 'Berkeley still served, current');
  });

  test('"now": Berkeley first', async () => {
    const items = await ask('Where does Lena live now?');
    assert.match(said(items[0]), /Berkeley/, show(items));
  });

  test('"last year" (now in 2026) names 2025, when Berkeley held: not a past cue', async () => {
    const items = await ask('Where did Lena live last year?');
    assert.match(said(items[0]), /Berkeley/, show(items));
    const before = await ask('Where did Lena live last year?', { asOf: false });
    assert.match(said(before[0]), /Richmond/, `with asOf off, "last year" is a past cue (as before): ${show(before)}`);
  });

  test('"before" with no time: Richmond first (unchanged)', async () => {
    const items = await ask('Where did Lena live before?');
    assert.match(said(items[0]), /Richmond/, show(items));
    assert.deepEqual(items.map((i) => i.id), (await ask('Where did Lena live before?', { asOf: false })).map((i) => i.id));
  });

  test('a past cue besides a named time ("used to … in 2025") asks about the past as before', async () => {
    const q = 'Where did Lena use to live in 2025?';
    const items = await ask(q);
    assert.match(said(items[0]), /Richmond/, show(items));
    assert.deepEqual(items.map((i) => i.id), (await ask(q, { asOf: false })).map((i) => i.id));
  });

  test('"before 2025" (a year, no past cue of its own): Richmond, which held before Berkeley began', async () => {
    const items = await ask('Where did Lena live before 2025?');
    assert.match(said(items[0]), /Richmond/, show(items));
  });

  test('"between 2025 and 2026" (asked in March 2026): Berkeley, which held through most of it', async () => {
    const items = await ask('Where did Lena live between 2025 and 2026?');
    assert.match(said(items[0]), /Berkeley/, show(items));
  });

  test('a time before anything was said: what replaced nothing may tell of it, what replaced it began later; marks as of now', async () => {
    const items = await ask('Where did Lena live in 2022?');
    assert.match(said(items[0]), /Richmond/, `told later but replacing nothing, Richmond may tell of 2022: ${show(items)}`);
    assert.ok(items.some((i) => /Richmond/.test(said(i)) && i.superseded));
    assert.ok(items.some((i) => /Berkeley/.test(said(i)) && !i.superseded));
    // As before (toldLaterHolds false): nothing held then, every item ranks as replaced and none is preferred.
    const old = await ask('Where did Lena live in 2022?', { toldLaterHolds: false });
    const unjudged = await ask('Where did Lena live in 2022?', { toldLaterHolds: false, supersededFactor: 1 });
    assert.deepEqual(old.map((i) => i.id), unjudged.map((i) => i.id), `${show(old)} against ${show(unjudged)}`);
    old.forEach((i, n) => assert.ok(Math.abs(i.score - 0.5 * (unjudged[n]?.score ?? 0)) < 1e-12, 'every item ranks as replaced'));
  });

  test('an event told after the time it names holds then ("What did Omar love in the winter of 2023?", told in March 2024)', async () => {
    // Omar's turn about the marina was said in March 2024, after "winter 2023"; it replaced nothing.
    const q = 'What did Omar love in the winter of 2023?';
    const items = await ask(q);
    const old = await ask(q, { toldLaterHolds: false });
    const rank = (list: MemoryItem[]): number => list.findIndex((i) => /marina in spring/.test(said(i)));
    assert.equal(rank(items), 0, show(items));
    assert.ok(items[0] && old.every((i) => i.score < items[0]!.score), `as before, every item told later ranked as replaced: ${show(old)}`);
  });
});

describe('a temporary state has ended or not as of when the question is asked', () => {
  const T = 't_asked_at';
  let f: MemoryFixture;
  let retriever: Retriever;
  before(async () => {
    f = await memoryFixture(T, ['Tom', 'Lena']);
    await f.say('s1', 'Tom', ['Lena'], "I hurt my back, so I can't lift heavy things for a month.", '2026-11-02T09:00:00Z');
    await f.say('s1', 'Lena', ['Tom'], 'Take care of yourself.', '2026-11-02T09:01:00Z');
    retriever = new Retriever(f, f.entities, f.embedder, { minPool: 1 });
  });
  after(async () => {
    await f.close();
  });
  const back = async (now: string): Promise<MemoryItem | undefined> =>
    (await answerQuestion(retriever, T, { question: 'Can Tom lift heavy things?', k: 3, now: new Date(now) })).evidence
      .find((i) => /lift heavy things/.test(i.source_text ?? i.text));

  test('"for a month" said on 2 November: current on 10 November, ended (superseded) by 20 December', async () => {
    const early = await back('2026-11-10T12:00:00Z');
    assert.ok(early, 'served');
    assert.equal(early.superseded, false, JSON.stringify(early));
    const late = await back('2026-12-20T12:00:00Z');
    assert.ok(late, 'served');
    assert.equal(late.superseded, true, JSON.stringify(late));
  });
});
