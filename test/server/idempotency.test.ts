import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
import { InteractionIngest } from '../../pipelines/interaction/ingest.js';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { tempDir } from '../helpers/temp-dir.js';
import { TestWsClient } from '../helpers/ws-client.js';
import { ParleyClient, type UtteranceInput } from '../../clients/typescript/src/index.js';

describe('resends and crashes between store and queue', () => {
  let t: TestApp;
  let api: ParleyClient;
  before(async () => {
    t = await startTestApp({ PARLEY_ASR: 'none' });
    api = new ParleyClient({ baseUrl: t.httpUrl });
  });
  after(async () => { await t.close(); });

  const post = async (session: string, utterances: UtteranceInput[], idempotencyKey?: string): Promise<string[]> =>
    (await api.postUtterances(session, utterances, idempotencyKey ? { idempotencyKey } : {})).utterance_ids;
  const transcript = async (session: string): Promise<string[]> => (await api.transcript(session)).utterances.map((u) => u.text);
  const jobsAbout = (id: string): number =>
    (t.app.stores.sqlite.prepare('SELECT COUNT(*) AS n FROM jobs WHERE instr(data, ?) > 0').get(id) as { n: number }).n;

  test('a client utterance_id stores once, however often it is sent', async () => {
    assert.deepEqual(await post('idem-1', [{ utterance_id: 'client-42', speaker: 'Ana', text: 'I will bring the seeds on Saturday.' }]), ['client-42']);
    const again = await post('idem-1', [
      { utterance_id: 'client-42', speaker: 'Ana', text: 'I will bring the seeds on Saturday.' },
      { utterance_id: 'client-43', speaker: 'Ben', text: 'Great, see you then.' },
    ]);
    assert.deepEqual(again, ['client-42', 'client-43']);
    assert.deepEqual(await transcript('idem-1'), ['I will bring the seeds on Saturday.', 'Great, see you then.']);
    assert.equal(jobsAbout('client-42'), 1, 'queued for consolidation once');
    await assert.rejects(post('idem-1', [{ utterance_id: 'dup', speaker: 'Ana', text: 'a' }, { utterance_id: 'dup', speaker: 'Ana', text: 'b' }]), { status: 400 });
  });

  test('the same new utterance_id sent concurrently stores once and every request gets it', async () => {
    const line = { id: 'race-1', speaker: 'Ana', text: 'The seed swap is on the first Sunday of March.' };
    const answers = await Promise.all([1, 2, 3, 4].map(() => t.app.ingest.ingest('default', 'idem-race', [line])));
    assert.deepEqual(answers.map((a) => a.map((u) => u.utterance.id)), [['race-1'], ['race-1'], ['race-1'], ['race-1']]);
    assert.deepEqual(await transcript('idem-race'), [line.text]);
    assert.equal(jobsAbout('race-1'), 1, 'queued for consolidation once');
    assert.deepEqual(await post('idem-race', [{ utterance_id: 'race-1', speaker: 'Ana', text: line.text }]), ['race-1']);
  });

  test('two processes storing the same new utterance_id: the loser returns the stored utterance', async () => {
    // Two ingest pipelines over one store stand for two servers: no in-process lock is shared.
    const a = new InteractionIngest({ ...t.app.stores, logger: pino({ level: 'silent' }) });
    const b = new InteractionIngest({ ...t.app.stores, logger: pino({ level: 'silent' }) });
    const input = { id: 'race-2', speaker: 'Ben', text: 'I will fix the gate hinge tomorrow.' };
    const [x, y] = await Promise.all([a.ingest('default', 'idem-race-2', [input]), b.ingest('default', 'idem-race-2', [input])]);
    assert.equal(x[0]!.utterance.id, 'race-2');
    assert.equal(y[0]!.utterance.id, 'race-2');
    assert.deepEqual(await transcript('idem-race-2'), [input.text]);
  });

  test('an Idempotency-Key makes a whole batch safe to resend', async () => {
    const batch = [{ speaker: 'Ana', text: 'The grant is two thousand dollars.' }, { speaker: 'Ben', text: 'Then rain barrels it is.' }];
    const first = await post('idem-2', batch, 'batch-7f3');
    const again = await post('idem-2', batch, 'batch-7f3');
    assert.deepEqual(again, first);
    assert.equal((await transcript('idem-2')).length, 2);
    const other = await post('idem-2', batch, 'batch-8a1');
    assert.notDeepEqual(other, first);
    assert.equal((await transcript('idem-2')).length, 4);
  });

  test('over WebSocket, a resent utterance is acknowledged with the stored one', async () => {
    const ws = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=idem-3`);
    await ws.next('session.started');
    ws.sendJson({ type: 'utterance', utterance_id: 'ws-1', speaker: 'Ana', text: 'hello there' });
    const a = await ws.nextNew('transcript.final');
    ws.sendJson({ type: 'utterance', utterance_id: 'ws-1', speaker: 'Ana', text: 'hello there' });
    const b = await ws.nextNew('transcript.final');
    assert.equal(a.utterance_id, 'ws-1');
    assert.equal(b.utterance_id, 'ws-1');
    assert.deepEqual(await transcript('idem-3'), ['hello there']);
    ws.close();
  });

  test('an Idempotency-Key reused with another body is refused (422), the same body still replays', async () => {
    const first = await post('idem-5', [{ speaker: 'Ana', text: 'The compost bins arrive on Monday.' }], 'batch-reuse');
    await assert.rejects(post('idem-5', [{ speaker: 'Ana', text: 'Completely different words.' }], 'batch-reuse'),
      { status: 422, code: 'PARLEY_ERR_IDEMPOTENCY_KEY_REUSED' });
    await assert.rejects(post('idem-5', [{ speaker: 'Ben', text: 'The compost bins arrive on Monday.' }], 'batch-reuse'),
      { status: 422, code: 'PARLEY_ERR_IDEMPOTENCY_KEY_REUSED' }, 'another speaker is another body');
    await assert.rejects(post('idem-5-other', [{ speaker: 'Ana', text: 'The compost bins arrive on Monday.' }], 'batch-reuse'),
      { status: 422, code: 'PARLEY_ERR_IDEMPOTENCY_KEY_REUSED' }, 'another session is another request');
    const pair = [{ speaker: 'Ana', text: 'The hoses are in the shed.' }, { speaker: 'Ben', text: 'And the gloves?' }];
    await post('idem-5', pair, 'batch-pair');
    await assert.rejects(post('idem-5', pair.slice(0, 1), 'batch-pair'),
      { status: 422, code: 'PARLEY_ERR_IDEMPOTENCY_KEY_REUSED' }, 'a shorter body is another body');
    assert.deepEqual(await transcript('idem-5'), ['The compost bins arrive on Monday.', ...pair.map((u) => u.text)]);
    await assert.rejects(api.transcript('idem-5-other'), { status: 404 });
    assert.deepEqual(await post('idem-5', [{ speaker: 'Ana', text: 'The compost bins arrive on Monday.' }], 'batch-reuse'), first);
  });

  test('an utterance_id is the tenant\'s: reused with other content or in another session it is refused (409), whole batch', async () => {
    const line = { utterance_id: 'nc-u1', speaker: 'Ana', text: 'The shed key is under the blue pot.' };
    assert.deepEqual(await post('idem-6', [line]), ['nc-u1']);
    const conflict = { status: 409, code: 'PARLEY_ERR_UTTERANCE_ID_CONFLICT' };
    await assert.rejects(post('idem-6-other', [{ utterance_id: 'nc-u1', speaker: 'Zed', text: 'Completely different words.' }]), conflict);
    await assert.rejects(api.transcript('idem-6-other'), { status: 404 }, 'nothing stored, not even the session');
    await assert.rejects(post('idem-6-other', [line]), conflict, 'the same words in another session');
    await assert.rejects(post('idem-6', [{ ...line, text: 'The shed key is under the red pot.' }]), conflict);
    await assert.rejects(post('idem-6', [{ ...line, speaker: 'Ben' }]), conflict);
    await assert.rejects(post('idem-6', [{ utterance_id: 'nc-u2', speaker: 'Ben', text: 'Thanks, found it.' }, { ...line, text: 'changed' }]), conflict);
    assert.equal(await t.app.stores.graph.getUtterance('default', 'nc-u2'), null, 'no partial write');
    // A resend naming the speaker by participant id (or in another case) is the same utterance.
    const stored = await t.app.stores.graph.getUtterance('default', 'nc-u1');
    assert.deepEqual(await post('idem-6', [{ ...line, speaker: stored!.speakerId }]), ['nc-u1']);
    assert.deepEqual(await post('idem-6', [{ ...line, speaker: 'ANA' }]), ['nc-u1']);
    assert.deepEqual(await transcript('idem-6'), [line.text]);
  });

  test('over WebSocket, a resend keeps its turn id and gets no second memory.context; other content is refused', async () => {
    const ws = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=idem-7`);
    await ws.next('session.started');
    const message = { type: 'utterance', utterance_id: 'ws-7', speaker: 'Ana', text: 'The seedlings need water twice a day.' };
    ws.sendJson(message);
    const a = await ws.nextNew('transcript.final');
    await ws.next('memory.context', (e) => e.turn_id === a.turn_id, 30_000);
    ws.sendJson(message);
    const b = await ws.nextNew('transcript.final');
    assert.equal(b.turn_id, a.turn_id);
    assert.equal(b.utterance_id, 'ws-7');
    ws.sendJson({ ...message, text: 'Something else entirely.' });
    const refused = await ws.nextNew('error');
    assert.equal(refused.code, 'PARLEY_ERR_UTTERANCE_ID_CONFLICT');
    assert.equal(refused.fatal, false);
    ws.sendJson({ type: 'utterance', utterance_id: 'ws-8', speaker: 'Ben', text: 'I can do the mornings.' });
    const c = await ws.nextNew('transcript.final');
    await ws.next('memory.context', (e) => e.turn_id === c.turn_id, 30_000);
    const contexts = ws.events.filter((e) => e.type === 'memory.context').map((e) => e.turn_id);
    assert.deepEqual(contexts, [a.turn_id, c.turn_id], 'no memory.context for the resend');
    assert.deepEqual(await transcript('idem-7'), [message.text, 'I can do the mornings.']);
    ws.close();
  });

  test('an utterance that could not be queued is not stored either (one commit), and a resend then succeeds', async () => {
    const queue = t.app.stores.queue;
    const enqueue = queue.enqueue.bind(queue);
    queue.enqueue = async () => { throw new Error('disk full'); };
    try {
      await assert.rejects(post('idem-4', [{ utterance_id: 'crashy', speaker: 'Ana', text: 'The raised beds are finished.' }]), (err: { status?: number }) => (err.status ?? 0) >= 500);
    } finally {
      queue.enqueue = enqueue;
    }
    assert.deepEqual(await transcript('idem-4'), []);
    assert.equal(await t.app.stores.graph.getUtterance('default', 'crashy'), null);
    assert.deepEqual(await post('idem-4', [{ utterance_id: 'crashy', speaker: 'Ana', text: 'The raised beds are finished.' }]), ['crashy']);
    assert.equal(jobsAbout('crashy'), 1);
  });
});

