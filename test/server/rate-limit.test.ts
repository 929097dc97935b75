import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ParleyClient, ParleyError } from '../../clients/typescript/src/index.js';
import { loadConfig } from '../../server/config.js';
import { requestsPerWindow } from '../../server/plugins/rate-limit.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const A = 'key-rate-alpha';
const B = 'key-rate-bravo';
const as = (key: string) => ({ authorization: `Bearer ${key}` });

describe('per-tenant HTTP rate limit (PARLEY_RATE_LIMIT_PER_MIN), over HTTP', () => {
  let t: TestApp;
  before(async () => {
    // 3 requests per minute-long window per tenant.
    t = await startTestApp({ PARLEY_API_KEYS: `${A}:tenantA,${B}:tenantB`, PARLEY_RATE_LIMIT_PER_MIN: '3' });
  });
  after(async () => {
    await t.close();
  });

  test('a tenant over its limit gets 429 PARLEY_ERR_RATE_LIMITED with Retry-After; another tenant and the probes are unaffected', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${t.httpUrl}/v1/participants`, { headers: as(A) });
      assert.equal(res.status, 200, `request ${i + 1} of 3 is allowed`);
    }
    const refused = await fetch(`${t.httpUrl}/v1/sessions/s1/utterances`, {
      method: 'POST', headers: { ...as(A), 'content-type': 'application/json' },
      body: JSON.stringify({ utterances: [{ speaker: 'Ana', text: 'refused, so never stored' }] }),
    });
    assert.equal(refused.status, 429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${refused.headers.get('retry-after')}`);
    const body = await refused.json() as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'PARLEY_ERR_RATE_LIMITED');
    assert.match(body.error.message, /retry after/);
    assert.deepEqual(Object.keys(body), ['error'], 'the project\'s error envelope, nothing else');

    // The other tenant has its own budget; probes and metrics are never counted.
    for (let i = 0; i < 3; i++) assert.equal((await fetch(`${t.httpUrl}/v1/participants`, { headers: as(B) })).status, 200);
    assert.equal((await fetch(`${t.httpUrl}/healthz`)).status, 200);
    assert.equal((await fetch(`${t.httpUrl}/readyz`, { headers: as(A) })).status, 200);
    const metrics = await fetch(`${t.httpUrl}/metrics`, { headers: as(A) });
    assert.equal(metrics.status, 200);
    const text = await metrics.text();
    assert.match(text, /^parley_http_rate_limited_total\{route="\/v1\/sessions\/:session_id\/utterances"\} 1$/m);
    // A wrong key is still 401, not counted against anyone.
    assert.equal((await fetch(`${t.httpUrl}/v1/participants`, { headers: as('key-rate-wrong') })).status, 401);

    // SDK callers get the refusal typed (here with retries off), on HTTP and on the stream's upgrade.
    const sdkA = new ParleyClient({ baseUrl: t.httpUrl, apiKey: A, rateLimitRetry: false });
    await assert.rejects(sdkA.transcript('s1'), (err: ParleyError) =>
      err.code === 'PARLEY_ERR_RATE_LIMITED' && err.status === 429 && err.retryable && (err.retryAfterMs ?? 0) >= 1000);
    await assert.rejects(sdkA.stream({ sessionId: 'over-limit' }), (err: ParleyError) => err.code === 'PARLEY_ERR_RATE_LIMITED' && err.status === 429,
      'the WebSocket upgrade counts too');
  });
});

describe('rate limit configuration', () => {
  test('default 6000 per minute, 0 turns it off; the window divides the budget', async () => {
    const defaults = loadConfig({});
    assert.equal(defaults.rateLimitPerMin, 6000);
    assert.equal(defaults.rateLimitWindowMs, 60_000);
    assert.throws(() => loadConfig({ PARLEY_RATE_LIMIT_PER_MIN: '-1' }), /PARLEY_RATE_LIMIT_PER_MIN/);
    assert.throws(() => loadConfig({ PARLEY_RATE_LIMIT_WINDOW_MS: '10' }), /PARLEY_RATE_LIMIT_WINDOW_MS/);
    assert.equal(requestsPerWindow(6000, 60_000), 6000);
    assert.equal(requestsPerWindow(120, 1000), 2);
    assert.equal(requestsPerWindow(1, 1000), 1, 'at least one request per window');

    const off = await startTestApp({ PARLEY_RATE_LIMIT_PER_MIN: '0' }, false);
    try {
      for (let i = 0; i < 20; i++) assert.equal((await off.app.inject({ url: '/v1/participants' })).statusCode, 200);
      assert.equal((await off.app.inject({ url: '/v1/participants' })).headers['x-ratelimit-limit'], undefined, 'no limiter at all');
    } finally {
      await off.close();
    }
  });
});

describe('rate limit without API keys', () => {
  test('the 429 says every client shares the one budget, not "this API key"', async () => {
    const t = await startTestApp({ PARLEY_RATE_LIMIT_PER_MIN: '1' });
    try {
      assert.equal((await fetch(`${t.httpUrl}/v1/participants`)).status, 200);
      const refused = await fetch(`${t.httpUrl}/v1/participants`);
      assert.equal(refused.status, 429);
      const { error } = await refused.json() as { error: { code: string; message: string } };
      assert.doesNotMatch(error.message, /API key;/);
      assert.match(error.message, /no API keys are configured/);
    } finally {
      await t.close();
    }
  });
});
