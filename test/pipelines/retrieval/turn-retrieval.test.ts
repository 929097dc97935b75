import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import type { IngestedUtterance } from '../../../pipelines/interaction/ingest.js';
import type { RetrievalRequest, RetrievalResult, Retriever } from '../../../pipelines/retrieval/retriever.js';
import { createTurnRetrieval } from '../../../pipelines/retrieval/turn-retrieval.js';
import type { TurnSession } from '../../../pipelines/retrieval/turn-listener.js';

interface Call { text: string; signal: AbortSignal | undefined; finish(): void }

/** A retriever whose searches end when the test says so; each returns one item named after its text. */
function fakeRetriever(): { retriever: Retriever; calls: Call[] } {
  const calls: Call[] = [];
  const retriever = {
    retrieve: (req: RetrievalRequest) => new Promise<RetrievalResult>((resolve, reject) => {
      req.signal?.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })));
      calls.push({
        text: req.text, signal: req.signal,
        finish: () => resolve({
          items: [{ id: `m:${req.text}`, layer: 'interaction', text: req.text, speaker: { id: 'p_test', name: null }, addressees: [], refer_ids: [], session_id: null, time: null, valid_from: null, valid_to: null, superseded: false, event_time: null, source_text: null, score: 1 }],
          timings: { match_ms: 0, expand_ms: 0, search_ms: 1, total_ms: 1 },
          poolSize: 1, fallback: false, zone: { entityIds: [], schemaIds: [] },
        }),
      });
    }),
  } as unknown as Retriever;
  return { retriever, calls };
}

function fakeSession(): { session: TurnSession; sent: Record<string, unknown>[] } {
  const sent: Record<string, unknown>[] = [];
  const session: TurnSession = {
    tenant: 't', id: 's',
    send: (type, payload) => void sent.push({ type, ...payload }),
    lastSpeakerId: () => null,
  };
  return { session, sent };
}

const stored = (id: string, text: string): IngestedUtterance =>
  ({ utterance: { id, text }, speaker: { id: 'p', name: null, confidence: 1, isNew: false }, addressees: [] }) as unknown as IngestedUtterance;

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

/** Turn retrieval over a fake retriever and session, with turn_1 started. */
function startTurn(options?: Parameters<typeof createTurnRetrieval>[2]): {
  turns: ReturnType<typeof createTurnRetrieval>; calls: Call[]; sent: Record<string, unknown>[];
} {
  const { retriever, calls } = fakeRetriever();
  const { session, sent } = fakeSession();
  const turns = createTurnRetrieval(retriever, session, options);
  turns.onSpeechStarted?.('turn_1', 0);
  return { turns, calls, sent };
}

/** turn_1's first partial `text`, its search started and finished: the speculative context is sent. */
async function firstContext({ turns, calls }: ReturnType<typeof startTurn>, text: string): Promise<void> {
  turns.onPartial?.('turn_1', text);
  await sleep(5);
  calls[0]?.finish();
  await tick();
}

test('a partial is searched at once; a burst inside the gap waits and searches only its latest text', async () => {
  const { turns, calls } = startTurn({ minGapMs: 40 });
  turns.onPartial?.('turn_1', 'where is');
  await sleep(5);
  assert.deepEqual(calls.map((c) => c.text), ['where is']);
  turns.onPartial?.('turn_1', 'where is my');
  turns.onPartial?.('turn_1', 'where is my cat');
  assert.equal(calls.length, 1, 'inside the gap nothing new starts');
  await sleep(60);
  assert.deepEqual(calls.map((c) => c.text), ['where is', 'where is my cat']);
  assert.equal(calls[0]?.signal?.aborted, true, 'the older search is abandoned for the latest text');
  await sleep(60);
  turns.onPartial?.('turn_1', 'where is my cat now');
  await sleep(5);
  assert.equal(calls.length, 3, 'after the gap a partial (the one sent at a pause) is searched at once');
  turns.close?.();
});

