/**
 * The LLM decider's `also_replaces` (rules 35 on the LLM path), against the OpenAI-compatible TEST DOUBLE (no LLM runs on
 * these machines): a liking said again closes the value held for now and every current copy of the liking; ids that are
 * no current fact of the same subject and slot are refused with a log line, and a malformed list never throws.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import pino from 'pino';
import type { ChatRequestBody } from '../../doubles/openai-double.js';
import type { Fact } from '../../../graph/memory-store.js';
import type { MemoryOp } from '../../../pipelines/memory/consolidate.js';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { LlmJsonClient } from '../../../pipelines/memory/llm-client.js';
import { LlmDecider } from '../../../pipelines/memory/llm-decider.js';
import { DECIDE_SCHEMA, DECIDE_SYSTEM_PROMPT } from '../../../pipelines/memory/llm-prompts.js';
import { currentTurn, llmConsolidation, withLlmDouble } from '../../helpers/llm-consolidation.js';

/** What the double answers a decision with, set by each test. */
let decisionReply: (user: string) => object = () => ({ op: 'ADD', ids: [], also_replaces: [] });

/** A model that replaces the liking held for now and names every stored copy of the liking (as the prompt asks). */
function likingSaidAgain(user: string): object {
  const newSlot = /^NEW .*slot (\S+)\)/m.exec(user)?.[1];
  const existing = [...user.matchAll(/^(\S+): .* \[slot (\S+)\]$/gm)].map((m) => ({ id: m[1]!, slot: m[2]! }));
  const forNow = existing.find((e) => e.slot === 'preference:for_now');
  if (!newSlot || newSlot === 'preference:for_now' || !forNow) return { op: 'ADD', ids: [], also_replaces: [] };
  return { op: 'UPDATE', ids: [forNow.id], also_replaces: [...existing.filter((e) => e.slot === newSlot).map((e) => e.id), 'f_invented'] };
}

function cannedChat(body: ChatRequestBody): string {
  const user = body.messages.find((m) => m.role === 'user')?.content ?? '';
  if (body.response_format?.json_schema?.name === 'memory_decision') return JSON.stringify(decisionReply(user));
  const { text, speaker } = currentTurn(body);
  const fact = (content: string, slot: string, value: string): object => ({ content, kind: 'preference', subject: speaker, slot, value,
    retraction: false, confidence: 0.9, valid_until: null, valid_from: null, settles: null, plan_object: null });
  if (text.includes('I love coffee')) return JSON.stringify({ facts: [fact('Ana loves coffee', 'preference:coffee', 'love')], profile_updates: [] });
  if (text.includes('decaf')) return JSON.stringify({ facts: [fact('For now Ana is drinking decaf', 'preference:for_now', 'decaf')], profile_updates: [] });
  if (text.includes('back on coffee')) return JSON.stringify({ facts: [fact('Ana is back on coffee', 'preference:coffee', 'like')], profile_updates: [] });
  return JSON.stringify({ facts: [], profile_updates: [] });
}

const T0 = '2026-12-01T10:00:00.000Z';

function stored(id: string, subjectId: string, slot: string | null, value: string | null, validTo: string | null = null): Fact {
  return { id, content: `${id} ${value ?? ''}`, speakerId: subjectId, addresseeIds: [], subjectId, kind: 'preference', layer: 'fact', slot, value,
    time: T0, eventTime: null, referIds: [], validFrom: T0, validTo, validUntil: null, planObject: null, supersedes: null, supersededBy: null,
    confidence: 0.9, sessionId: 's', source: 'llm/test', createdAt: T0 };
}

