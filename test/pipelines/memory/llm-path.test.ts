/** The LLM memory path against the OpenAI-compatible TEST DOUBLE (no LLM runs on these machines). */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatRequestBody } from '../../doubles/openai-double.js';
import { LlmJsonClient } from '../../../pipelines/memory/llm-client.js';
import { FACTS_PROMPT_VERSION } from '../../../pipelines/memory/llm-prompts.js';
import type { MemoryOp } from '../../../pipelines/memory/consolidate.js';
import { llmConsolidation, withLlmDouble } from '../../helpers/llm-consolidation.js';

/** Canned replies keyed on the current turn's text, as a real model would answer. */
function cannedChat(body: ChatRequestBody): string {
  const user = body.messages.find((m) => m.role === 'user')?.content ?? '';
  if (body.response_format?.json_schema?.name === 'memory_decision') {
    const ids = [...user.matchAll(/^(f_\w+):/gm)].map((m) => m[1]);
    return JSON.stringify({ op: 'UPDATE', ids: ids.slice(0, 1) });
  }
  const current = user.split('CURRENT TURN:')[1] ?? '';
  const speaker = current.match(/\((p_\w+)\)/)?.[1] ?? current.match(/\] (p_\w+)/)?.[1] ?? 'p_x';
  if (current.includes('Porto')) {
    return JSON.stringify({ facts: [{ content: 'Ana lives in Porto', kind: 'profile', subject: speaker, slot: 'lives_in', value: 'Porto', retraction: false, confidence: 0.9 }],
      profile_updates: [{ participant: speaker, attribute: 'lives_in', value: 'Porto' }] });
  }
  if (current.includes('Lisbon')) {
    return JSON.stringify({ facts: [{ content: 'Ana moved to Lisbon', kind: 'profile', subject: speaker, slot: 'lives_in', value: 'Lisbon', retraction: false, confidence: 0.9 }],
      profile_updates: [{ participant: 'p_invented', attribute: 'x', value: 'y' }] });
  }
  return JSON.stringify({ facts: [], profile_updates: [] });
}

describe('LLM memory path (OpenAI-compatible test double)', () => {
  const fixture = withLlmDouble(cannedChat);

  test('extracts, decides UPDATE, records the prompt version, retries and counts tokens', async () => {
    const { double } = fixture;
    const ops: MemoryOp[] = [];
    const { llm, graph, memory, embedder, handler } = llmConsolidation(fixture, { decider: true, onOps: (o) => ops.push(...o) });
    const ana = await graph.createParticipant('t', { name: 'Ana' });
    const ben = await graph.createParticipant('t', { name: 'Ben' });
    await graph.openSession('t', 's', '2026-01-01T00:00:00.000Z');
    const [u1, u2] = await graph.addUtterances('t', [
      { sessionId: 's', speakerId: ana.id, addresseeIds: [ben.id], text: 'I live in Porto', startMs: null, endMs: null, time: '2026-01-01T00:01:00.000Z', confidence: null, audioRef: null },
      { sessionId: 's', speakerId: ana.id, addresseeIds: [ben.id], text: 'I moved to Lisbon', startMs: null, endMs: null, time: '2026-01-01T00:02:00.000Z', confidence: null, audioRef: null },
    ]);
    assert.ok(u1 && u2);
    double.failNext(2, 500);
    await handler({ id: 'j1', name: 'memory.consolidate', attempt: 1, data: { tenant: 't', sessionId: 's', utteranceId: u1.id } }, new AbortController().signal);
    await handler({ id: 'j2', name: 'memory.consolidate', attempt: 1, data: { tenant: 't', sessionId: 's', utteranceId: u2.id } }, new AbortController().signal);
    assert.deepEqual(ops.map((o) => o.op), ['ADD', 'UPDATE']);
    const [current] = await memory.listFacts('t', { slot: 'lives_in' });
    assert.equal(current?.content, 'Ana moved to Lisbon');
    assert.equal(current?.source, `llm/${FACTS_PROMPT_VERSION}`);
    assert.equal(current?.supersedes, ops[0]?.memory_id);
    assert.equal((await graph.getParticipant('t', ana.id))?.attributes.lives_in, 'Porto');
    assert.equal(llm.usage.failures, 0, 'the SDK retried the two injected 500s');
    assert.equal(llm.usage.promptTokens, 300, 'three successful calls of 100 prompt tokens');
    assert.ok(embedder.promptTokens > 0);
    const chat = double.requests.filter((r) => r.path.endsWith('/chat/completions'));
    const first = chat.at(-1)?.body as ChatRequestBody;
    assert.equal(first.response_format?.type, 'json_schema');
    assert.equal(chat.at(-1)?.authorization, 'Bearer test-key');
    // The previous turn is given as context to the second extraction.
    const extraction = chat.map((r) => r.body as ChatRequestBody).filter((b) => b.response_format?.json_schema?.name === 'memory_facts').at(-1);
    assert.match(extraction?.messages[1]?.content ?? '', /EARLIER TURNS:\n.*I live in Porto/);
  });

  /** Chat requests the double received so far. */
  const chatCount = (): number => fixture.double.requests.filter((r) => r.path.endsWith('/chat/completions')).length;

  test('gives up with PARLEY_ERR_UPSTREAM after the configured tries', async () => {
    const { double } = fixture;
    const llm = new LlmJsonClient({ baseURL: double.baseURL, apiKey: 'k', model: 'm', maxAttempts: 2 });
    const before = chatCount();
    double.failNext(2, 503);
    await assert.rejects(llm.complete('x', 'sys', 'user', { type: 'object' }), { code: 'PARLEY_ERR_UPSTREAM' });
    assert.equal(chatCount() - before, 2);
    assert.equal(llm.usage.failures, 1);
  });

  for (const status of [400, 401]) {
    test(`does not retry a ${status}`, async () => {
      const { double } = fixture;
      const llm = new LlmJsonClient({ baseURL: double.baseURL, apiKey: 'k', model: 'm', maxAttempts: 3 });
      const before = chatCount();
      double.failNext(1, status);
      await assert.rejects(llm.complete('x', 'sys', 'user', { type: 'object' }), { code: 'PARLEY_ERR_UPSTREAM' });
      assert.equal(chatCount() - before, 1);
    });
  }
});
