import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ParleyError } from '../../graph/core/errors.js';
import { isTransientStoreError, retryTransient, TRANSIENT_TRIES } from '../../graph/transient-retry.js';

const coded = (code: string): Error => Object.assign(new Error(code), { code });

test('transient store errors: a busy SQLite file, a store that did not answer (also as a cause); nothing else', () => {
  assert.equal(isTransientStoreError(coded('SQLITE_BUSY')), true);
  assert.equal(isTransientStoreError(coded('SQLITE_BUSY_SNAPSHOT')), true);
  assert.equal(isTransientStoreError(new ParleyError('PARLEY_ERR_STORE_UNAVAILABLE', 'Neo4j (NEO4J_URI) unavailable')), true);
  assert.equal(isTransientStoreError(new Error('wrapped', { cause: new ParleyError('PARLEY_ERR_STORE_UNAVAILABLE', 'down') })), true);
  assert.equal(isTransientStoreError(coded('SQLITE_IOERR')), false);
  assert.equal(isTransientStoreError(coded('SQLITE_CONSTRAINT_UNIQUE')), false);
  assert.equal(isTransientStoreError(new ParleyError('PARLEY_ERR_CONFLICT', 'exists')), false);
  assert.equal(isTransientStoreError(new Error('disk I/O error')), false);
  assert.equal(isTransientStoreError(null), false);
});

test('retryTransient: tries again after a transient failure, at most TRANSIENT_TRIES in all; any other failure once', async () => {
  let calls = 0;
  assert.equal(await retryTransient(async () => (++calls === 1 ? Promise.reject(coded('SQLITE_BUSY')) : 'stored'), { delayMs: 1 }), 'stored');
  assert.equal(calls, 2);

  calls = 0;
  const retried: number[] = [];
  await assert.rejects(retryTransient(async () => { calls += 1; throw coded('SQLITE_BUSY'); }, { delayMs: 1, onRetry: (_err, tried) => retried.push(tried) }), { code: 'SQLITE_BUSY' });
  assert.equal(calls, TRANSIENT_TRIES);
  assert.deepEqual(retried, [1, 2]);

  calls = 0;
  await assert.rejects(retryTransient(async () => { calls += 1; throw new Error('disk I/O error'); }, { delayMs: 1 }), /disk I\/O error/);
  assert.equal(calls, 1);
});

test('retryTransient: no try begins after withinMs (a call that timed out is not tried again)', async () => {
  let calls = 0;
  await assert.rejects(retryTransient(async () => { calls += 1; throw coded('SQLITE_BUSY'); }, { delayMs: 50, withinMs: 10 }), { code: 'SQLITE_BUSY' });
  assert.equal(calls, 1);
});