describe('LLM decider: also_replaces (test double)', () => {
  const fixture = withLlmDouble(cannedChat);

  test('the prompt and schema ask for also_replaces', () => {
    assert.match(DECIDE_SYSTEM_PROMPT, /also_replaces/);
    assert.deepEqual(DECIDE_SCHEMA.required, ['op', 'ids', 'also_replaces']);
  });

  test('a liking said again closes the value held for now and every current copy of the liking', async () => {
    decisionReply = likingSaidAgain;
    const ops: MemoryOp[] = [];
    const { graph, memory, handler } = llmConsolidation(fixture, { decider: true, onOps: (o) => ops.push(...o) });
    const ana = await graph.createParticipant('t', { name: 'Ana' });
    await graph.openSession('t', 's', T0);
    const turns = await graph.addUtterances('t', ['I love coffee', "For now I'm drinking decaf", "I'm back on coffee"].map((text, i) => ({
      sessionId: 's', speakerId: ana.id, addresseeIds: [], text, startMs: null, endMs: null, time: `2026-12-01T10:0${i + 1}:00.000Z`, confidence: null, audioRef: null })));
    for (const [i, u] of turns.entries()) {
      await handler({ id: `j${i}`, name: 'memory.consolidate', attempt: 1, data: { tenant: 't', sessionId: 's', utteranceId: u!.id } }, new AbortController().signal);
    }
    assert.deepEqual(ops.map((o) => o.op), ['ADD', 'ADD', 'UPDATE']);
    const current = (await memory.listFacts('t', {})).filter((f) => f.validTo === null && f.kind === 'preference');
    assert.deepEqual(current.map((f) => f.content), ['Ana is back on coffee'], 'the stored "loves coffee" is replaced too');
  });

  test('ids that are no current fact of the same subject and slot are refused with a log line; a malformed list never throws', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } }));
    const llm = new LlmJsonClient({ baseURL: fixture.double.baseURL, apiKey: 'k', model: 'm' });
    const decider = new LlmDecider(llm, logger);
    const fact = { content: 'Ana is back on coffee', kind: 'preference', subjectId: 'ana', slot: 'preference:coffee', value: 'like' } as ExtractedFact;
    const candidates = [
      stored('f_now', 'ana', 'preference:for_now', 'decaf'), stored('f_copy', 'ana', 'preference:coffee', 'love'),
      stored('f_ben', 'ben', 'preference:coffee', 'love'), stored('f_home', 'ana', 'lives_in', 'Porto'),
      stored('f_closed', 'ana', 'preference:coffee', 'love', T0),
    ].map((f) => ({ fact: f, score: 0.8 }));
    decisionReply = () => ({ op: 'UPDATE', ids: ['f_now'], also_replaces: ['f_copy', 'f_invented', 'f_ben', 'f_home', 'f_closed', 'f_now', 'f_copy'] });
    assert.deepEqual(await decider.decide({ fact, candidates, retractedFacts: [] }), { op: 'UPDATE', targetId: 'f_now', alsoReplaces: ['f_copy'] });
    const warned = lines.map((l) => JSON.parse(l) as { msg: string; refused: string[] });
    assert.equal(warned.length, 1);
    assert.match(warned[0]!.msg, /also_replaces/);
    assert.deepEqual(warned[0]!.refused, ['f_invented', 'f_ben', 'f_home', 'f_closed', 'f_now']);
    for (const bad of [42, 'f_copy', null, [{ id: 'f_copy' }, 7]]) {
      decisionReply = () => ({ op: 'UPDATE', ids: ['f_now'], also_replaces: bad });
      assert.deepEqual(await decider.decide({ fact, candidates, retractedFacts: [] }), { op: 'UPDATE', targetId: 'f_now' }, JSON.stringify(bad));
    }
    // A model that leaves the field out, as a decide-v1 reply did: a plain UPDATE.
    decisionReply = () => ({ op: 'UPDATE', ids: ['f_now'] });
    assert.deepEqual(await decider.decide({ fact, candidates, retractedFacts: [] }), { op: 'UPDATE', targetId: 'f_now' });
  });
});

describe('LLM extractor prompt: rules 35 and 36', () => {
  test('facts-v9 and later tell of job-holders, likeable kinds, ends per clause and likings said again', async () => {
    const { FACTS_PROMPT_VERSION, FACTS_SYSTEM_PROMPT } = await import('../../../pipelines/memory/llm-prompts.js');
    // Told since facts-v9; later versions keep it (the content checks below are what matter).
    assert.ok(Number(/^facts-v(\d+)$/.exec(FACTS_PROMPT_VERSION)?.[1]) >= 9, FACTS_PROMPT_VERSION);
    for (const said of ["I'm a mess this week", "I'm a model", 'podcast about taxes', 'Italian food', 'postman over\nthe holidays', "I'm back on regular coffee"]) {
      assert.ok(FACTS_SYSTEM_PROMPT.includes(said), said);
    }
  });
});
