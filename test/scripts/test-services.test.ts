import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { redisSkipReason, TEST_REDIS_URL } from '../helpers/redis.js';
import { closedPort } from '../helpers/stores.js';

/**
 * The probes that decide whether the Redis and Neo4j suites run: patient with a Redis that comes up late, and, when
 * the run demands its services (`PARLEY_TEST_REQUIRE_SERVICES=1`, as `.ci/run` sets), failing instead of skipping.
 */
const STORES_HELPER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../helpers/stores.js');
const REQUIRED = { PARLEY_TEST_REQUIRE_SERVICES: '1' };

// Asked before the tests start; under PARLEY_TEST_REQUIRE_SERVICES=1 a missing Redis fails this file here.
const redisSkip = await redisSkipReason();

test('a Redis that starts listening only after 2 s is waited for, not skipped', { skip: redisSkip, timeout: 60_000 }, async () => {
  const target = new URL(TEST_REDIS_URL);
  const port = await closedPort();
  const sockets = new Set<net.Socket>();
  // A proxy to the test Redis on a port nobody listens on yet: connections are refused until it listens.
  const proxy = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => s.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  const late = setTimeout(() => proxy.listen(port, '127.0.0.1'), 2000);
  try {
    const started = Date.now();
    assert.equal(await redisSkipReason({ url: `redis://127.0.0.1:${port}/13`, patienceMs: 15_000 }), undefined);
    assert.ok(Date.now() - started >= 1500, 'it answered only once the late listener was up');
  } finally {
    clearTimeout(late);
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => proxy.close(resolve));
  }
});

test('a first attempt that outlasts the whole patience is not the last: the probe tries again', { skip: redisSkip, timeout: 60_000 }, async () => {
  // As when a file probes while its first tests hold the event loop (a model loading): one attempt can take longer
  // than the whole patience. Here a proxy holds the first connection silent for 1 s, then drops it; later ones reach Redis.
  const target = new URL(TEST_REDIS_URL);
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const proxy = net.createServer((client) => {
    sockets.add(client);
    client.on('error', () => client.destroy());
    if (++connections === 1) {
      setTimeout(() => client.destroy(), 1000);
      return;
    }
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    sockets.add(upstream);
    upstream.on('error', () => upstream.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const port = (proxy.address() as net.AddressInfo).port;
  try {
    assert.equal(await redisSkipReason({ url: `redis://127.0.0.1:${port}/13`, patienceMs: 500, attemptMs: 5000, env: REQUIRED }), undefined);
    assert.ok(connections >= 2, 'answered on a later attempt');
  } finally {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => proxy.close(resolve));
  }
});

test('a Redis that never answers: a skip reason after several attempts, or, when services are required, an error naming it', async () => {
  const url = `redis://127.0.0.1:${await closedPort()}/13`;
  const reason = await redisSkipReason({ url, patienceMs: 1500, attemptMs: 500, env: {} });
  assert.match(reason ?? '', /^no Redis at redis:\/\/127\.0\.0\.1:\d+\/13 after (\d+) attempt/);
  assert.ok(Number(/after (\d+) attempt/.exec(reason ?? '')?.[1]) > 1, `tried again: ${reason}`);
  await assert.rejects(redisSkipReason({ url, patienceMs: 500, attemptMs: 200, env: REQUIRED }), /PARLEY_TEST_REQUIRE_SERVICES=1 .*no Redis at/);
});

test('no NEO4J_URI: the Neo4j suites skip with the reason, or, when services are required, their files fail with it', () => {
  const load = (env: Record<string, string>) => spawnSync(process.execPath, ['--input-type=module', '-e',
    `const m = await import(${JSON.stringify(STORES_HELPER)}); console.log(m.NEO4J_SKIP ?? 'runs');`], {
    env: { ...process.env, NEO4J_URI: '', PARLEY_TEST_REQUIRE_SERVICES: '', ...env }, encoding: 'utf8',
  });
  const skipped = load({});
  assert.equal(skipped.status, 0, skipped.stderr);
  assert.match(skipped.stdout, /^NEO4J_URI is not set/);
  const required = load(REQUIRED);
  assert.notEqual(required.status, 0);
  assert.match(required.stderr, /PARLEY_TEST_REQUIRE_SERVICES=1 and a service the tests need is missing: NEO4J_URI is not set/);
  assert.match(load({ ...REQUIRED, NEO4J_URI: 'bolt://127.0.0.1:7687' }).stdout, /^runs/);
});
