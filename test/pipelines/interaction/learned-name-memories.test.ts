import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import type { JobQueue } from '../../../graph/job-queue.js';
import type { ConsolidationJob } from '../../../pipelines/memory/consolidate.js';
import { InteractionIngest } from '../../../pipelines/interaction/ingest.js';
import { PENDING_RENAME } from '../../../pipelines/interaction/pending-rename.js';
import { embeddedMemory, type EmbeddedMemory } from '../../helpers/memory-fixture.js';

/**
 * A name learned after the fact (said in a later turn, or taken from a profile update) used to leave "An unnamed
 * speaker" in that person's earlier memories; only a PATCH rename rewrote them. The same rewrite now follows a learned
 * name, through the consolidation job of the turn that taught it.
 */
describe('a name learned later names the earlier memories', () => {
  let m: EmbeddedMemory;
  before(() => {
    m = embeddedMemory();
  });
  after(async () => {
    await m.close();
  });

  /** Store a turn of `speakerId` in `session` (opened at 10:00) without ingest's naming; its id. */
  const storeTurn = async (tenant: string, session: string, speakerId: string, text: string, time: string): Promise<string> => {
    await m.graph.openSession(tenant, session, '2026-12-01T10:00:00.000Z');
    const [u] = await m.graph.addUtterances(tenant, [{ sessionId: session, speakerId, addresseeIds: [], text, startMs: null, endMs: null, time, confidence: null, audioRef: null }]);
    return u!.id;
  };

  /** Facts about `id` (history included), their texts. */
  const textsAbout = async (tenant: string, id: string): Promise<string[]> =>
    (await m.memory.listFacts(tenant, { participantId: id, includeHistory: true })).map((f) => f.content);

  test('a self-introduction at ingest (turn 2) renames the fact of turn 1, once its consolidation job ran', async () => {
    const tenant = 't-learned-speech';
    const queued: ConsolidationJob[] = [];
    // A queue double: the jobs are run below, in order, as a worker would.
    const queue = { enqueue: async (_name: string, data: ConsolidationJob) => { queued.push(data); return `j${queued.length}`; } } as unknown as JobQueue;
    const ingest = new InteractionIngest({ graph: m.graph, lexical: m.lexical, queue, logger: pino({ level: 'silent' }) });
    const voice = await m.graph.createParticipant(tenant, {});
    await m.graph.openSession(tenant, 's1', '2026-12-01T10:00:00.000Z');
    await ingest.ingest(tenant, 's1', [{ speaker: voice.id, text: 'I love green tea.', time: '2026-12-01T10:01:00.000Z' }]);
    for (const job of queued.splice(0)) await m.consolidate(tenant, job.sessionId, job.utteranceId);
    assert.match((await textsAbout(tenant, voice.id)).join(' | '), /unnamed speaker/i, 'turn 1 is remembered of an unnamed speaker');

    await ingest.ingest(tenant, 's1', [{ speaker: voice.id, text: "By the way, I'm Grace.", time: '2026-12-01T10:12:00.000Z' }]);
    assert.equal((await m.graph.getParticipant(tenant, voice.id))?.name, 'Grace', 'named at ingest');
    for (const job of queued.splice(0)) await m.consolidate(tenant, job.sessionId, job.utteranceId);
    const texts = await textsAbout(tenant, voice.id);
    assert.ok(texts.some((t) => /^Grace\b.*green tea/i.test(t)), `the earlier memory names her: ${JSON.stringify(texts)}`);
    assert.ok(!texts.some((t) => /unnamed speaker/i.test(t)), `no memory of hers still says "an unnamed speaker": ${JSON.stringify(texts)}`);
    assert.equal((await m.graph.getParticipant(tenant, voice.id))?.attributes[PENDING_RENAME], undefined, 'nothing left owed');
  });

  test('a name given by the profile job (no naming at ingest) renames the earlier fact too', async () => {
    const tenant = 't-learned-profile';
    const voice = await m.graph.createParticipant(tenant, {});
    const say = async (text: string, time: string): Promise<void> => m.consolidate(tenant, 's2', await storeTurn(tenant, 's2', voice.id, text, time));
    await say('I love green tea.', '2026-12-01T10:01:00.000Z');
    await say('My name is Grace.', '2026-12-01T10:12:00.000Z');
    assert.equal((await m.graph.getParticipant(tenant, voice.id))?.name, 'Grace', 'named by the profile update');
    const texts = await textsAbout(tenant, voice.id);
    assert.ok(texts.some((t) => /^Grace\b.*green tea/i.test(t)), `the earlier memory names her: ${JSON.stringify(texts)}`);
    assert.equal((await m.graph.getParticipant(tenant, voice.id))?.attributes[PENDING_RENAME], undefined, 'nothing left owed');
  });

  test('a rewrite that fails in the job (a store error) is finished when the job runs again', async () => {
    const tenant = 't-learned-retry';
    const voice = await m.graph.createParticipant(tenant, {});
    const store = (text: string, time: string): Promise<string> => storeTurn(tenant, 's3', voice.id, text, time);
    await m.consolidate(tenant, 's3', await store('I love green tea.', '2026-12-01T10:01:00.000Z'));
    const naming = await store('My name is Grace.', '2026-12-01T10:12:00.000Z');
    // A failing seam: the store's write of a fact's text throws once, as a lost database connection would.
    const patchFact = m.memory.patchFact.bind(m.memory);
    let failures = 1;
    m.memory.patchFact = async (...args) => {
      if (failures-- > 0) throw new Error('store unavailable (test seam)');
      return patchFact(...args);
    };
    try {
      await assert.rejects(m.consolidate(tenant, 's3', naming), /test seam/);
      assert.ok((await m.graph.getParticipant(tenant, voice.id))?.attributes[PENDING_RENAME], 'the rewrite is still owed');
      await m.consolidate(tenant, 's3', naming);
    } finally {
      m.memory.patchFact = patchFact;
    }
    const texts = await textsAbout(tenant, voice.id);
    assert.ok(texts.some((t) => /^Grace\b.*green tea/i.test(t)), `finished by the rerun: ${JSON.stringify(texts)}`);
    assert.equal((await m.graph.getParticipant(tenant, voice.id))?.attributes[PENDING_RENAME], undefined, 'nothing left owed');
  });
});
