/**
 * review D M1: ingest indexed every stored turn for keyword search, doubtful speech too, and consolidation's early
 * return for a doubtful turn left that entry: a far-field turn pocketsphinx misheard at 0.11 in a 16 kHz room could come
 * back from BM25 as a `memory.context` or query item. Ingest stores and queues it, and indexes it no more. Real SQLite
 * graph and FTS5 index; a recording queue.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pino from 'pino';
import type { JobQueue } from '../../../graph/job-queue.js';
import { openDatabase } from '../../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../../graph/sqlite/sqlite-graph-store.js';
import { SqliteLexicalIndex } from '../../../graph/sqlite/sqlite-lexical-index.js';
import type { HeardBy } from '../../../graph/types.js';
import { InteractionIngest, type UtteranceInput } from '../../../pipelines/interaction/ingest.js';
import type { MinAsrConfidence } from '../../../pipelines/memory/doubtful-speech.js';

const T = 't_doubt';
const TIME = '2026-12-06T10:00:00.000Z';
const ROOM: HeardBy = { asr: 'pocketsphinx', sampleRate: 16000 };
const PHONE: HeardBy = { asr: 'pocketsphinx', sampleRate: 8000 };

/** Ingest one turn saying `word` under `setting` (absent: the default); whether keyword search finds it, and whether it was queued. */
async function heard(input: Omit<UtteranceInput, 'speaker' | 'text'>, setting?: MinAsrConfidence): Promise<{ found: boolean; queued: boolean }> {
  const db = openDatabase(':memory:');
  try {
    const graph = new SqliteGraphStore(db);
    const lexical = new SqliteLexicalIndex(db);
    const queued: unknown[] = [];
    const queue = { enqueue: async (_name: string, data: unknown) => { queued.push(data); } } as unknown as JobQueue;
    const ingest = new InteractionIngest({
      graph, lexical, queue, logger: pino({ level: 'silent' }), ...(setting === undefined ? {} : { minAsrConfidence: setting }),
    });
    const [stored] = await ingest.ingest(T, 's1', [{ speaker: 'Ana', text: 'I live in Zanzibar and my sister is called Quorra', time: TIME, ...input }]);
    assert.ok(stored);
    const hits = await lexical.search(T, 'Zanzibar Quorra', 10, { layer: 'interaction' });
    return { found: hits.some((h) => h.id === stored.utterance.id), queued: queued.length === 1 };
  } finally {
    db.close();
  }
}

describe('doubtful speech is stored and queued, never indexed for keyword search (review D M1)', () => {
  test('by default (auto): a 16 kHz pocketsphinx turn at 0.11 is not searchable, and is still queued', async () => {
    assert.deepEqual(await heard({ confidence: 0.11, heardBy: ROOM }), { found: false, queued: true });
    assert.deepEqual(await heard({ confidence: 0.11, heardBy: ROOM }, 'auto'), { found: false, queued: true });
  });

  test('an explicit cut gates every recognised turn; 0 gates none', async () => {
    assert.deepEqual(await heard({ confidence: 0.11, heardBy: PHONE }, 0.35), { found: false, queued: true });
    assert.deepEqual(await heard({ confidence: 0.11 }, 0.35), { found: false, queued: true });
    assert.deepEqual(await heard({ confidence: 0.11, heardBy: ROOM }, 0), { found: true, queued: true });
  });

  test('controls: what is not doubtful is indexed as before', async () => {
    assert.deepEqual(await heard({ confidence: 0.11, heardBy: PHONE }), { found: true, queued: true }, 'a phone turn: no gate under auto');
    assert.deepEqual(await heard({ confidence: 0.11, heardBy: { asr: 'moonshine', sampleRate: 16000 } }), { found: true, queued: true });
    assert.deepEqual(await heard({ confidence: 0.6, heardBy: ROOM }), { found: true, queued: true }, 'a room turn heard well');
    assert.deepEqual(await heard({ confidence: 0.35, heardBy: ROOM }), { found: true, queued: true }, 'at the cut itself');
    assert.deepEqual(await heard({}), { found: true, queued: true }, 'a client\'s text (no confidence)');
    assert.deepEqual(await heard({ confidence: 0.11 }), { found: true, queued: true }, 'a turn without heardBy (stored before it was kept)');
  });
});
