import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import type { MemoryItem } from '../../graph/core/events.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { TestWsClient, type ServerEvent } from '../helpers/ws-client.js';
import { ParleyClient, type QueryRequest } from '../../clients/typescript/src/index.js';

const items = (e: ServerEvent): MemoryItem[] => e.items as MemoryItem[];

describe('memory.context over a real WebSocket (text utterances, real consolidation and left brain)', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(async () => {
    await t.close();
  });

  test('each stored text utterance gets one confirmed memory.context that finds earlier sessions', async () => {
    const first = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=ret-1`);
    await first.next('session.started');
    const lines: [string, string, string][] = [
      ['Ana', 'Ben', 'Ben, I promise I will send you the budget report on Friday.'],
      ['Ben', 'Ana', 'Great, the Acme board meeting needs that report.'],
      ['Ana', 'Ben', 'My cat Miko has been sick all week.'],
    ];
    for (const [speaker, to, text] of lines) {
      first.sendJson({ type: 'utterance', speaker, addressees: [to], text });
      const final = await first.nextNew('transcript.final');
      const ctx = await first.next('memory.context', (e) => e.turn_id === final.turn_id);
      assert.equal(ctx.speculative, false);
      assert.equal(typeof ctx.ready_at_ms, 'number');
      assert.ok((ctx.ready_at_ms as number) >= 0, 'text turns have no end-of-turn decision: ready after the final');
      for (const key of ['match_ms', 'expand_ms', 'search_ms', 'total_ms']) assert.equal(typeof (ctx.timings as Record<string, unknown>)[key], 'number');
      assert.ok(!items(ctx).some((i) => i.id === final.utterance_id), 'never the utterance being answered');
    }
    await drainConsolidation(t.app.stores.queue, 30_000);
    const promise = (await t.app.stores.graph.getTranscript('default', 'ret-1'))[0];
    assert.ok(promise);
    first.close();

    const second = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=ret-2`);
    await second.next('session.started');
    second.sendJson({ type: 'utterance', speaker: 'Ben', addressees: ['Ana'], text: 'Ana, did you send me the budget report you promised?' });
    const final = await second.next('transcript.final');
    const ctx = await second.next('memory.context', (e) => e.turn_id === final.turn_id);
    assert.equal(ctx.speculative, false);
    const refs = items(ctx).flatMap((i) => i.refer_ids);
    assert.ok(refs.includes(promise.id), 'the promise from the earlier session is in the context');
    const hit = items(ctx).find((i) => i.refer_ids.includes(promise.id));
    assert.equal(hit?.speaker?.name, 'Ana');
    assert.equal(hit?.session_id, 'ret-1');
    const entities = await t.app.entityIndex.findByNames('default', ['budget report']);
    assert.equal(entities.length, 1, 'the left brain was updated after consolidation');
    second.close();
  });

  test('POST /v1/query answers with evidence; bad audio is a clear 400', async () => {
    await drainConsolidation(t.app.stores.queue, 30_000);
    const api = new ParleyClient({ baseUrl: t.httpUrl });
    const body = await api.query({ question: 'What did Ana promise Ben?', k: 3 });
    assert.ok(body.evidence.length > 0 && body.evidence.length <= 3);
    assert.ok(body.evidence.some((i) => /budget report/.test(i.text)));
    assert.equal(body.asker, null);
    assert.equal(body.rounds, 1);
    assert.equal(typeof body.timings.total_ms, 'number');

    for (const audio of ['***not base64***', Buffer.from('hello, not a wav').toString('base64')]) {
      await assert.rejects(api.query({ question: 'x', audio }), { code: 'PARLEY_ERR_BAD_AUDIO', status: 400 });
    }
    // Ill-typed on purpose: the server must refuse a query without a question.
    await assert.rejects(api.query({} as QueryRequest), { code: 'PARLEY_ERR_BAD_REQUEST', status: 400 });
  });

  test('the WS query message and app.memoryQuery share the retrieval', async () => {
    const r = await t.app.memoryQuery('default', { question: 'How is the cat Miko?', k: 5 });
    assert.ok(r.evidence.some((i) => /Miko/.test(i.text)));
    assert.equal(r.rounds, 1);
    const other = await t.app.memoryQuery('other-tenant', { question: 'How is the cat Miko?', k: 5 });
    assert.deepEqual(other.evidence, [], 'tenants never see each other\'s memories');
  });
});
