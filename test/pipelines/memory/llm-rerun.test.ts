/**
 * A consolidation job re-run on the LLM path, against the OpenAI-compatible TEST DOUBLE (no LLM runs
 * on these machines). A model asked twice about one turn need not answer in the same words; the
 * re-run must still store each fact once.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { startOpenAiDouble, type ChatRequestBody, type OpenAiDouble } from '../../doubles/openai-double.js';
import type { MemoryStore } from '../../../graph/memory-store.js';
import { MemoryKeyedLock } from '../../../graph/memory-keyed-lock.js';
import { openDatabase, type SqliteDatabase } from '../../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../../graph/sqlite/sqlite-graph-store.js';
import { SqliteLexicalIndex } from '../../../graph/sqlite/sqlite-lexical-index.js';
import { SqliteMemoryStore } from '../../../graph/sqlite/sqlite-memory-store.js';
import { SqliteVectorStore } from '../../../graph/sqlite/sqlite-vector-store.js';
import { OpenAiEmbedder } from '../../../pipelines/embeddings/openai-embedder.js';
import { CONSOLIDATION_JOB, createConsolidationHandler, type ConsolidationDeps } from '../../../pipelines/memory/consolidate.js';
import { LlmJsonClient } from '../../../pipelines/memory/llm-client.js';
import { LlmDecider } from '../../../pipelines/memory/llm-decider.js';
import { LlmExtractor } from '../../../pipelines/memory/llm-extractor.js';

const T = 't_llm_rerun';

/** How often the double was asked to extract from a turn, by the turn's text. */
const asked = new Map<string, number>();

/**
 * The double's model: the first time it sees a turn it answers in one wording, every later time in
 * another (same meaning, other words and another spelling of the slot's value). It decides that a
 * new home replaces the one stored (UPDATE) and adds anything else.
 */
function rewordingChat(body: ChatRequestBody): string {
  const user = body.messages.find((m) => m.role === 'user')?.content ?? '';
  if (body.response_format?.json_schema?.name === 'memory_decision') {
    const home = /moved to|lives in/;
    const stored = [...user.matchAll(/^(f_\w+): (.*)$/gm)].find((m) => home.test(m[2] ?? ''));
    const isHome = home.test(user.split('\n')[0] ?? '');
    return JSON.stringify(isHome && stored ? { op: 'UPDATE', ids: [stored[1]] } : { op: 'ADD', ids: [] });
  }
  const current = user.split('CURRENT TURN:')[1] ?? '';
  const speaker = current.match(/\((p_\w+)\)/)?.[1] ?? 'p_x';
  const city = current.match(/moved to (\w+)/)?.[1] ?? 'Nowhere';
  const n = (asked.get(current) ?? 0) + 1;
  asked.set(current, n);
  const facts = n === 1
    ? [
      { content: `Ana moved to ${city}`, kind: 'profile', subject: speaker, slot: 'lives_in', value: city, retraction: false, confidence: 0.9 },
      { content: 'Ana will send Ben the draft on Friday', kind: 'commitment', subject: speaker, slot: null, value: null, retraction: false, confidence: 0.8 },
    ]
    : [
      { content: `Ana now lives in ${city}, Portugal`, kind: 'profile', subject: speaker, slot: 'lives_in', value: `${city}, Portugal`, retraction: false, confidence: 0.9 },
      { content: 'Ana promised to get the draft to Ben by Friday', kind: 'commitment', subject: speaker, slot: null, value: null, retraction: false, confidence: 0.8 },
    ];
  return JSON.stringify({ facts, profile_updates: [] });
}

/** `memory` whose `addFacts` fails from its `k`-th call on, as if the worker died there. */
function dyingAt(memory: MemoryStore, k: number): MemoryStore {
  let calls = 0;
  return new Proxy(memory, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (typeof value !== 'function') return value;
      if (key !== 'addFacts') return value.bind(target);
      return (...args: Parameters<MemoryStore['addFacts']>) => {
        calls += 1;
        if (calls >= k) return Promise.reject(new Error('worker killed'));
        return target.addFacts(...args);
      };
    },
  });
}

