import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { diffStores, openStoreReadOnly } from '../../bench/lib/store-diff.js';
import { openDatabase } from '../../graph/sqlite/database.js';
import { tempDir } from '../helpers/temp-dir.js';
import { LOCOMO_BENCH, writeTinyLocomoSet } from '../helpers/tiny-locomo.js';

const run = promisify(execFile);

/** The report's line that starts with `label`. */
function line(report: string[], label: string): string {
  const found = report.find((l) => l.startsWith(label));
  assert.ok(found, `no "${label}" line in:\n${report.join('\n')}`);
  return found;
}

describe('bench/lib/store-diff: two stores of one LoCoMo build compared', () => {
  const tmp = tempDir('parley-store-diff-');
  const storeA = path.join(tmp.dir, 'a'), storeB = path.join(tmp.dir, 'b');
  after(() => tmp.remove());
  before(async () => {
    writeTinyLocomoSet(tmp.dir);
    await run(process.execPath, [LOCOMO_BENCH, '--data', tmp.dir, '--store', storeA, '--ingest-only'], {
      env: { ...process.env, LOG_LEVEL: 'silent' }, maxBuffer: 16 * 1024 * 1024,
    });
    mkdirSync(storeB);
    copyFileSync(path.join(storeA, 'parley.db'), path.join(storeB, 'parley.db'));
  });

  const compare = (): string[] => {
    const a = openStoreReadOnly(storeA), b = openStoreReadOnly(storeB);
    try { return diffStores(a, b); } finally { a.close(); b.close(); }
  };

  test('a copy differs in nothing', () => {
    const report = compare();
    assert.match(line(report, 'turn vectors:'), /^turn vectors: 8 vs 8, common 8, differ 0 /);
    assert.match(line(report, 'facts:'), /only in A 0, only in B 0$/);
    assert.match(line(report, 'entities'), /only in A 0, only in B 0$/);
    assert.match(line(report, 'lexical docs'), /only in A 0, only in B 0$/);
  });

  test('a changed fact, turn vector and entity description are each reported', () => {
    const db = openDatabase(path.join(storeB, 'parley.db'));
    const fact = db.prepare('SELECT id, content FROM memory_facts LIMIT 1').get() as { id: string; content: string } | undefined;
    assert.ok(fact, 'the tiny build holds facts');
    db.prepare('UPDATE memory_facts SET content = ? WHERE id = ?').run(`${fact.content} (changed)`, fact.id);
    const vector = db.prepare("SELECT id, vector FROM vectors WHERE collection = 'memory_interaction' LIMIT 1").get() as { id: string; vector: Buffer };
    const flipped = Buffer.from(vector.vector);
    flipped.writeFloatLE(flipped.readFloatLE(0) + 0.5, 0);
    db.prepare("UPDATE vectors SET vector = ? WHERE collection = 'memory_interaction' AND id = ?").run(flipped, vector.id);
    const entities = db.prepare("UPDATE lb_entities SET description = description || ' (changed)' WHERE id = (SELECT id FROM lb_entities LIMIT 1)").run().changes;
    db.close();

    const report = compare();
    assert.match(line(report, 'turn vectors:'), /common 8, differ 1 \(lowest cosine 0\.\d+\)/);
    assert.match(line(report, 'facts:'), /only in A 1, only in B 1$/);
    assert.match(line(report, 'fact texts'), /only in A 1, only in B 1$/);
    assert.ok(report.some((l) => l.startsWith('  B only:') && l.includes('(changed)')), 'the changed fact is shown');
    assert.match(line(report, 'entities'), new RegExp(`only in A ${entities}, only in B ${entities}$`));
  });
});