test('a search finished before the end of turn is confirmed at the decision with ready_at_ms ≤ 0', async () => {
  const turn = startTurn();
  const { turns, calls, sent } = turn;
  await firstContext(turn, 'my cat miko');
  assert.deepEqual(sent.map((e) => [e.type, e.speculative]), [['memory.context', true]]);
  await sleep(5);
  turns.onSpeechStopped?.('turn_1');
  const confirmed = sent[1];
  assert.equal(confirmed?.speculative, false);
  assert.ok((confirmed?.ready_at_ms as number) <= 0, `ready_at_ms ${String(confirmed?.ready_at_ms)}`);
  turns.onFinal?.('turn_1', stored('u1', 'my cat miko'));
  await tick();
  assert.equal(sent.length, 2, 'one confirmed context per turn');
  turns.close?.();
});

test('a final that arrives after the next turn started does not confirm its turn again', async () => {
  const turn = startTurn();
  const { turns, calls, sent } = turn;
  await firstContext(turn, 'my cat miko');
  turns.onSpeechStopped?.('turn_1');
  turns.onSpeechStarted?.('turn_2', 0);
  turns.onFinal?.('turn_1', stored('u1', 'my cat miko'));
  await sleep(5);
  for (const c of calls) c.finish();
  await tick();
  const confirmed = sent.filter((e) => e.speculative === false && e.turn_id === 'turn_1');
  assert.equal(confirmed.length, 1, 'one confirmed context per turn');
  turns.close?.();
});

test('a revision still being searched at the decision: the previous context is confirmed at once', async () => {
  const turn = startTurn({ minGapMs: 0 });
  const { turns, calls, sent } = turn;
  await firstContext(turn, 'my cat');
  turns.onPartial?.('turn_1', 'my cat miko');
  await sleep(5);
  assert.equal(calls.length, 2);
  turns.onSpeechStopped?.('turn_1');
  const confirmed = sent.find((e) => e.speculative === false);
  assert.deepEqual((confirmed?.items as { id: string }[]).map((i) => i.id), ['m:my cat']);
  assert.ok((confirmed?.ready_at_ms as number) <= 0);
  turns.close?.();
});

test('a partial that arrives together with the end of turn starts no search; what is ready is confirmed', async () => {
  const turn = startTurn();
  const { turns, calls, sent } = turn;
  await firstContext(turn, 'my cat');
  await sleep(150);
  // The recogniser's last text and the decision, back to back (as the pipeline sends them).
  turns.onPartial?.('turn_1', 'my cat miko');
  turns.onSpeechStopped?.('turn_1');
  await sleep(5);
  assert.equal(calls.length, 1, 'no search started after the decision');
  const confirmed = sent.find((e) => e.speculative === false);
  assert.deepEqual((confirmed?.items as { id: string }[]).map((i) => i.id), ['m:my cat']);
  assert.ok((confirmed?.ready_at_ms as number) < -100);
  turns.close?.();
});

test('a turn whose only partial arrives with the end of turn searches that text at the decision', async () => {
  const { turns, calls, sent } = startTurn();
  turns.onPartial?.('turn_1', 'yes');
  turns.onSpeechStopped?.('turn_1');
  assert.deepEqual(calls.map((c) => c.text), ['yes']);
  calls[0]?.finish();
  await tick();
  const confirmed = sent.find((e) => e.speculative === false);
  assert.deepEqual((confirmed?.items as { id: string }[]).map((i) => i.id), ['m:yes']);
  turns.close?.();
});

test('a turn without partials waits for its final; barge-in abandons the old turn', async () => {
  const { turns, calls, sent } = startTurn();
  turns.onSpeechStopped?.('turn_1');
  assert.equal(calls.length, 0, 'nothing to search yet');
  turns.onFinal?.('turn_1', stored('u1', 'hello there'));
  assert.deepEqual(calls.map((c) => c.text), ['hello there']);
  calls[0]?.finish();
  await tick();
  const confirmed = sent.find((e) => e.speculative === false);
  assert.ok((confirmed?.ready_at_ms as number) >= 0, 'ready after the decision');

  turns.onSpeechStarted?.('turn_2', 0);
  turns.onPartial?.('turn_2', 'what about');
  await sleep(5);
  turns.onSpeechStarted?.('turn_3', 0);
  assert.equal(calls[1]?.signal?.aborted, true, 'the user spoke again: turn_2 is cancelled');
  calls[1]?.finish();
  await tick();
  assert.equal(sent.filter((e) => e.turn_id === 'turn_2').length, 0);
  turns.close?.();
});
