import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ParleyError } from '../../graph/core/errors.js';
import { NotReadyError, RetryingStart } from '../../server/mcp/retrying-start.js';

/** Resolves once `check` holds, polling; generous, for a busy machine. */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 6000 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(check());
}

describe('RetryingStart (the stdio MCP server\'s start, tried again while it fails)', () => {
  test('waits doubling up to the cap, answers the last reason meanwhile, then the value; close disposes it', async () => {
    let attempts = 0;
    const delays: number[] = [];
    let opened = 0;
    const start = new RetryingStart(async () => {
      attempts += 1;
      if (attempts <= 4) throw new ParleyError('PARLEY_ERR_STORE_UNAVAILABLE', `down ${attempts}`);
      return { n: attempts };
    }, { initialDelayMs: 1, maxDelayMs: 4, onFailure: (_err, _attempt, retryInMs) => delays.push(retryInMs), onOpen: (n) => { opened = n; } });
    await assert.rejects(start.get(), (err: unknown) => err instanceof NotReadyError && err.code === 'PARLEY_ERR_STORE_UNAVAILABLE' &&
      /^stores not ready: down 1, retrying \(next attempt in \d+ s\)$/.test(err.message));
    await until(() => opened > 0);
    assert.deepEqual(delays, [1, 2, 4, 4]);
    assert.equal(opened, 5);
    assert.deepEqual(await start.get(), { n: 5 });
    const disposed: unknown[] = [];
    await start.close(async (value) => { disposed.push(value); });
    assert.deepEqual(disposed, [{ n: 5 }]);
  });

  test('a failure that is not Parley\'s is PARLEY_ERR_STORE_UNAVAILABLE; after close no attempt follows and nothing is disposed', async () => {
    let attempts = 0;
    const start = new RetryingStart<string>(async () => {
      attempts += 1;
      throw new Error('ENOTDIR: not a directory');
    }, { initialDelayMs: 1 });
    await assert.rejects(start.get(), (err: unknown) => err instanceof ParleyError && err.code === 'PARLEY_ERR_STORE_UNAVAILABLE' &&
      err.message.startsWith('stores not ready: ENOTDIR: not a directory, retrying'));
    await until(() => attempts >= 2);
    const disposed: string[] = [];
    await start.close(async (value) => { disposed.push(value); });
    const after = attempts;
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(attempts, after, 'no attempt after close');
    assert.deepEqual(disposed, []);
    await assert.rejects(start.get(), /stores not ready/);
  });
});
