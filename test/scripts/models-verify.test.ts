import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { WESPEAKER_FILE, WESPEAKER_MODEL } from '../../pipelines/models/manifest.js';
import { tempDir } from '../helpers/temp-dir.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SCRIPT = path.join(ROOT, 'dist/scripts/models.js');

/** `npm run models -- verify …` as the compiled script runs it, against `modelsDir`. */
function verify(modelsDir: string, ...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [SCRIPT, 'verify', ...args], { env: { ...process.env, MODELS_DIR: modelsDir }, encoding: 'utf8' });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

// `verify nosuch` and `verify <a model not installed>` used to print nothing (or "missing") and exit 0.
describe('models verify exits non-zero for what it cannot vouch for', () => {
  let tmp: { dir: string; remove(): void };
  before(() => { tmp = tempDir('parley-models-verify-'); });
  after(() => { tmp.remove(); });

  test('an unknown name: exit 2, naming it and the known models', () => {
    const r = verify(tmp.dir, 'nosuch');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unknown model "nosuch"; known: .*wespeaker-resnet34/);
  });

  test('a named model that is not installed: exit 1, saying how to install it', () => {
    const r = verify(tmp.dir, WESPEAKER_MODEL);
    assert.equal(r.code, 1);
    assert.match(r.stderr, new RegExp(`${WESPEAKER_MODEL} is not installed in .*\\n.*npm run models -- fetch ${WESPEAKER_MODEL}`));
  });

  test('nothing installed and no name: every model listed as not installed, exit 0', () => {
    const r = verify(tmp.dir);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^${WESPEAKER_MODEL}: not installed$`, 'm'));
  });

  test('a corrupt file fails verify by name and verify of all; a partial model fails too', () => {
    const dir = tempDir('parley-models-bad-');
    try {
      mkdirSync(path.join(dir.dir, WESPEAKER_MODEL), { recursive: true });
      writeFileSync(path.join(dir.dir, WESPEAKER_MODEL, WESPEAKER_FILE), 'not a model');
      for (const args of [[WESPEAKER_MODEL], []]) {
        const r = verify(dir.dir, ...args);
        assert.equal(r.code, 1, `verify ${args.join(' ')}`);
        assert.match(r.stderr, new RegExp(`${WESPEAKER_MODEL}/${WESPEAKER_FILE} does not match its SHA-256`));
      }
      // One file of a four-file model: the other three are reported missing.
      mkdirSync(path.join(dir.dir, 'sherpa-zipformer-en'));
      writeFileSync(path.join(dir.dir, 'sherpa-zipformer-en', 'tokens.txt'), '<blk> 0\n');
      const partial = verify(dir.dir, 'sherpa-zipformer-en');
      assert.equal(partial.code, 1);
      assert.match(partial.stderr, /sherpa-zipformer-en\/encoder\.int8\.onnx is missing/);
    } finally {
      dir.remove();
    }
  });

  test('an intact installed model verifies with exit 0', { skip: existsSync(path.join(ROOT, 'models/moonshine-tiny')) ? false : 'moonshine-tiny is not installed in models/' }, () => {
    const r = verify(path.join(ROOT, 'models'), 'moonshine-tiny');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^moonshine-tiny\/encoder_model\.onnx: ok$/m);
  });
});
