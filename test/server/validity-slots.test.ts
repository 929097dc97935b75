/** The where-now rule for every slot, over the HTTP API on the embedded store: an employer "for two weeks" beside a lasting one. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import type { MemoryItem } from '../../graph/core/events.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { ParleyClient } from '../../clients/typescript/src/index.js';

const DAY = 86_400_000;
const ago = (days: number): string => new Date(Date.now() - days * DAY).toISOString();

describe('a temporary employer beside a lasting one: first for a present question, after it for a lasting one', () => {
  let t: TestApp;
  let api: ParleyClient;
  const shown = (items: MemoryItem[]): string => JSON.stringify(items.map((i) => [i.layer, i.text, i.superseded]));
  /** The employer the first current item naming one of them names. */
  const first = async (question: string): Promise<string | undefined> => {
    const evidence = (await api.query({ question })).evidence as MemoryItem[];
    const named = evidence.filter((i) => !i.superseded).flatMap((i) => ['Umbrella', 'Globex'].filter((n) => i.text.includes(n)).slice(0, 1));
    assert.ok(named.length >= 2, `both employers served: ${question} ${shown(evidence)}`);
    return named[0];
  };

  before(async () => {
    t = await startTestApp();
    api = new ParleyClient({ baseUrl: t.httpUrl });
    // Two sessions, each consolidated before the next: the lasting employer two months ago, the temporary one two days ago.
    const said: [string, string, number][] = [['lasting', 'I work for Globex as an accountant.', 60], ['temporary', "I'm working for Umbrella for two weeks.", 2]];
    for (const [session, text, days] of said) {
      await api.postUtterances(session, [{ speaker: 'Eva', addressees: ['Max'], text, time: ago(days) }]);
      await drainConsolidation(t.app.stores.queue, 60_000);
    }
  });
  after(() => t.close());

  test('both are works_at memories, the temporary one with its end ahead; the attribute is the temporary one', async () => {
    const all = await api.memories({ limit: 100, include_history: true });
    const umbrella = all.find((m) => m.slot === 'works_at' && m.value === 'Umbrella');
    assert.ok(umbrella?.valid_until && Date.parse(umbrella.valid_until) > Date.now(), JSON.stringify(all));
    assert.equal(all.find((m) => m.slot === 'works_at' && m.value?.startsWith('Globex'))?.valid_to, null, JSON.stringify(all));
    assert.equal((await api.participant('Eva')).attributes.works_at, 'Umbrella');
  });

  test('present questions: Umbrella first', async () => {
    for (const q of ['Who is Eva working for currently?', 'Who is Eva working for at the moment?']) assert.equal(await first(q), 'Umbrella', q);
  });

  test('lasting questions: Globex first', async () => {
    for (const q of ['What company does Eva work for?', "Who is Eva's employer?"]) assert.equal(await first(q), 'Globex', q);
  });
});
