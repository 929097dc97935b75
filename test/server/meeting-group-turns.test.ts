import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { appWithClientForSuite } from '../helpers/app.js';

/**
 * A four-person meeting posted with the SDK, as trial10 did (F6, F7): a turn with no cue for one listener is said to
 * the room, not to whoever spoke last, its "we" is the speaker and the group, and erasing one member leaves the group's
 * decision (SQLite, over HTTP).
 */
describe('a meeting turn said to the room', () => {
  const suite = appWithClientForSuite();

  test('is addressed to everyone else, and erasing Chidi keeps "Ana and the group will use ClickHouse"', async () => {
    const { t, api } = suite;
    await api.postUtterances('meeting-1', [
      { speaker: 'Ana', text: 'Good morning everyone, let us start.', time: '2026-11-09T09:00:00Z' },
      { speaker: 'Ben', text: 'The QA checklist is nearly done.', time: '2026-11-09T09:01:00Z' },
      { speaker: 'Dana', text: 'The designs are ready too.', time: '2026-11-09T09:02:00Z' },
      { speaker: 'Chidi', text: 'ClickHouse is much faster for the analytics queries.', time: '2026-11-09T09:03:00Z' },
      { speaker: 'Ana', text: "Okay, we'll use ClickHouse for analytics.", time: '2026-11-09T09:04:00Z' },
    ]);
    const decision = (await api.transcriptAll('meeting-1')).find((u) => /ClickHouse for analytics/.test(u.text));
    // On main: [Chidi] (the previous speaker).
    assert.deepEqual(decision?.addressees.map((a) => a.name).sort(), ['Ben', 'Chidi', 'Dana'], JSON.stringify(decision));
    await drainConsolidation(t.app.stores.queue, 120_000);

    const made = await api.allMemories();
    const clickhouse = made.filter((m) => /ClickHouse/.test(m.text) && !/faster/.test(m.text));
    // On main: "Ana and Chidi will use ClickHouse for analytics".
    assert.deepEqual(clickhouse.map((m) => m.text), ['Ana and the group will use ClickHouse for analytics'], made.map((m) => m.text).join(' | '));

    await api.eraseParticipant((await api.participant('Chidi')).id);
    const left = await api.allMemories();
    const kept = left.find((m) => m.id === clickhouse[0]!.id);
    // On main the decision went with Chidi (trial10 F7).
    assert.ok(kept, `the group's decision stays: ${left.map((m) => m.text).join(' | ')}`);
    assert.deepEqual(kept.addressees.map((a) => a.name).sort(), ['Ben', 'Dana'], 'without Chidi among its addressees');
  });
});
