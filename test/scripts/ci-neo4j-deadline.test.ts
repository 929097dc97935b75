/**
 * `.ci/run` gives the Neo4j suites a longer query deadline than the default 20 s (a busy CI machine ran past it):
 * `PARLEY_TEST_NEO4J_QUERY_TIMEOUT_MS` reaches the stores the tests open and the app settings they start servers with.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { neo4jGraphEnv, neo4jTestOptions, neo4jTestQueryTimeoutMs } from '../helpers/stores.js';

test('the CI run sets the Neo4j test deadline, and the test stores and app settings take it', () => {
  const ci = readFileSync(new URL('../../../.ci/run', import.meta.url), 'utf8');
  const set = /^export PARLEY_TEST_NEO4J_QUERY_TIMEOUT_MS=(\d+)$/m.exec(ci);
  assert.ok(set, '.ci/run exports PARLEY_TEST_NEO4J_QUERY_TIMEOUT_MS');
  assert.ok(Number(set[1]) > 20_000, 'longer than the default deadline');
  const before = process.env.PARLEY_TEST_NEO4J_QUERY_TIMEOUT_MS;
  try {
    process.env.PARLEY_TEST_NEO4J_QUERY_TIMEOUT_MS = set[1];
    assert.equal(neo4jTestOptions('deadline').queryTimeoutMs, Number(set[1]));
    assert.equal(neo4jGraphEnv().NEO4J_QUERY_TIMEOUT_MS, set[1]);
    delete process.env.PARLEY_TEST_NEO4J_QUERY_TIMEOUT_MS;
    assert.equal(neo4jTestOptions('deadline').queryTimeoutMs, undefined, 'unset: the stores keep their default');
    assert.equal(neo4jGraphEnv().NEO4J_QUERY_TIMEOUT_MS, undefined);
  } finally {
    if (before === undefined) delete process.env.PARLEY_TEST_NEO4J_QUERY_TIMEOUT_MS;
    else process.env.PARLEY_TEST_NEO4J_QUERY_TIMEOUT_MS = before;
  }
});

test('a malformed test deadline is a clear error, not a silent default', () => {
  assert.throws(() => neo4jTestQueryTimeoutMs({ PARLEY_TEST_NEO4J_QUERY_TIMEOUT_MS: '2m' }), /PARLEY_TEST_NEO4J_QUERY_TIMEOUT_MS/);
  assert.throws(() => neo4jTestQueryTimeoutMs({ PARLEY_TEST_NEO4J_QUERY_TIMEOUT_MS: '10' }), /at least 1000/);
});