describe('a WebSocket resend after a server restart on the same DATA_DIR', () => {
  test('is acknowledged with the turn id it first had, with no second memory.context', async () => {
    const tmp = tempDir('parley-resend-restart-');
    const config = loadConfig({ DATA_DIR: tmp.dir, PORT: '0', LOG_LEVEL: 'silent', PARLEY_ASR: 'none' });
    const listen = async (): Promise<{ app: Awaited<ReturnType<typeof buildApp>>; wsUrl: string }> => {
      const app = await buildApp(config, { logger: pino({ level: 'silent' }) });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      return { app, wsUrl: `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
    };
    try {
      const message = { type: 'utterance', utterance_id: 'ws-restart-1', speaker: 'Ana', text: 'The seedlings need water twice a day.' };
      const first = await listen();
      const before = await TestWsClient.connect(`${first.wsUrl}/v1/stream?session_id=idem-restart`);
      await before.next('session.started');
      before.sendJson(message);
      const a = await before.nextNew('transcript.final');
      await before.next('memory.context', (e) => e.turn_id === a.turn_id, 30_000);
      before.close();
      await first.app.close();

      const second = await listen();
      try {
        const ws = await TestWsClient.connect(`${second.wsUrl}/v1/stream?session_id=idem-restart`);
        await ws.next('session.started');
        ws.sendJson(message);
        const b = await ws.nextNew('transcript.final');
        assert.equal(b.utterance_id, 'ws-restart-1');
        assert.equal(b.turn_id, a.turn_id, 'the resend keeps its turn id across the restart');
        ws.sendJson({ type: 'utterance', utterance_id: 'ws-restart-2', speaker: 'Ben', text: 'I can do the mornings.' });
        const c = await ws.nextNew('transcript.final');
        assert.notEqual(c.turn_id, a.turn_id);
        await ws.next('memory.context', (e) => e.turn_id === c.turn_id, 30_000);
        const contexts = ws.events.filter((e) => e.type === 'memory.context').map((e) => e.turn_id);
        assert.deepEqual(contexts, [c.turn_id], 'no memory.context for the resend');
        ws.close();
      } finally {
        await second.app.close();
      }
    } finally {
      tmp.remove();
    }
  });
});
