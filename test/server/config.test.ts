import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../server/config.js';

describe('config', () => {
  test('defaults: port 8080, ./data, loopback, single tenant, embedded queue', () => {
    const c = loadConfig({});
    assert.equal(c.port, 8080);
    assert.equal(c.host, '127.0.0.1');
    assert.ok(c.dataDir.endsWith('/data'));
    assert.deepEqual(c.apiKeys, []);
    assert.equal(c.queue, 'embedded');
  });

  test('vector store: embedded by default; with a Neo4j graph, Neo4j unless QDRANT_URL names a Qdrant; explicit wins', () => {
    assert.equal(loadConfig({}).vectorStore, 'sqlite');
    assert.equal(loadConfig({ PARLEY_GRAPH_STORE: 'neo4j' }).vectorStore, 'neo4j');
    assert.equal(loadConfig({ PARLEY_GRAPH_STORE: 'neo4j', QDRANT_URL: 'http://q:6333' }).vectorStore, 'qdrant');
    assert.equal(loadConfig({ PARLEY_GRAPH_STORE: 'neo4j', PARLEY_VECTOR_STORE: 'sqlite' }).vectorStore, 'sqlite');
    assert.equal(loadConfig({ PARLEY_VECTOR_STORE: 'neo4j' }).vectorStore, 'neo4j');
    assert.throws(() => loadConfig({ PARLEY_VECTOR_STORE: 'milvus' }), /PARLEY_VECTOR_STORE/);
  });

  test('API keys map to tenants and allow a public bind', () => {
    const c = loadConfig({ PARLEY_API_KEYS: 'key1-abcdef:tenantA, key2-abcdef:tenantB', HOST: '0.0.0.0' });
    assert.deepEqual(c.apiKeys, [
      { key: 'key1-abcdef', tenant: 'tenantA' },
      { key: 'key2-abcdef', tenant: 'tenantB' },
    ]);
    assert.equal(c.host, '0.0.0.0');
  });

  test('bad values stop start-up with every problem named', () => {
    assert.throws(
      () => loadConfig({ PORT: 'eighty', PARLEY_QUEUE: 'kafka', HOST: '0.0.0.0', REDIS_URL: 'http://x', PARLEY_API_KEYS: 'short' }),
      (err: unknown) => {
        assert.ok(err instanceof ConfigError);
        const text = err.message;
        for (const name of ['PORT', 'PARLEY_QUEUE', 'HOST', 'REDIS_URL', 'PARLEY_API_KEYS']) assert.match(text, new RegExp(name));
        assert.equal(err.problems.length, 5);
        return true;
      },
    );
  });

  test('pocketsphinx options are "-name value" pairs', () => {
    assert.deepEqual(loadConfig({}).pocketsphinxOptions, {});
    assert.deepEqual(loadConfig({ PARLEY_POCKETSPHINX_OPTIONS: ' -ds 1  -maxhmmpf 30000 ' }).pocketsphinxOptions, { '-ds': '1', '-maxhmmpf': '30000' });
    assert.throws(() => loadConfig({ PARLEY_POCKETSPHINX_OPTIONS: '-ds' }), /PARLEY_POCKETSPHINX_OPTIONS must be pairs/);
    assert.throws(() => loadConfig({ PARLEY_POCKETSPHINX_OPTIONS: 'ds 1' }), /PARLEY_POCKETSPHINX_OPTIONS/);
  });

  test('speaker thresholds can be overridden, and must stay consistent', () => {
    const c = loadConfig({ PARLEY_SPEAKER_TAU_MATCH: '0.6', PARLEY_SPEAKER_TAU_UPDATE: '0.7' });
    assert.deepEqual(c.speakerThresholds, { tauMatch: 0.6, tauUpdate: 0.7 });
    assert.throws(() => loadConfig({ PARLEY_SPEAKER_TAU_MATCH: '0.6', PARLEY_SPEAKER_TAU_UPDATE: '0.5' }), /TAU_UPDATE/);
    assert.throws(() => loadConfig({ PARLEY_SPEAKER_ALPHA: 'lots' }), /PARLEY_SPEAKER_ALPHA/);
  });

  test('a key listed twice is refused', () => {
    assert.throws(() => loadConfig({ PARLEY_API_KEYS: 'samekey123:a,samekey123:b' }), /twice/);
  });
});