describe('LLM path: a re-run stores each fact once, however the model words it again', () => {
  let double: OpenAiDouble;
  let db: SqliteDatabase;
  let deps: ConsolidationDeps;
  let ana: string;
  let ben: string;
  let minute = 0;
  before(async () => {
    double = await startOpenAiDouble({ chat: rewordingChat, dimension: 64 });
    db = openDatabase(':memory:');
    const llm = new LlmJsonClient({ baseURL: double.baseURL, apiKey: 'test-key', model: 'double-model' });
    const graph = new SqliteGraphStore(db);
    deps = {
      graph, memory: new SqliteMemoryStore(db), vectors: new SqliteVectorStore(db), lexical: new SqliteLexicalIndex(db),
      embedder: new OpenAiEmbedder({ baseURL: double.baseURL, apiKey: 'test-key', model: 'double-embed', dimension: 64 }),
      extractor: new LlmExtractor(llm), decider: new LlmDecider(llm), onOps: () => {}, logger: pino({ level: 'silent' }),
      locks: new MemoryKeyedLock(),
    };
    ana = (await graph.createParticipant(T, { name: 'Ana' })).id;
    ben = (await graph.createParticipant(T, { name: 'Ben' })).id;
    await graph.openSession(T, 's', '2026-12-01T10:00:00.000Z');
  });
  after(async () => {
    await double.close();
    db.close();
  });

  const say = async (text: string): Promise<string> => {
    minute += 1;
    const [u] = await deps.graph.addUtterances(T, [{ sessionId: 's', speakerId: ana, addresseeIds: [ben], text,
      startMs: null, endMs: null, time: `2026-12-01T10:${String(minute).padStart(2, '0')}:00.000Z`, confidence: null, audioRef: null }]);
    assert.ok(u);
    return u.id;
  };
  const job = (utteranceId: string) => ({ id: `j-${utteranceId}`, name: CONSOLIDATION_JOB, attempt: 1, data: { tenant: T, sessionId: 's', utteranceId } });
  const factsFrom = async (uid: string) =>
    (await deps.memory.listFacts(T, { participantId: ana, includeHistory: true, limit: 1000 })).filter((f) => f.referIds.includes(uid));

  test('a run cut after its first fact, run again: the first wording is replayed, nothing is stored twice', async () => {
    const uid = await say('I moved to Lisbon and I will send you the draft on Friday.');
    const dying = createConsolidationHandler({ ...deps, memory: dyingAt(deps.memory, 2) });
    await assert.rejects(dying(job(uid), new AbortController().signal), /worker killed/);
    assert.equal((await factsFrom(uid)).length, 1, 'the cut run stored its first fact');
    assert.equal(await deps.memory.processedFacts(T, uid), null);

    await createConsolidationHandler(deps)(job(uid), new AbortController().signal);
    const facts = await factsFrom(uid);
    assert.deepEqual(facts.map((f) => f.content).sort(), ['Ana moved to Lisbon', 'Ana will send Ben the draft on Friday'],
      'as many facts as one uninterrupted run, in the words the model first gave');
    assert.deepEqual((await deps.memory.listFacts(T, { subjectId: ana, slot: 'lives_in' })).map((f) => f.value), ['Lisbon'], 'one current home');
    assert.deepEqual([...(await deps.memory.processedFacts(T, uid) ?? [])].sort(), facts.map((f) => f.id).sort());
    assert.equal(await deps.memory.keptExtraction(T, uid), null, 'the kept extraction is dropped once the utterance is processed');
    assert.equal([...asked.entries()].filter(([turn]) => turn.includes('Lisbon')).map(([, n]) => n)[0], 1, 'the model was asked once');
  });

  test('two deliveries of one job at once (the model answering each in other words) store each fact once', async () => {
    const uid = await say('I moved to Porto and I will send you the draft on Friday.');
    const handler = createConsolidationHandler(deps);
    await Promise.all([handler(job(uid), new AbortController().signal), handler(job(uid), new AbortController().signal)]);
    const facts = await factsFrom(uid);
    assert.equal(facts.length, 2, JSON.stringify(facts.map((f) => f.content)));
    assert.deepEqual((await deps.memory.listFacts(T, { subjectId: ana, slot: 'lives_in' })).map((f) => f.value), ['Porto'], 'one current home');
  });
});
