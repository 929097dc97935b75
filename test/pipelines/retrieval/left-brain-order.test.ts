import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import pino from 'pino';
import type { Utterance } from '../../../graph/types.js';
import type { VectorStore } from '../../../graph/vector-store.js';
import { ENTITY_COLLECTION, createLeftBrainHandler, descriptionOrder } from '../../../pipelines/retrieval/left-brain-job.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';

/**
 * Issue #16 item 5: a tenant's consolidation jobs run concurrently, so the turns that first name an entity may finish in
 * either order. The entity's description (and its vector and schema) must not depend on which finished first: it is
 * the earliest turn's.
 */
describe('left-brain entity description and job order', () => {
  const lines = [
    { speaker: 'Ana', addressees: ['Ben'], text: 'We finally booked the cabin at Lake Tahoe for March.', time: '2026-11-02T10:00:00Z' },
    { speaker: 'Ben', addressees: ['Ana'], text: 'Lake Tahoe gets two feet of snow most winters.', time: '2026-11-02T10:01:00Z' },
  ];
  const fixtures: MemoryFixture[] = [];
  after(async () => {
    for (const fx of fixtures) await fx.close();
  });

  /** A fixture with both turns stored, none consolidated yet. */
  const stored = async (): Promise<{ fx: MemoryFixture; said: Utterance[] }> => {
    const fx = await memoryFixture('t', ['Ana', 'Ben']);
    fixtures.push(fx);
    await fx.graph.openSession('t', 's1', lines[0]!.time);
    const said = await fx.graph.addUtterances('t', lines.map((l) => ({
      sessionId: 's1', speakerId: fx.people[l.speaker] as string, addresseeIds: l.addressees.map((a) => fx.people[a] as string),
      text: l.text, startMs: null, endMs: null, time: l.time, confidence: null, audioRef: null,
    })));
    return { fx, said };
  };

  /** What the left brain keeps of Lake Tahoe. */
  const tahoe = async (fx: MemoryFixture) => {
    const [e] = await fx.entities.findByNames('t', ['Lake Tahoe']);
    assert.ok(e, 'an entity for Lake Tahoe');
    const [point] = await fx.vectors.get('t', ENTITY_COLLECTION, [e.id]);
    return { name: e.name, description: e.description, schemaId: e.schemaId, vector: [...point?.vector ?? []] };
  };

  /** Both turns' jobs run in `order` (indexes into `lines`). */
  const build = async (order: number[]) => {
    const { fx, said } = await stored();
    for (const i of order) await fx.consolidate('t', 's1', said[i]!.id);
    return tahoe(fx);
  };

  test('the later turn finishing first gives the same description, vector and schema as turn order', async () => {
    const inOrder = await build([0, 1]);
    const reversed = await build([1, 0]);
    assert.match(inOrder.description, /booked the cabin/, 'described by the first turn that names it');
    assert.ok(inOrder.vector.length > 0, 'the description has its vector');
    assert.deepEqual(reversed, inOrder);
  });

  test('a vector the later turn wrote after the earlier turn\'s job ended is written over with the description\'s', async () => {
    const { fx, said } = await stored();
    let interleave: (() => Promise<void>) | null = null;
    // The later turn's job pauses before its first vector write while the earlier turn's job runs to its end.
    const vectors = new Proxy(fx.vectors, {
      get(target, key) {
        if (key === 'upsert') {
          return async (...args: Parameters<VectorStore['upsert']>) => {
            const run = interleave;
            interleave = null;
            if (run) await run();
            return target.upsert(...args);
          };
        }
        const v: unknown = Reflect.get(target, key);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    const leftBrain = createLeftBrainHandler({ graph: fx.graph, memory: fx.memory, vectors, entities: fx.entities, embedder: fx.embedder,
      logger: pino({ level: 'silent' }) });
    const job = (u: Utterance) => leftBrain({ id: u.id, name: 'retrieval.left-brain', attempt: 1, data: { tenant: 't', utteranceId: u.id, factIds: [] } },
      new AbortController().signal);
    interleave = () => job(said[0]!);
    await job(said[1]!);
    const kept = await tahoe(fx);
    assert.match(kept.description, /booked the cabin/);
    assert.deepEqual(kept.vector, [...(await fx.embedder.embed([kept.description]))[0]!]);
  });

  test('turn order: time spoken, then place in the session, whatever the time notation', () => {
    const a = descriptionOrder({ time: '2026-11-02T10:00:00Z', seq: 9 });
    assert.ok(a < descriptionOrder({ time: '2026-11-02T10:00:00.000Z', seq: 10 }));
    assert.ok(a > descriptionOrder({ time: '2026-11-02T11:00:00+02:00', seq: 12 }), '09:00 UTC precedes 10:00 UTC');
  });
});
