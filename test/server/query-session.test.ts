import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { ParleyClient, type MemoryItem } from '../../clients/typescript/src/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { TestWsClient } from '../helpers/ws-client.js';

describe('a question\'s session is context, not a filter; an erased replaced fact does not make its turn current (HTTP and WS, real consolidation)', () => {
  let t: TestApp;
  let api: ParleyClient;
  const texts = (items: MemoryItem[]): string => items.map((i) => `${i.layer}: ${i.text}`).join(' | ');

  before(async () => {
    t = await startTestApp();
    api = new ParleyClient({ baseUrl: t.httpUrl });
    await api.postUtterances('kim-1', [
      { speaker: 'Kim', addressees: ['Lou'], text: 'I live in Rome.', time: '2026-03-01T09:00:00Z' },
      { speaker: 'Lou', addressees: ['Kim'], text: 'Lovely, I hear the food is great.', time: '2026-03-01T09:01:00Z' },
    ]);
    await api.postUtterances('kim-2', [
      { speaker: 'Kim', addressees: ['Lou'], text: 'I moved to Paris.', time: '2026-10-05T09:00:00Z' },
      { speaker: 'Lou', addressees: ['Kim'], text: 'Congratulations on the new flat!', time: '2026-10-05T09:01:00Z' },
    ]);
    // Two sessions that each name a different meeting room: the session asked in decides which comes first.
    await api.postUtterances('room-a', [{ speaker: 'Ana', addressees: ['Ben'], text: 'The design review is in meeting room Alder.', time: '2026-11-02T10:00:00Z' }]);
    await api.postUtterances('room-b', [{ speaker: 'Ana', addressees: ['Ben'], text: 'The design review is in meeting room Birch.', time: '2026-11-03T10:00:00Z' }]);
    await api.postUtterances('mia-1', [{ speaker: 'Mia', addressees: ['Noor'], text: 'I live in Lyon.', time: '2026-04-01T09:00:00Z' }]);
    await drainConsolidation(t.app.stores.queue, 60_000);
  });
  after(async () => {
    await t?.close();
  });

  test('POST /v1/query with a new session_id finds memory stored in the tenant\'s other sessions', async () => {
    const plain = (await api.query({ question: 'where did Kim move?', k: 3 })).evidence;
    assert.ok(plain.some((i) => /Paris/.test(i.text)), texts(plain));
    const fresh = (await api.query({ question: 'where did Kim move?', session_id: 'brand-new-session-xyz', k: 3 })).evidence;
    assert.ok(fresh.some((i) => /Paris/.test(i.text)), `an unknown session is no filter: ${texts(fresh)}`);
    assert.ok(fresh.every((i) => i.session_id !== 'brand-new-session-xyz'));
  });

  test('a query sent first thing on a new WebSocket session finds the tenant\'s memory', async () => {
    const ws = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=ws-new-call`);
    await ws.next('session.started');
    ws.sendJson({ type: 'query', id: 'q1', question: 'where did Kim move?' });
    const result = await ws.next('query.result', (e) => e.id === 'q1');
    const evidence = result.evidence as MemoryItem[];
    assert.ok(evidence.some((i) => /Paris/.test(i.text)), texts(evidence));
    assert.ok(evidence.every((i) => typeof i.relevance === 'number' && i.relevance >= 0 && i.relevance <= 1), 'query.result items carry relevance');
    assert.equal(typeof result.answerable, 'boolean');
    ws.close();
  });

  test('a session with turns still helps: its own evidence comes first, the other session\'s is still found', async () => {
    for (const [session, mine, other] of [['room-a', /Alder/, /Birch/], ['room-b', /Birch/, /Alder/]] as const) {
      const evidence = (await api.query({ question: 'Which meeting room is the design review in?', session_id: session, k: 2 })).evidence;
      assert.match(evidence[0]?.text ?? '', mine, `${session}: ${texts(evidence)}`);
      assert.ok(evidence.some((i) => other.test(i.text)), `the other session's room is context, not filtered out: ${texts(evidence)}`);
    }
  });

  test('after the replaced Rome fact is erased, "where does Kim live now?" with k=1 serves Paris, not the old turn', async () => {
    const rome = (await api.memories({ include_history: true })).filter((m) => /Rome/.test(m.text));
    assert.ok(rome.length > 0, 'consolidation stored the Rome fact');
    assert.ok(rome.every((m) => m.valid_to !== null), 'Paris replaced it');
    for (const m of rome) await api.deleteMemory(m.id);
    const [top] = (await api.query({ question: 'where does Kim live now?', k: 1 })).evidence;
    assert.ok(top, 'an answer');
    assert.match(top.text, /Paris/, `${top.layer}: ${top.text}`);
    assert.equal(top.superseded, false);
    const all = (await api.query({ question: 'where does Kim live now?', k: 5 })).evidence;
    assert.ok(all.every((i) => !/Rome/.test(i.text)), `a question about now gets no erased memory as current: ${texts(all)}`);
    const [transcript] = (await api.transcript('kim-1')).utterances;
    assert.equal(transcript?.text, 'I live in Rome.', 'the turn itself is kept');
  });

  test('erasing the person a turn was said to keeps its memory (without them), and the turn stays current: it was not replaced', async () => {
    const lyon = (await api.memories()).filter((m) => /Lyon/.test(m.text));
    assert.ok(lyon.some((m) => m.addressees.some((a) => a.name === 'Noor')), 'the fact was said to Noor');
    const noor = (await api.participants()).find((p) => p.name === 'Noor');
    assert.ok(noor);
    await api.eraseParticipant(noor.id);
    // Mia's own fact stays: Noor only heard it (her erasure takes what she said and what names her).
    const kept = (await api.memories()).filter((m) => /Lyon/.test(m.text));
    assert.ok(kept.length > 0, 'Mia\'s fact is kept');
    assert.ok(kept.every((m) => m.addressees.every((a) => a.name !== 'Noor')), 'without the erased addressee');
    const evidence = (await api.query({ question: 'where does Mia live now?', k: 3 })).evidence;
    const lyon2 = evidence.filter((i) => /Lyon/.test(i.text));
    assert.ok(lyon2.length > 0, `Mia's memory is still served: ${texts(evidence)}`);
    for (const item of lyon2) assert.equal(item.superseded, false, `${item.layer}: ${item.text}`);
  });
});
