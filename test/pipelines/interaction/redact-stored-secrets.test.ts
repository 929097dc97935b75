/**
 * Turns stored with a secret's value in their text (by a build before ingest redacted it, rules 56, or before the reader
 * found a hedged value, rules 63) are redacted once at start-up (`redactStoredSecrets`): the text, the keyword entry and
 * the vector of an indexed turn; nothing else of the turn, no turn giving no such value, and no index entry for a turn
 * never indexed. A run cut short (an error thrown after a step: no timing) is finished by the next start, on the same
 * SQLite file opened again.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { pino } from 'pino';
import { openStores } from '../../../graph/open-stores.js';
import type { GraphStore } from '../../../graph/graph-store.js';
import type { Stores } from '../../../graph/stores.js';
import type { Utterance } from '../../../graph/types.js';
import type { TextEmbedder } from '../../../pipelines/embeddings/text-embedder.js';
import { redactStoredSecrets, STORED_SECRETS_MIGRATION } from '../../../pipelines/interaction/redact-stored-secrets.js';
import { collectionFor } from '../../../pipelines/memory/collections.js';
import { MemoryIndexer, textHash } from '../../../pipelines/memory/memory-indexer.js';
import { buildApp } from '../../../server/app.js';
import { loadConfig } from '../../../server/config.js';
import { tempDir } from '../../helpers/temp-dir.js';

const T = 'default';
const silent = pino({ level: 'silent' });

/** Test double: a text's vector is its length and 1 (a vector of the new text differs from the old one's). */
class LengthEmbedder implements TextEmbedder {
  readonly space = { model: 'length-double', dimension: 2 };
  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => Float32Array.from([t.length, 1]));
  }
  async close(): Promise<void> {}
}

/** Old texts as a build before redaction stored them, whether each was indexed, and the text stored after. */
const OLD: Array<{ text: string; indexed: boolean; after: string }> = [
  { text: 'My PIN is 7731.', indexed: true, after: 'My PIN is [redacted].' },
  { text: 'I like green tea', indexed: true, after: 'I like green tea' },
  { text: 'the gate code is five five one two if I remember right', indexed: true, after: 'the gate code is [redacted] if I remember right' },
  { text: 'Your PIN is four digits long.', indexed: true, after: 'Your PIN is four digits long.' },
  // Never indexed (doubtful speech): redacted, and still not indexed.
  { text: 'The door code is 4417', indexed: false, after: 'The door code is [redacted]' },
  { text: 'the password is sunshine, and my code word is hunter2', indexed: true, after: 'the password is sunshine, and my code word is [redacted]' },
];

/** A store written as an older build wrote it: `OLD` stored as said, the indexed ones indexed. */
async function oldStore(stores: Stores, embedder: TextEmbedder): Promise<Utterance[]> {
  const ana = await stores.graph.createParticipant(T, { name: 'Ana' });
  await stores.graph.openSession(T, 's1', '2026-12-01T00:00:00.000Z');
  const stored = await stores.graph.addUtterances(T, OLD.map((o, i) => ({ sessionId: 's1', speakerId: ana.id, addresseeIds: [], text: o.text,
    startMs: i * 1000, endMs: i * 1000 + 900, time: `2026-12-01T00:00:0${i}.000Z`, confidence: 0.9, audioRef: null })));
  const indexer = new MemoryIndexer(stores.vectors, stores.lexical, embedder, 'auto');
  for (const [i, u] of stored.entries()) {
    if (!OLD[i]!.indexed) continue;
    const [vector] = await indexer.vectorsFor(T, [{ id: u.id, layer: 'interaction', text: u.text }]);
    await indexer.indexUtterance(T, u, vector!);
  }
  return stored;
}

/** What a redacted store must hold: each turn as before but its text, the index of the new texts only. */
async function assertRedacted(stores: Stores, before: Utterance[]): Promise<void> {
  for (const [i, u] of before.entries()) assert.deepEqual(await stores.graph.getUtterance(T, u.id), { ...u, text: OLD[i]!.after }, u.text);
  for (const word of ['7731', 'five', '4417', 'hunter2']) assert.deepEqual(await stores.lexical.search(T, word, 5), [], word);
  for (const word of ['gate', 'sunshine', 'digits', 'tea']) assert.equal((await stores.lexical.search(T, word, 5)).length, 1, word);
  const points = await stores.vectors.get(T, collectionFor('interaction'), before.map((u) => u.id));
  assert.deepEqual(points.map((p) => p.id).sort(), before.filter((_, i) => OLD[i]!.indexed).map((u) => u.id).sort());
  for (const p of points) {
    const after = OLD[before.findIndex((u) => u.id === p.id)]!.after;
    assert.equal(p.payload.textHash, textHash(after), 'the vector is of the text stored');
  }
}

