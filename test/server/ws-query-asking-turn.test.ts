import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { MemoryQueryFn } from '../../server/plugins/retrieval.js';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { TestWsClient } from '../helpers/ws-client.js';

/**
 * A WebSocket `query` with `utterance_id` leaves exactly the turn it names out of its evidence (whatever its
 * words), keeps an identical earlier turn, and refuses a turn of another session or none, the socket open.
 */
type Evidence = { id: string; text: string; refer_ids: string[] };

describe('the turn a WebSocket query names as asking it', () => {
  let t: TestApp;
  /** The turns the last query of each session left out, as the retrieval was asked (one query at a time per session). */
  const lastExcluded = new Map<string, string[]>();
  let asked = 0;

  before(async () => {
    t = await startTestApp({ PARLEY_ASR: 'none' });
    const real = t.app.memoryQuery;
    const spy: MemoryQueryFn = (tenant, input) => {
      asked += 1;
      lastExcluded.set(input.sessionId ?? '', [...(input.excludeIds ?? [])]);
      return real(tenant, input);
    };
    (t.app as { memoryQuery: MemoryQueryFn }).memoryQuery = spy;
    const res = await fetch(`${t.httpUrl}/v1/sessions/kim-moves/utterances`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ utterances: [
        { utterance_id: 'other-session-turn', speaker: 'Kim', addressees: ['Lou'], text: 'I moved to Paris last spring.' },
        { speaker: 'Lou', addressees: ['Kim'], text: 'Paris must be lovely.' },
      ] }),
    });
    assert.equal(res.status, 201);
    await drainConsolidation(t.app.stores.queue, 60_000);
  });

  after(async () => {
    await t?.close();
  });

  async function open(sessionId: string): Promise<TestWsClient> {
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=${sessionId}`);
    await c.next('session.started');
    return c;
  }

  async function say(c: TestWsClient, utteranceId: string, speaker: string, text: string): Promise<void> {
    c.sendJson({ type: 'utterance', utterance_id: utteranceId, speaker, text });
    await c.next('transcript.final', (e) => e.utterance_id === utteranceId);
  }

  /** Ask and wait for the answer: its evidence, and the turns the retrieval was told to leave out. */
  async function ask(c: TestWsClient, id: string, question: string, utteranceId?: string): Promise<{ evidence: Evidence[]; excluded: string[] }> {
    c.sendJson({ type: 'query', id, question, ...(utteranceId ? { utterance_id: utteranceId } : {}) });
    const result = await c.next('query.result', (e) => e.id === id);
    return { evidence: result.evidence as Evidence[], excluded: lastExcluded.get(String(result.session_id)) ?? [] };
  }

  test('exactly the named turn is left out, though its recognised text differs from the question', async () => {
    const c = await open('asks-differently');
    await say(c, 'asr-turn', 'Lou', 'um so where did kim uh move to again');
    const { evidence, excluded } = await ask(c, 'q-named', 'Where did Kim move?', 'asr-turn');
    assert.deepEqual(excluded, ['asr-turn']);
    assert.ok(evidence.every((i) => i.id !== 'asr-turn' && !i.refer_ids.includes('asr-turn')),
      `the asking turn is no evidence: ${evidence.map((i) => i.text).join(' | ')}`);
    assert.ok(evidence.some((i) => /Paris/.test(i.text)), evidence.map((i) => i.text).join(' | '));
    // Without the id the words do not match the stored turn: nothing is left out (what utterance_id fixes).
    assert.deepEqual((await ask(c, 'q-words', 'Where did Kim move?')).excluded, []);
    c.close();
    await c.closed();
  });

  test('an identical earlier turn is kept; only the named one is left out', async () => {
    const c = await open('asks-twice');
    await say(c, 'first-ask', 'Lou', 'Where did Kim move?');
    await say(c, 'second-ask', 'Ana', 'Where did Kim move?');
    assert.deepEqual((await ask(c, 'q-second', 'Where did Kim move?', 'second-ask')).excluded, ['second-ask']);
    // The word match, without the id, leaves out the newest only, as over HTTP (`askingTurnIds`).
    assert.deepEqual((await ask(c, 'q-newest', 'where did kim move')).excluded, ['second-ask']);
    c.close();
    await c.closed();
  });

  test('a turn of this session stored before the socket (not among its recent turns) is found in the store', async () => {
    const res = await fetch(`${t.httpUrl}/v1/sessions/asks-later/utterances`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ utterances: [{ utterance_id: 'http-ask', speaker: 'Lou', text: 'Where did Kim move?' }] }),
    });
    assert.equal(res.status, 201);
    const c = await open('asks-later');
    assert.deepEqual((await ask(c, 'q-http', 'Kim moved where?', 'http-ask')).excluded, ['http-ask']);
    c.close();
    await c.closed();
  });

  test('a turn of another session, or no turn, is refused with a clear error; the socket stays open', async () => {
    const c = await open('asks-foreign');
    await say(c, 'own-turn', 'Lou', 'Where did Kim move?');
    const askedBefore = asked;
    for (const [id, turn] of [['q-foreign', 'other-session-turn'], ['q-unknown', 'no-such-turn']]) {
      c.sendJson({ type: 'query', id, question: 'Where did Kim move?', utterance_id: turn });
      const err = await c.next('error', (e) => String(e.message).includes(`"${id}"`));
      assert.equal(err.code, 'PARLEY_ERR_NOT_FOUND');
      assert.equal(err.fatal, false);
      assert.match(String(err.message), new RegExp(`session asks-foreign has no turn "${turn}"`));
    }
    c.sendJson({ type: 'query', id: 'q-bad', question: 'Where?', utterance_id: 'not an id' });
    const bad = await c.next('error', (e) => e.code === 'PARLEY_ERR_BAD_FRAME');
    assert.match(String(bad.message), /query: \/utterance_id/);
    // Still open and answering.
    assert.equal(asked, askedBefore, 'nothing was asked for the refused queries');
    assert.deepEqual((await ask(c, 'q-after', 'Where did Kim move?', 'own-turn')).excluded, ['own-turn']);
    assert.equal(c.events.some((e) => e.type === 'query.result' && ['q-foreign', 'q-unknown', 'q-bad'].includes(String(e.id))), false);
    c.close();
    await c.closed();
  });
});
