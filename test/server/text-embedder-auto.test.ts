import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
import { ParleyClient } from '../../clients/typescript/src/index.js';
import { OnnxTextEmbedder } from '../../pipelines/embeddings/onnx-text-embedder.js';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { collectionFor } from '../../pipelines/memory/collections.js';
import { BGE_SMALL_EN_Q_MODEL } from '../../pipelines/models/manifest.js';
import { buildApp } from '../../server/app.js';
import { ConfigError, loadConfig } from '../../server/config.js';
import { createAffectEmbedder, createTextEmbedder } from '../../server/plugins/models.js';
import { buildTestTextModel, testTokenizerJson } from '../doubles/onnx-text-model.js';
import { TextAffectClassifier } from '../../pipelines/affect/text-affect.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const FETCH = `npm run models -- fetch ${BGE_SMALL_EN_Q_MODEL}`;

describe('PARLEY_TEXT_EMBEDDER=auto (the default): bge-small-en-v1.5-q when installed, else USE-lite with one warning', () => {
  let root = '';
  let installed = '';
  let empty = '';
  before(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'parley-auto-embedder-'));
    // A stand-in for the int8 bge (same folder, same file names, 384-d [CLS] model over a small real tokenizer).
    installed = path.join(root, 'models');
    mkdirSync(path.join(installed, BGE_SMALL_EN_Q_MODEL), { recursive: true });
    buildTestTextModel(path.join(installed, BGE_SMALL_EN_Q_MODEL, 'model.onnx'), 384);
    writeFileSync(path.join(installed, BGE_SMALL_EN_Q_MODEL, 'tokenizer.json'), testTokenizerJson());
    empty = path.join(root, 'no-models');
    mkdirSync(empty);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  test('installed: auto (unset or named) runs bge-small-en-v1.5-q, no warning', () => {
    for (const env of [{ MODELS_DIR: installed }, { MODELS_DIR: installed, PARLEY_TEXT_EMBEDDER: 'auto' }]) {
      const config = loadConfig(env);
      assert.equal(config.textEmbedder, BGE_SMALL_EN_Q_MODEL, JSON.stringify(env));
      assert.equal(config.textEmbedderFallback, null);
      assert.ok(createTextEmbedder(config) instanceof OnnxTextEmbedder);
    }
  });

  test('not installed, or half installed: USE-lite, and the warning names the folder and the fetch command', () => {
    const half = path.join(root, 'half');
    mkdirSync(path.join(half, BGE_SMALL_EN_Q_MODEL), { recursive: true });
    writeFileSync(path.join(half, BGE_SMALL_EN_Q_MODEL, 'model.onnx'), 'x');
    for (const dir of [empty, half]) {
      const config = loadConfig({ MODELS_DIR: dir });
      assert.equal(config.textEmbedder, 'use-lite');
      assert.ok(config.textEmbedderFallback?.includes(FETCH), config.textEmbedderFallback ?? 'no warning');
      assert.ok(config.textEmbedderFallback?.includes(dir));
    }
  });

  test('explicit values are unchanged: use-lite stays USE-lite beside an installed bge, bge without its files stays bge (and fails at start)', () => {
    assert.equal(loadConfig({ MODELS_DIR: installed, PARLEY_TEXT_EMBEDDER: 'use-lite' }).textEmbedder, 'use-lite');
    assert.equal(loadConfig({ MODELS_DIR: installed, PARLEY_TEXT_EMBEDDER: 'use-lite' }).textEmbedderFallback, null);
    const bge = loadConfig({ MODELS_DIR: empty, PARLEY_TEXT_EMBEDDER: 'bge-small-en-v1.5' });
    assert.deepEqual([bge.textEmbedder, bge.textEmbedderFallback], ['bge-small-en-v1.5', null]);
    const openai = loadConfig({ MODELS_DIR: installed, PARLEY_TEXT_EMBEDDER: 'openai', OPENAI_API_KEY: 'k' });
    assert.equal(openai.textEmbedder, 'openai');
    assert.throws(() => loadConfig({ PARLEY_TEXT_EMBEDDER: 'bge' }), (err: unknown) => err instanceof ConfigError && /PARLEY_TEXT_EMBEDDER/.test(err.message) && /auto/.test(err.message));
  });

  test('text affect runs on the text embedder itself (no second text model beside bge), none beside openai', async () => {
    const lite = loadConfig({ MODELS_DIR: empty, PARLEY_TEXT_EMBEDDER: 'use-lite' });
    const liteEmbedder = createTextEmbedder(lite);
    assert.equal(createAffectEmbedder(lite, liteEmbedder), liteEmbedder);
    const bge = loadConfig({ MODELS_DIR: installed });
    const bgeEmbedder = createTextEmbedder(bge);
    assert.equal(createAffectEmbedder(bge, bgeEmbedder), bgeEmbedder);
    const openai = loadConfig({ PARLEY_TEXT_EMBEDDER: 'openai', OPENAI_API_KEY: 'k' });
    assert.equal(createAffectEmbedder(openai, createTextEmbedder(openai)), null);
    await Promise.all([liteEmbedder.close(), bgeEmbedder.close()]);
  });

  test('the server logs the fallback once, naming the fetch command', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } });
    const dataDir = path.join(root, 'data-warn');
    const app = await buildApp(loadConfig({ MODELS_DIR: empty, DATA_DIR: dataDir, PARLEY_ASR: 'none' }), { logger: pino({ level: 'warn' }, sink) });
    try {
      await app.ready();
      assert.equal(lines.filter((l) => l.includes(FETCH)).length, 1, lines.join(''));
    } finally {
      await app.close();
    }
  });

  describe('a store written under USE-lite, reopened under auto with bge installed', () => {
    let t: TestApp | undefined;
    const dataDir = (): string => path.join(root, 'data-switch');
    const start = async (env: Record<string, string>): Promise<{ t: TestApp; api: ParleyClient }> => {
      t = await startTestApp({ DATA_DIR: dataDir(), ...env });
      return { t, api: new ParleyClient({ baseUrl: t.httpUrl }) };
    };
    after(async () => { await t?.close(); });

    test('is re-embedded on start, keeps every turn and memory, answers queries, and text affect runs on the new embedder', async () => {
      const first = await start({ MODELS_DIR: empty, PARLEY_TEXT_EMBEDDER: 'use-lite' });
      await first.api.postUtterances('s1', [
        { speaker: 'Ana', addressees: ['Ben'], text: 'Ben, I will send you the draft on Friday.', time: '2026-11-02T10:00:00Z' },
        { speaker: 'Ben', addressees: ['Ana'], text: 'Thanks Ana. I am flying to Lisbon next week.', time: '2026-11-02T10:00:30Z' },
      ]);
      await drainConsolidation(first.t.app.stores.queue, 60_000);
      const memoriesBefore = (await first.api.memories()).map((m) => [m.id, m.text, m.valid_to]).sort();
      const turnsBefore = (await first.api.transcript('s1')).utterances.map((u) => [u.id, u.text]);
      assert.ok(memoriesBefore.some(([, text]) => /draft/.test(String(text))), JSON.stringify(memoriesBefore));
      assert.deepEqual(await first.t.app.stores.vectors.collectionSpace(collectionFor('interaction')), { model: 'use-lite-en-0.2', dimension: 512 });
      await first.t.close();
      t = undefined;

      const second = await start({ MODELS_DIR: installed });
      assert.equal(second.t.config.textEmbedder, BGE_SMALL_EN_Q_MODEL);
      for (const layer of ['interaction', 'fact'] as const) {
        assert.deepEqual(await second.t.app.stores.vectors.collectionSpace(collectionFor(layer)), { model: BGE_SMALL_EN_Q_MODEL, dimension: 384 }, layer);
      }
      assert.deepEqual((await second.api.memories()).map((m) => [m.id, m.text, m.valid_to]).sort(), memoriesBefore, 'no memory lost or changed');
      assert.deepEqual((await second.api.transcript('s1')).utterances.map((u) => [u.id, u.text]), turnsBefore, 'no turn lost');
      const evidence = (await second.api.query({ question: 'What did Ana promise Ben about the draft?' })).evidence;
      assert.ok(evidence.some((i) => /draft/.test(i.text)), JSON.stringify(evidence));

      // New turns consolidate under bge, and affect classifies on bge's own vectors (no USE-lite beside it). Here they
      // are the stand-in's, so the label is whatever the vote over them says: the persona holds what it answers (real
      // bge's labels: test/pipelines/jobs.test.ts, test/pipelines/affect/affect.test.ts).
      assert.equal(second.t.app.models.affectEmbedder, second.t.app.models.textEmbedder);
      const text = 'I absolutely love my new job, it is wonderful';
      const [vote] = await new TextAffectClassifier(second.t.app.models.textEmbedder).classify([text]);
      const expected = vote && vote.label !== 'neutral' && vote.confidence >= 0.5 ? [['new job', vote.label]] : [];
      await second.api.postUtterances('s2', [{ speaker: 'Ana', addressees: ['Ben'], text, time: '2026-11-09T10:00:00Z' }]);
      await drainConsolidation(second.t.app.stores.queue, 60_000);
      const [turn] = (await second.api.transcript('s2')).utterances;
      const persona = await second.t.app.stores.memory.listPersona('default', turn!.speaker.id);
      assert.deepEqual(persona.filter((p) => p.kind === 'affect').map((p) => [p.target, p.label]), expected, JSON.stringify(persona));
    });
  });
});
