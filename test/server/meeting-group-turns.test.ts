import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

interface MemoryJson { id: string; text: string; addressees: Array<{ id: string; name: string | null }>; speaker: { id: string } }

/**
 * A four-person meeting (trial10 F6, F7): a turn with no cue for one listener is said to the room, not to whoever spoke
 * last, its "we" is the speaker and the group, and erasing one member leaves the group's decision (SQLite, over HTTP).
 */
describe('a meeting turn said to the room', () => {
  let t: TestApp;
  before(async () => { t = await startTestApp(); });
  after(async () => { await t?.close(); });
  const send = async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) => {
    const res = await t.app.inject({ method, url, ...(payload ? { payload: payload as object } : {}) });
    return { status: res.statusCode, body: res.body, json: () => res.json() as Record<string, unknown> };
  };
  const memories = async (): Promise<MemoryJson[]> => {
    const res = await send('GET', '/v1/memories?limit=200');
    assert.equal(res.status, 200, res.body);
    return res.json().memories as MemoryJson[];
  };

  test('is addressed to everyone else, and erasing Chidi keeps "Ana and the group will use ClickHouse"', async () => {
    const posted = await send('POST', '/v1/sessions/meeting-1/utterances', { utterances: [
      { speaker: 'Ana', text: 'Good morning everyone, let us start.', time: '2026-11-09T09:00:00Z' },
      { speaker: 'Ben', text: 'The QA checklist is nearly done.', time: '2026-11-09T09:01:00Z' },
      { speaker: 'Dana', text: 'The designs are ready too.', time: '2026-11-09T09:02:00Z' },
      { speaker: 'Chidi', text: 'ClickHouse is much faster for the analytics queries.', time: '2026-11-09T09:03:00Z' },
      { speaker: 'Ana', text: "Okay, we'll use ClickHouse for analytics.", time: '2026-11-09T09:04:00Z' },
    ] });
    assert.equal(posted.status, 201, posted.body);
    const transcript = await send('GET', '/v1/sessions/meeting-1/transcript');
    assert.equal(transcript.status, 200, transcript.body);
    const turns = transcript.json().utterances as Array<{ text: string; addressees: Array<{ name: string | null }> }>;
    const decision = turns.find((u) => /ClickHouse for analytics/.test(u.text));
    // On main: [Chidi] (the previous speaker).
    assert.deepEqual(decision?.addressees.map((a) => a.name).sort(), ['Ben', 'Chidi', 'Dana'], JSON.stringify(decision));
    await drainConsolidation(t.app.stores.queue, 120_000);

    const made = await memories();
    const clickhouse = made.filter((m) => /ClickHouse/.test(m.text) && !/faster/.test(m.text));
    // On main: "Ana and Chidi will use ClickHouse for analytics".
    assert.deepEqual(clickhouse.map((m) => m.text), ['Ana and the group will use ClickHouse for analytics'], made.map((m) => m.text).join(' | '));

    const chidi = await send('GET', '/v1/participants/Chidi');
    assert.equal(chidi.status, 200, chidi.body);
    const erased = await send('DELETE', `/v1/participants/${(chidi.json() as { id: string }).id}`);
    assert.equal(erased.status, 200, erased.body);
    const left = await memories();
    const kept = left.find((m) => m.id === clickhouse[0]!.id);
    // On main the decision went with Chidi (trial10 F7).
    assert.ok(kept, `the group's decision stays: ${left.map((m) => m.text).join(' | ')}`);
    assert.deepEqual(kept.addressees.map((a) => a.name).sort(), ['Ben', 'Dana'], 'without Chidi among its addressees');
  });
});
