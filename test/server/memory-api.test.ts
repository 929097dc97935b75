import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CONSOLIDATION_JOB } from '../../pipelines/memory/consolidate.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { TestWsClient } from '../helpers/ws-client.js';

interface MemoryJson {
  id: string; text: string; layer: string; valid_to: string | null; supersedes: string | null; event_time: string | null;
  speaker: { id: string; name: string | null }; refer_ids: string[];
  addressees: { id: string; name: string | null }[]; subject_id: string;
}

describe('long-term memory through the API (embedded extractor, in-process queue)', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(async () => {
    await t.close();
  });

  const say = async (session: string, utterances: { speaker: string; text: string; addressees?: string[] }[]): Promise<string[]> => {
    const res = await t.app.inject({ method: 'POST', url: `/v1/sessions/${session}/utterances`, payload: { utterances } });
    assert.equal(res.statusCode, 201, res.body);
    await t.app.stores.queue.drain(CONSOLIDATION_JOB, 60_000);
    return res.json().utterance_ids as string[];
  };
  const memories = async (query = ''): Promise<MemoryJson[]> => {
    const res = await t.app.inject({ url: `/v1/memories${query}` });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().memories as MemoryJson[];
  };

  test('facts are extracted with their evidence, and updates keep history', async () => {
    const ids = await say('m1', [
      { speaker: 'Ana', text: "Hi, I'm Ana. I live in Porto." },
      { speaker: 'Ben', text: 'Nice. I love sushi.' },
    ]);
    const current = await memories();
    const porto = current.find((m) => /Porto/.test(m.text));
    assert.ok(porto, `a fact about Porto among ${current.map((m) => m.text).join(' | ')}`);
    assert.equal(porto.speaker.name, 'Ana');
    assert.deepEqual(porto.refer_ids, [ids[0]]);
    assert.ok(current.some((m) => /sushi/.test(m.text)));
    assert.equal(porto.event_time, null, 'an undated fact has no event time');

    await say('m2', [{ speaker: 'Ana', text: 'I moved to Lisbon last month.' }]);
    const now = await memories();
    assert.ok(now.some((m) => /Lisbon/.test(m.text)));
    assert.ok(!now.some((m) => /Porto/.test(m.text)), 'the old home is no longer current');
    const history = await memories('?include_history=true');
    const closed = history.find((m) => m.id === porto.id);
    assert.ok(closed?.valid_to, 'the old fact is kept, closed');
    const lisbon = history.find((m) => /Lisbon/.test(m.text))!;
    assert.equal(lisbon.supersedes, porto.id);
    assert.match(String(lisbon.event_time), /^\d{4}-\d{2}/, 'the move is dated (last month), as a field');

    const ana = (await t.app.inject({ url: '/v1/participants' })).json().participants.find((p: { name: string }) => p.name === 'Ana');
    const anas = await memories(`?participant=${ana.id}`);
    assert.ok(anas.some((m) => /Lisbon/.test(m.text)));
    const involvesAna = (m: MemoryJson): boolean =>
      m.speaker.id === ana.id || m.subject_id === ana.id || m.addressees.some((a) => a.id === ana.id);
    assert.ok(anas.every(involvesAna), 'only memories by, about or to Ana');
    const search = await memories('?q=sushi');
    assert.ok(search.length > 0 && /sushi/.test(search[0]!.text));
  });

  test('PATCH corrects and DELETE erases a memory; bad input changes nothing', async () => {
    const [sushi] = (await memories('?q=sushi'));
    const patched = await t.app.inject({ method: 'PATCH', url: `/v1/memories/${sushi!.id}`, payload: { text: 'Ben loves salmon sushi' } });
    assert.equal(patched.statusCode, 200);
    assert.equal(patched.json().text, 'Ben loves salmon sushi');
    assert.equal((await memories('?q=salmon'))[0]?.id, sushi!.id, 're-indexed');
    assert.equal((await t.app.inject({ method: 'PATCH', url: `/v1/memories/${sushi!.id}`, payload: {} })).statusCode, 400);
    assert.equal((await t.app.inject({ method: 'PATCH', url: '/v1/memories/nope', payload: { text: 'x' } })).statusCode, 404);
    assert.equal((await t.app.inject({ url: '/v1/memories?layer=nonsense' })).statusCode, 400);
    const gone = await t.app.inject({ method: 'DELETE', url: `/v1/memories/${sushi!.id}` });
    assert.equal(gone.statusCode, 200);
    assert.deepEqual(await memories('?q=salmon'), []);
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/v1/memories/${sushi!.id}` })).statusCode, 404);
  });

  test('a self-introduction names the speaker at once', async () => {
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=m3`);
    await c.next('session.started');
    c.sendJson({ type: 'utterance', speaker: 'spk_7', text: 'Hello, my name is Carla.' });
    const final = await c.next('transcript.final');
    assert.equal((final.speaker as { name: string }).name, 'spk_7', 'a label is kept as the name');
    const p = (await t.app.inject({ url: `/v1/participants/${(final.speaker as { id: string }).id}` })).json();
    assert.deepEqual(p.aliases, ['Carla']);
    c.close();
  });

  test('memory.updated reaches the live session', async () => {
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=m4`);
    await c.next('session.started');
    c.sendJson({ type: 'utterance', speaker: 'Dora', text: 'I work at Acme as a nurse.' });
    const updated = await c.next('memory.updated', () => true, 30_000);
    const ops = updated.ops as { op: string; memory_id: string; text: string }[];
    assert.ok(ops.some((o) => o.op === 'ADD' && /Acme/.test(o.text)), JSON.stringify(ops));
    c.close();
  });

  test('session.end sends the last memory.updated before session.ended', async () => {
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=m5`);
    await c.next('session.started');
    c.sendJson({ type: 'utterance', speaker: 'Enzo', text: 'I moved to Braga last month and I teach maths there.' });
    c.sendJson({ type: 'session.end' });
    const ended = await c.next('session.ended', () => true, 30_000);
    const updated = c.events.filter((e) => e.type === 'memory.updated');
    assert.ok(updated.length >= 1, `events: ${c.events.map((e) => e.type).join(', ')}`);
    assert.ok(updated.every((u) => u.seq < ended.seq));
  });

  test('deleting a participant erases their memories too', async () => {
    const people = (await t.app.inject({ url: '/v1/participants' })).json().participants as { id: string; name: string }[];
    const ana = people.find((p) => p.name === 'Ana')!;
    const res = await t.app.inject({ method: 'DELETE', url: `/v1/participants/${ana.id}` });
    assert.equal(res.statusCode, 200);
    assert.ok(res.json().erased_memories >= 1);
    const left = await memories('?include_history=true');
    assert.ok(!left.some((m) => /Lisbon|Porto/.test(m.text)), left.map((m) => m.text).join(' | '));
    assert.deepEqual(await memories('?q=Lisbon'), []);
  });
});
