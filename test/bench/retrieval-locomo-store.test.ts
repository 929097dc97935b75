import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, describe, test } from 'node:test';
import { openDatabase } from '../../graph/sqlite/database.js';
import { tempDir } from '../helpers/temp-dir.js';

const run = promisify(execFile);
/** The compiled bench (tests run from dist/test/bench). */
const BENCH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bench/retrieval-locomo.js');

/** A conversation in LoCoMo's format: two sessions of four turns, two questions. */
function writeTinySet(dir: string): void {
  const lines = [
    ['Ana', 'Ben', 'I adopted a dog named Rex last week.'], ['Ben', 'Ana', 'I am training for a marathon in Boston.'],
    ['Ana', 'Ben', 'My sister Carla moved to Lisbon.'], ['Ben', 'Ana', 'I started painting landscapes on weekends.'],
  ] as const;
  const turns = [1, 2].flatMap((session) => lines.map(([speaker, addressee, text], i) => ({
    conv_id: 'tiny', session, session_date_time: `1:56 pm on ${8 + session} May, 2023`, dia_id: `D${session}:${i + 1}`,
    speaker, addressee, text: session === 1 ? text : `${text} Still true.`, turn_idx: i,
  })));
  const qas = [
    { conv_id: 'tiny', question: "What is the name of Ana's dog?", answer: 'Rex', evidence: ['D1:1'], category: 1 },
    { conv_id: 'tiny', question: 'Where did Carla move?', answer: 'Lisbon', evidence: ['D1:3'], category: 4 },
  ];
  writeFileSync(path.join(dir, 'turns.jsonl'), `${turns.map((t) => JSON.stringify(t)).join('\n')}\n`);
  writeFileSync(path.join(dir, 'qa.jsonl'), `${qas.map((q) => JSON.stringify(q)).join('\n')}\n`);
}

const sha256 = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('bench/retrieval-locomo --store: asking a kept store writes nothing to it', () => {
  const tmp = tempDir('parley-locomo-store-');
  after(() => tmp.remove());
  writeTinySet(tmp.dir);
  const store = path.join(tmp.dir, 'store');
  const bench = (...args: string[]) => run(process.execPath, [BENCH, '--data', tmp.dir, '--store', store, ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent' }, maxBuffer: 16 * 1024 * 1024,
  });

  test('two asking runs at once on one store both finish, and the file is byte for byte as built', async () => {
    const built = await bench('--ingest-only');
    assert.match(built.stdout, /--ingest-only: 8 turns stored/);
    // Its consolidation jobs finished over a day ago, as in a store kept since: old enough to be pruned by a job runner.
    const db = openDatabase(path.join(store, 'parley.db'));
    const aged = db.prepare("UPDATE jobs SET updated_at = updated_at - 2 * 86400000 WHERE state = 'done'").run().changes;
    const named = db.prepare("SELECT count(*) FROM lexical_docs WHERE layer = 'bench-named'").pluck().get();
    db.close();
    assert.ok(aged > 0, 'the store has finished consolidation jobs');
    assert.equal(named, 8, 'the named baseline\'s "speaker: turn" documents are built with the store');
    const file = path.join(store, 'parley.db');
    const before = { hash: sha256(file), mtimeMs: statSync(file).mtimeMs };

    const [a, b] = await Promise.all([bench(), bench()]);
    for (const out of [a, b]) {
      assert.match(out.stdout, /reusing the 8 turns/);
      assert.match(out.stdout, /\| baseline: BM25, speaker name \+ turn \|/, 'the questions were asked');
    }
    assert.deepEqual({ hash: sha256(file), mtimeMs: statSync(file).mtimeMs }, before);
  });
});
