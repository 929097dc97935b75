import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { startTestAppWithClient, type TestApp } from '../helpers/app.js';
import { ParleyClient, type Memory, type Operations, type ServerEvent } from '../../clients/typescript/src/index.js';

describe('long-term memory through the API (embedded extractor, in-process queue)', () => {
  let t: TestApp;
  let api: ParleyClient;
  before(async () => {
    ({ t, api } = await startTestAppWithClient());
  });
  after(() => t.close());

  const say = async (session: string, utterances: { speaker: string; text: string; addressees?: string[] }[]): Promise<string[]> => {
    const { utterance_ids: ids } = await api.postUtterances(session, utterances);
    await drainConsolidation(t.app.stores.queue, 60_000);
    return ids;
  };
  const memories = (query: Operations['listMemories']['query'] = {}): Promise<Memory[]> => api.memories(query);

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
    const history = await memories({ include_history: true });
    const closed = history.find((m) => m.id === porto.id);
    assert.ok(closed?.valid_to, 'the old fact is kept, closed');
    const lisbon = history.find((m) => /Lisbon/.test(m.text))!;
    assert.equal(lisbon.supersedes, porto.id);
    assert.match(String(lisbon.event_time), /^\d{4}-\d{2}/, 'the move is dated (last month), as a field');

    const ana = (await api.participants()).find((p) => p.name === 'Ana')!;
    const anas = await memories({ participant: ana.id });
    assert.ok(anas.some((m) => /Lisbon/.test(m.text)));
    const involvesAna = (m: Memory): boolean =>
      m.speaker.id === ana.id || m.subject_id === ana.id || m.addressees.some((a) => a.id === ana.id);
    assert.ok(anas.every(involvesAna), 'only memories by, about or to Ana');
    const search = await memories({ q: 'sushi' });
    assert.ok(search.length > 0 && /sushi/.test(search[0]!.text));
  });

  test('PATCH corrects and DELETE erases a memory; bad input changes nothing', async () => {
    const [sushi] = (await memories({ q: 'sushi' }));
    const patched = await api.updateMemory(sushi!.id, { text: 'Ben loves salmon sushi' });
    assert.equal(patched.text, 'Ben loves salmon sushi');
    assert.equal((await memories({ q: 'salmon' }))[0]?.id, sushi!.id, 're-indexed');
    await assert.rejects(api.updateMemory(sushi!.id, {}), { code: 'PARLEY_ERR_BAD_REQUEST', status: 400 });
    await assert.rejects(api.updateMemory('nope', { text: 'x' }), { code: 'PARLEY_ERR_NOT_FOUND', status: 404 });
    // Ill-typed on purpose: the server must refuse it.
    await assert.rejects(api.memories({ layer: 'nonsense' as 'fact' }), { code: 'PARLEY_ERR_BAD_REQUEST', status: 400 });
    assert.deepEqual(await api.deleteMemory(sushi!.id), { id: sushi!.id, deleted: true });
    assert.deepEqual(await memories({ q: 'salmon' }), []);
    await assert.rejects(api.deleteMemory(sushi!.id), { code: 'PARLEY_ERR_NOT_FOUND', status: 404 });
  });

  test('a self-introduction names the speaker at once', async () => {
    const session = await api.stream({ sessionId: 'm3' });
    session.send({ type: 'utterance', speaker: 'spk_7', text: 'Hello, my name is Carla.' });
    const final = await session.waitFor('transcript.final');
    assert.equal(final.speaker.name, 'spk_7', 'a label is kept as the name');
    assert.deepEqual((await api.participant(final.speaker.id)).aliases, ['Carla']);
    session.close();
  });

  test('memory.updated reaches the live session', async () => {
    const session = await api.stream({ sessionId: 'm4' });
    const updated = session.waitFor('memory.updated', () => true, { timeoutMs: 30_000 });
    session.send({ type: 'utterance', speaker: 'Dora', text: 'I work at Acme as a nurse.' });
    const { ops } = await updated;
    assert.ok(ops.some((o) => o.op === 'ADD' && /Acme/.test(o.text)), JSON.stringify(ops));
    session.close();
  });

  test('session.end sends the last memory.updated before session.ended', async () => {
    const session = await api.stream({ sessionId: 'm5' });
    session.send({ type: 'utterance', speaker: 'Enzo', text: 'I moved to Braga last month and I teach maths there.' });
    const ending = session.end({ timeoutMs: 30_000 });
    const events: ServerEvent[] = [];
    for await (const e of session) events.push(e);
    const ended = await ending;
    const updated = events.filter((e) => e.type === 'memory.updated');
    assert.ok(updated.length >= 1, `events: ${events.map((e) => e.type).join(', ')}`);
    assert.ok(updated.every((u) => u.seq < ended.seq));
    assert.equal(events.at(-1)?.type, 'session.ended');
  });

  test('deleting a participant erases their memories too', async () => {
    const ana = (await api.participants()).find((p) => p.name === 'Ana')!;
    const erased = await api.eraseParticipant(ana.id);
    assert.ok(erased.erased_memories >= 1);
    const left = await memories({ include_history: true });
    assert.ok(!left.some((m) => /Lisbon|Porto/.test(m.text)), left.map((m) => m.text).join(' | '));
    assert.deepEqual(await memories({ q: 'Lisbon' }), []);
  });
});
