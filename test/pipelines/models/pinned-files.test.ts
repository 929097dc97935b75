import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { findModel, WESPEAKER_FILE, WESPEAKER_MODEL } from '../../../pipelines/models/manifest.js';
import { damagedFiles, pinnedHashes, sha256FileSync } from '../../../pipelines/models/pinned-files.js';
import { tempDir } from '../../helpers/temp-dir.js';

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('pinned model files', () => {
  let tmp: { dir: string; remove(): void };
  before(() => { tmp = tempDir('parley-pinned-files-'); });
  after(() => { tmp.remove(); });

  test('the pinned hashes of a model: archive members and plain files, none for an unknown name', () => {
    const members = findModel('moonshine-tiny')!.files[0]!.members!;
    assert.deepEqual(pinnedHashes('moonshine-tiny'), new Map(members.map((m) => [m.path, m.sha256])));
    assert.equal(pinnedHashes(WESPEAKER_MODEL).get(WESPEAKER_FILE), findModel(WESPEAKER_MODEL)!.files[0]!.sha256);
    assert.equal(pinnedHashes('no-such-model').size, 0);
  });

  test('a file is hashed again once its contents changed, even at the same size', () => {
    const file = path.join(tmp.dir, 'f.bin');
    writeFileSync(file, 'abc');
    assert.equal(sha256FileSync(file), sha('abc'));
    writeFileSync(file, 'abd');
    utimesSync(file, new Date(0), new Date(1_000_000));
    assert.equal(sha256FileSync(file), sha('abd'));
    // Larger than one read: every piece counts.
    const big = 'x'.repeat((1 << 20) + 17);
    writeFileSync(file, big);
    assert.equal(sha256FileSync(file), sha(big));
  });

  test('damaged: present with another hash; absent or unpinned files are not listed', () => {
    const dir = path.join(tmp.dir, 'models', WESPEAKER_MODEL);
    mkdirSync(dir, { recursive: true });
    assert.deepEqual(damagedFiles(path.join(tmp.dir, 'models'), WESPEAKER_MODEL, [WESPEAKER_FILE]), [], 'absent');
    writeFileSync(path.join(dir, WESPEAKER_FILE), 'not a model');
    writeFileSync(path.join(dir, 'notes.txt'), 'unpinned');
    assert.deepEqual(damagedFiles(path.join(tmp.dir, 'models'), WESPEAKER_MODEL, [WESPEAKER_FILE, 'notes.txt']),
      [`${WESPEAKER_FILE}: 11 bytes, not the pinned SHA-256`]);
  });

  // root reads any file: the unreadable case only exists for other users, and is reported skipped as root.
  test('damaged: a pinned file that cannot be read', { skip: process.getuid?.() === 0 ? 'root reads any file' : false }, () => {
    const dir = path.join(tmp.dir, 'models', WESPEAKER_MODEL);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, WESPEAKER_FILE), 'not a model');
    chmodSync(path.join(dir, WESPEAKER_FILE), 0);
    assert.match(damagedFiles(path.join(tmp.dir, 'models'), WESPEAKER_MODEL, [WESPEAKER_FILE])[0] ?? '', /unreadable/);
  });
});
