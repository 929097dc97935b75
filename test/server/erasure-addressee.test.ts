import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

interface MemoryJson { id: string; text: string; slot: string | null; addressees: Array<{ id: string }>; speaker: { id: string } }

/**
 * Erasing a person takes what they said and what names them, never another person's own memories on which they were
 * only an addressee: those stay, without them, and so do that person's derived attributes (SQLite, over HTTP).
 */
describe('erasure of an addressee keeps the other person\'s memories', () => {
  let t: TestApp;
  before(async () => { t = await startTestApp(); });
  after(async () => { await t?.close(); });
  const send = async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) => {
    const res = await t.app.inject({ method, url, ...(payload ? { payload: payload as object } : {}) });
    return { status: res.statusCode, body: res.body, json: () => res.json() as Record<string, unknown> };
  };
  const memories = async (): Promise<MemoryJson[]> => {
    const res = await send('GET', '/v1/memories?include_history=true&limit=200');
    assert.equal(res.status, 200, res.body);
    return res.json().memories as MemoryJson[];
  };
  const participant = async (ref: string) => {
    const res = await send('GET', `/v1/participants/${encodeURIComponent(ref)}`);
    assert.equal(res.status, 200, res.body);
    return res.json() as { id: string; attributes: Record<string, unknown> };
  };

  test('DELETE /v1/participants/Dan erases his promise and leaves Cara\'s facts and attributes, without him', async () => {
    const posted = await send('POST', '/v1/sessions/erase-1/utterances', { utterances: [
      { speaker: 'Cara', text: 'Dan, I live in Lisbon and I work as a nurse.' },
      { speaker: 'Dan', text: 'Cara, I will send you the report on Friday.' },
      { speaker: 'Cara', text: 'I love black coffee.' },
    ] });
    assert.equal(posted.status, 201, posted.body);
    await drainConsolidation(t.app.stores.queue, 120_000);
    const [cara, dan] = [await participant('Cara'), await participant('Dan')];
    const before = await memories();
    const caraFacts = before.filter((m) => m.speaker.id === cara.id).map((m) => m.text).sort();
    for (const text of [/Cara lives in Lisbon/, /Cara works as a nurse/, /Cara loves black coffee/]) {
      assert.ok(caraFacts.some((f) => text.test(f)), `made first: ${caraFacts.join(' | ')}`);
    }
    assert.ok(before.some((m) => m.speaker.id === cara.id && m.addressees.some((a) => a.id === dan.id)), 'Dan was an addressee of Cara\'s');
    const danFacts = before.filter((m) => m.speaker.id === dan.id);
    assert.ok(danFacts.length >= 1, `Dan's promise was made: ${before.map((m) => m.text).join(' | ')}`);
    assert.equal(cara.attributes.lives_in, 'Lisbon');
    assert.equal(cara.attributes.occupation, 'nurse');

    const erased = await send('DELETE', `/v1/participants/${dan.id}`);
    assert.equal(erased.status, 200, erased.body);
    assert.equal(erased.json().erased_memories, danFacts.length, 'only Dan\'s memories (and persona, none here) go');

    const left = await memories();
    assert.deepEqual(left.filter((m) => m.speaker.id === cara.id).map((m) => m.text).sort(), caraFacts, 'Cara keeps every fact of hers');
    assert.ok(left.every((m) => m.speaker.id !== dan.id && !/\bDan\b/.test(m.text)), 'nothing of Dan is left');
    assert.ok(left.every((m) => m.addressees.every((a) => a.id !== dan.id)), 'Dan is no addressee any more');
    const after = await participant('Cara');
    assert.equal(after.attributes.lives_in, 'Lisbon');
    assert.equal(after.attributes.occupation, 'nurse');
    // Her kept facts are found by search, without Dan as their addressee.
    const hits = await t.app.stores.lexical.search('default', 'Lisbon', 5);
    assert.ok(hits.some((h) => left.some((m) => m.id === h.id)), JSON.stringify(hits));
  });
});
