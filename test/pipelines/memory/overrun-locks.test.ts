import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pino from 'pino';
import { JOB_OVERRAN } from '../../../graph/job-queue.js';
import { MemoryKeyedLock } from '../../../graph/memory-keyed-lock.js';
import { openDatabase, type SqliteDatabase } from '../../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../../graph/sqlite/sqlite-graph-store.js';
import { SqliteJobQueue } from '../../../graph/sqlite/sqlite-job-queue.js';
import { SqliteLexicalIndex } from '../../../graph/sqlite/sqlite-lexical-index.js';
import { SqliteMemoryStore } from '../../../graph/sqlite/sqlite-memory-store.js';
import { SqliteVectorStore } from '../../../graph/sqlite/sqlite-vector-store.js';
import { UseLiteEmbedder } from '../../../pipelines/embeddings/use-lite-embedder.js';
import { CONSOLIDATION_JOB, createConsolidationHandler, type ConsolidationJob } from '../../../pipelines/memory/consolidate.js';
import { RuleDecider, type Decider } from '../../../pipelines/memory/decide.js';
import { EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';

/*
 * A consolidation try that hangs while it decides (a decider call that never answers) holds its subjects' locks. Once
 * it runs past the queue's maxRunMs it is aborted and retried: the retry must get those locks (not wait on the hung
 * try, overrun in turn and end as a dead letter), and the hung try, when its call answers at last, must write nothing.
 */

const T = 't_overrun';
let embedder: UseLiteEmbedder;

before(() => {
  embedder = new UseLiteEmbedder();
});

after(async () => {
  await embedder.close();
});

test('a try aborted for overrunning gives its subject locks to its retry, which finishes the job; the hung try writes nothing after', async () => {
  const db: SqliteDatabase = openDatabase(':memory:');
  const graph = new SqliteGraphStore(db);
  const memory = new SqliteMemoryStore(db);
  const rules = new RuleDecider();
  // The first decision of the move hangs until the test lets it answer; every other is the rule decider's.
  let hangNext = false;
  let answer!: () => void;
  const answered = new Promise<void>((resolve) => { answer = resolve; });
  let hung!: () => void;
  const hanging = new Promise<void>((resolve) => { hung = resolve; });
  const decider: Decider = {
    async decide(input) {
      if (hangNext) {
        hangNext = false;
        hung();
        await answered;
      }
      return rules.decide(input);
    },
  };
  const handler = createConsolidationHandler({
    graph, memory, vectors: new SqliteVectorStore(db), lexical: new SqliteLexicalIndex(db), embedder, decider,
    extractor: new EmbeddedExtractor(), onOps: () => {}, logger: pino({ level: 'silent' }),
    // The default wait (a minute) is longer than a try may run here: without giving the keys up the retry overruns too.
    locks: new MemoryKeyedLock(),
  });
  const queue = new SqliteJobQueue(db, { pollMs: 10, maxRunMs: 3000 });
  // The queue's timers never keep a process alive, nor does a hung call: this does, while the test waits on them.
  const alive = setInterval(() => undefined, 1000);
  try {
    const [ana, ben] = [(await graph.createParticipant(T, { name: 'Ana' })).id, (await graph.createParticipant(T, { name: 'Ben' })).id];
    await graph.openSession(T, 's1', '2026-12-02T09:00:00.000Z');
    // Ana to Ben: her home, then a move, a minute apart.
    const [porto, boulder] = await graph.addUtterances(T, ['I live in Porto.', 'I moved to Boulder.'].map((text, i) => ({
      text, sessionId: 's1', speakerId: ana, addresseeIds: [ben], time: `2026-12-02T09:0${i + 1}:00.000Z`,
      startMs: null, endMs: null, confidence: null, audioRef: null,
    })));
    assert.ok(porto && boulder);
    // Porto first, outside the queue (the embedder loads its model here, not inside a timed try).
    await handler({ id: 'j0', name: CONSOLIDATION_JOB, attempt: 1, data: { tenant: T, sessionId: 's1', utteranceId: porto.id } }, new AbortController().signal);

    const tries: Promise<void>[] = [];
    queue.process<ConsolidationJob>(CONSOLIDATION_JOB, (job, signal) => {
      const run = handler(job, signal);
      tries.push(run);
      return run;
    });
    hangNext = true;
    await queue.enqueue<ConsolidationJob>(CONSOLIDATION_JOB, { tenant: T, sessionId: 's1', utteranceId: boulder.id }, { attempts: 3, backoffMs: 10 });
    await hanging;
    await queue.drain(CONSOLIDATION_JOB, 60_000);
    assert.deepEqual(await queue.deadLetters(CONSOLIDATION_JOB), [], 'the retry took the hung try\'s locks and finished the job');
    assert.ok(tries.length >= 2, 'the hung try was retried');

    const once = await memory.listFacts(T, { subjectId: ana, slot: 'lives_in', includeHistory: true });
    const written = JSON.stringify(once);
    // The hung try's call answers at last: it was aborted and holds no lock, so it must not write.
    answer();
    const [first] = await Promise.allSettled(tries);
    assert.equal(first?.status, 'rejected');
    assert.ok(first?.status === 'rejected' && String((first.reason as Error).message).startsWith(JOB_OVERRAN), String(first?.status === 'rejected' ? first.reason : ''));
    const now = await memory.listFacts(T, { subjectId: ana, slot: 'lives_in', includeHistory: true });
    assert.equal(JSON.stringify(now), written, 'nothing written by the aborted try');
    assert.deepEqual(now.filter((f) => f.validTo === null).map((f) => f.value), ['Boulder'], 'one current home');
    assert.equal(now.length, 2, 'Porto and one Boulder');
  } finally {
    clearInterval(alive);
    await queue.close(1000);
    db.close();
  }
});