describe('redactStoredSecrets: turns stored before redaction', () => {
  const dirs: Array<{ remove(): void }> = [];
  const open = (dir: string): Stores => openStores(loadConfig({ DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'silent' }), silent);
  after(() => { for (const d of dirs) d.remove(); });

  test('each turn holding a value with a digit is redacted and indexed again, once; nothing else changes', async () => {
    const tmp = tempDir();
    dirs.push(tmp);
    const stores = open(tmp.dir);
    const embedder = new LengthEmbedder();
    try {
      const before = await oldStore(stores, embedder);
      assert.equal((await stores.lexical.search(T, '7731', 5)).length, 1, 'the old index holds the value');
      assert.equal(await redactStoredSecrets({ stores, embedder, minAsrConfidence: 'auto', batch: 2 }, T), 4);
      await assertRedacted(stores, before);
      assert.ok(await stores.memory.migrationDone(T, STORED_SECRETS_MIGRATION));
      assert.equal(await redactStoredSecrets({ stores, embedder, minAsrConfidence: 'auto' }, T), null, 'once per store');
    } finally {
      await stores.close();
    }
  });

  test('a run cut short after a turn was indexed, before its text was written, is finished at the next start', async () => {
    const tmp = tempDir();
    dirs.push(tmp);
    const embedder = new LengthEmbedder();
    let stores = open(tmp.dir);
    let before: Utterance[];
    try {
      before = await oldStore(stores, embedder);
      let writes = 0;
      const graph = new Proxy(stores.graph, {
        get(target, key) {
          if (key === 'setUtteranceTexts') {
            return async (...args: Parameters<GraphStore['setUtteranceTexts']>) => {
              writes += 1;
              if (writes === 2) throw new Error('crash after the second turn was indexed');
              return target.setUtteranceTexts(...args);
            };
          }
          const value = Reflect.get(target, key) as unknown;
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
      await assert.rejects(redactStoredSecrets({ stores: { ...stores, graph }, embedder, minAsrConfidence: 'auto', batch: 1 }, T), /crash after/);
      assert.equal(await stores.memory.migrationDone(T, STORED_SECRETS_MIGRATION), false);
      // Pages go by id: which turn came first is the ids' order. One turn was written, the other three keep their old text.
      const texts = await Promise.all(before.map(async (u) => (await stores.graph.getUtterance(T, u.id))?.text));
      const owed = OLD.map((o, i) => ({ ...o, now: texts[i] })).filter((o) => o.after !== o.text);
      assert.deepEqual(owed.map((o) => o.now === o.after).sort(), [false, false, false, true], JSON.stringify(texts));
    } finally {
      await stores.close();
    }
    stores = open(tmp.dir);
    try {
      assert.equal(await redactStoredSecrets({ stores, embedder, minAsrConfidence: 'auto', batch: 1 }, T), 3, 'the turns left, the first not again');
      await assertRedacted(stores, before);
    } finally {
      await stores.close();
    }
  });

  test('the server redacts them when it starts (the job handlers\' start-up)', async () => {
    const tmp = tempDir();
    dirs.push(tmp);
    const stores = open(tmp.dir);
    let id: string;
    try {
      const ana = await stores.graph.createParticipant(T, { name: 'Ana' });
      await stores.graph.openSession(T, 's1', '2026-12-01T00:00:00.000Z');
      [{ id }] = await stores.graph.addUtterances(T, [{ sessionId: 's1', speakerId: ana.id, addresseeIds: [], text: 'my PIN is 7731 I think',
        startMs: null, endMs: null, time: '2026-12-01T00:00:01.000Z', confidence: null, audioRef: null }]) as [Utterance];
    } finally {
      await stores.close();
    }
    const app = await buildApp(loadConfig({ DATA_DIR: tmp.dir, PORT: '0', LOG_LEVEL: 'silent', PARLEY_ASR: 'none' }), { logger: silent });
    try {
      assert.equal((await app.stores.graph.getUtterance(T, id))?.text, 'my PIN is [redacted] I think');
      assert.ok(await app.stores.memory.migrationDone(T, STORED_SECRETS_MIGRATION));
    } finally {
      await app.close();
    }
  });
});
