import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../helpers/temp-dir.js';

const BENCH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bench/memory-freshness.js');

/** A bench run outside the checkout layout (no shared data folder) printed SKIP and passed: exit 0, nothing measured. */
test('PARLEY_BENCH_REQUIRE_DATA=1 makes a missing shared data folder an error (exit 1); without it the bench skips', () => {
  const tmp = tempDir('faults-life-no-data-');
  try {
    const run = (env: Record<string, string>) => spawnSync(process.execPath, [BENCH], {
      env: { ...process.env, PARLEY_SHARED_DATA: path.join(tmp.dir, 'absent'), ...env }, encoding: 'utf8',
    });
    const skipped = run({ PARLEY_BENCH_REQUIRE_DATA: '' });
    assert.equal(skipped.status, 0);
    assert.match(skipped.stdout, /^SKIP: /);
    const required = run({ PARLEY_BENCH_REQUIRE_DATA: '1' });
    assert.equal(required.status, 1);
    assert.match(required.stderr, /absent\/locomo\/locomo_turns\.jsonl not found \(PARLEY_BENCH_REQUIRE_DATA=1/);
  } finally {
    tmp.remove();
  }
});
