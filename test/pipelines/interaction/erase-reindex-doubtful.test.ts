/**
 * An erasure indexes other people's turns again (`redactMentions`, `reindexWithout`): one rewritten to leave the erased
 * person's name out, and one that only addressed them. A turn heard doubtfully (pocketsphinx, 16 kHz, confidence 0.11
 * under the `auto` gate, `doubtfulSpeech`) was never indexed, and an erasure must not give it a keyword entry or a
 * vector (review: erase-mentions `reindexWithout` skipped the doubtful-speech check). A turn heard well is indexed
 * again as before.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { pino } from 'pino';
import { openStores } from '../../../graph/open-stores.js';
import type { Stores } from '../../../graph/stores.js';
import type { TextEmbedder } from '../../../pipelines/embeddings/text-embedder.js';
import { redactMentions, reindexWithout } from '../../../pipelines/interaction/erase-mentions.js';
import { collectionFor } from '../../../pipelines/memory/collections.js';
import { loadConfig } from '../../../server/config.js';
import { tempDir } from '../../helpers/temp-dir.js';

const T = 'default';
const room = { asr: 'pocketsphinx', sampleRate: 16000 };

/** Test double: a text's vector is its length and 1. */
class LengthEmbedder implements TextEmbedder {
  readonly space = { model: 'length-double', dimension: 2 };
  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => Float32Array.from([t.length, 1]));
  }
  async close(): Promise<void> {}
}

describe('erasure re-indexing leaves doubtful speech unindexed', () => {
  const dirs: Array<{ remove(): void }> = [];
  after(() => { for (const d of dirs) d.remove(); });

  async function setUp(): Promise<{ stores: Stores; ilse: string; heard: string; doubtful: string; addressed: string }> {
    const tmp = tempDir();
    dirs.push(tmp);
    const stores = openStores(loadConfig({ DATA_DIR: tmp.dir, PORT: '0', LOG_LEVEL: 'silent' }), pino({ level: 'silent' }));
    const ana = await stores.graph.createParticipant(T, { name: 'Ana' });
    const ilse = await stores.graph.createParticipant(T, { name: 'Ilse' });
    await stores.graph.openSession(T, 's1', '2026-12-01T00:00:00.000Z');
    const turn = (i: number, text: string, confidence: number, addresseeIds: string[] = []) => ({ sessionId: 's1', speakerId: ana.id, addresseeIds, text,
      startMs: i * 1000, endMs: i * 1000 + 900, time: `2026-12-01T00:00:0${i}.000Z`, confidence, audioRef: null, heardBy: room });
    const [heard, doubtful, addressed] = await stores.graph.addUtterances(T, [
      turn(0, 'Ilse brought the lemon cake', 0.9),
      turn(1, 'niacin learn Ilse he needs some never get hurt', 0.11),
      turn(2, 'fog cider lantern mumble', 0.11, [ilse.id]),
    ]);
    return { stores, ilse: ilse.id, heard: heard!.id, doubtful: doubtful!.id, addressed: addressed!.id };
  }

  test('a doubtful turn an erasure redacts gets no keyword entry nor vector; a turn heard well is indexed', async () => {
    const { stores, ilse, heard, doubtful } = await setUp();
    const deps = { stores, embedder: new LengthEmbedder(), minAsrConfidence: 'auto' as const };
    await redactMentions(deps, T, { participantId: ilse, names: ['Ilse'], values: [], redacted: [], spoken: [] }, async () => {});
    assert.equal((await stores.graph.getUtterance(T, doubtful))?.text, 'niacin learn [erased] he needs some never get hurt', 'redacted');
    assert.deepEqual((await stores.lexical.search(T, 'niacin', 5)).map((h) => h.id), [], 'no keyword entry for the doubtful turn');
    assert.deepEqual((await stores.vectors.get(T, collectionFor('interaction'), [doubtful])).map((p) => p.id), [], 'no vector for it');
    assert.deepEqual((await stores.lexical.search(T, 'lemon', 5)).map((h) => h.id), [heard], 'the turn heard well is indexed again');
    assert.deepEqual((await stores.vectors.get(T, collectionFor('interaction'), [heard])).map((p) => p.id), [heard]);
    await stores.close();
  });

  test('a doubtful turn that only addressed the erased person gets no entry either; a setting of 0 (no gate) indexes it, and auto again removes it', async () => {
    const { stores, ilse, addressed } = await setUp();
    await reindexWithout({ stores, embedder: new LengthEmbedder(), minAsrConfidence: 'auto' }, T, ilse, [addressed]);
    assert.deepEqual((await stores.lexical.search(T, 'lantern', 5)).map((h) => h.id), [], 'no keyword entry');
    assert.deepEqual((await stores.vectors.get(T, collectionFor('interaction'), [addressed])).map((p) => p.id), [], 'no vector');
    await reindexWithout({ stores, embedder: new LengthEmbedder(), minAsrConfidence: 0 }, T, ilse, [addressed]);
    assert.deepEqual((await stores.lexical.search(T, 'lantern', 5)).map((h) => h.id), [addressed], 'the setting reaches the indexer');
    await reindexWithout({ stores, embedder: new LengthEmbedder(), minAsrConfidence: 'auto' }, T, ilse, [addressed]);
    assert.deepEqual((await stores.lexical.search(T, 'lantern', 5)).map((h) => h.id), [], 'an entry from another setting goes');
    assert.deepEqual((await stores.vectors.get(T, collectionFor('interaction'), [addressed])).map((p) => p.id), [], 'its vector too');
    await stores.close();
  });
});
