import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { GraphStore } from '../../../graph/graph-store.js';
import type { Utterance } from '../../../graph/types.js';
import { answerQuestion } from '../../../pipelines/retrieval/agentic-query.js';
import { Retriever } from '../../../pipelines/retrieval/retriever.js';
import { memoryFixture, SNIPPETS, type MemoryFixture } from '../../helpers/memory-fixture.js';

const T = 't_many_people';
/** Participants besides the three who speak: a call centre's callers. */
const CALLERS = 3_000;

/** The graph store, counting the participants each read returns; `wholeTenant` answers name lookups as the old code read them. */
function counting(graph: GraphStore, wholeTenant: boolean): { graph: GraphStore; read: Map<string, number> } {
  const read = new Map<string, number>();
  const proxy = new Proxy(graph, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      const name = String(key);
      return async (...args: unknown[]) => {
        const call = wholeTenant && name === 'findParticipantsByWords'
          ? target.listParticipants(args[0] as string)
          : (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        const out = await call;
        if (/Participant/.test(name)) read.set(name, (read.get(name) ?? 0) + (Array.isArray(out) ? out.length : 1));
        return out;
      };
    },
  });
  return { graph: proxy, read };
}

describe('explicit questions in a tenant of thousands of participants', () => {
  let f: MemoryFixture;
  const said: Utterance[] = [];
  before(async () => {
    f = await memoryFixture(T, ['Ana', 'Ben', 'Clara']);
    for (const s of SNIPPETS) said.push(await f.say(s.session, s.speaker, s.to, s.text, s.time));
    // Callers, some sharing a word with the speakers' names or the questions' topics.
    const names = ['Ana Costa', 'Benjamin', 'Clara Ben', 'Miko', "Report O'Hara", null];
    for (let i = 0; i < CALLERS; i++) {
      const name = names[i % names.length];
      await f.graph.createParticipant(T, { ...(name === null ? {} : { name: `${name} ${i}` }), aliases: i % 7 === 0 ? [`Caller ${i}`] : [] });
    }
  });
  after(async () => {
    await f.close();
  });

  const questions = [
    'What did Ana promise Ben?', "What is Ana's cat called?", 'What did Ben say about the cat?', 'Did Clara and Ben talk about the report?',
    'What did Ana Costa tell Ben about Miko?', 'Who is learning the cello?', 'What happened in November 2026?',
  ];

  test('answers are the same as when every participant was read, and only the named ones are read', async () => {
    const wanted = counting(f.graph, true);
    const scaled = counting(f.graph, false);
    const before = new Retriever({ ...f, graph: wanted.graph }, f.entities, f.embedder, { minPool: 1 });
    const after = new Retriever({ ...f, graph: scaled.graph }, f.entities, f.embedder, { minPool: 1 });
    const now = new Date('2026-12-01T12:00:00Z');
    for (const question of questions) {
      const a = await answerQuestion(before, T, { question, k: 5, now });
      const b = await answerQuestion(after, T, { question, k: 5, now });
      assert.ok(a.evidence.length > 0, question);
      assert.deepEqual(b.evidence, a.evidence, question);
      assert.equal(b.rounds, a.rounds, question);
      const live = [await before.retrieve({ tenant: T, text: question, k: 5, askerId: f.people.Ana! }),
        await after.retrieve({ tenant: T, text: question, k: 5, askerId: f.people.Ana! })];
      assert.deepEqual(live[1]!.items, live[0]!.items, question);
    }
    assert.ok((wanted.read.get('findParticipantsByWords') ?? 0) >= questions.length * CALLERS, 'the reference read every participant');
    assert.equal(scaled.read.get('listParticipants'), undefined, 'no question lists the tenant');
    const perQuestion = (scaled.read.get('findParticipantsByWords') ?? 0) / questions.length / 2;
    assert.ok(perQuestion < CALLERS / 2, `${perQuestion} participants read per question`);
  });
});
