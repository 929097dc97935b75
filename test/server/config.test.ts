import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../server/config.js';
import { asrBackend } from '../../server/plugins/models.js';

describe('config', () => {
  test('defaults: port 8080, ./data, loopback, single tenant, embedded queue', () => {
    const c = loadConfig({});
    assert.equal(c.port, 8080);
    assert.equal(c.host, '127.0.0.1');
    assert.ok(c.dataDir.endsWith('/data'));
    assert.deepEqual(c.apiKeys, []);
    assert.equal(c.queue, 'embedded');
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

  test('decoder pool and onnxruntime arena settings reach the inference workers\' config', () => {
    assert.deepEqual(asrBackend(loadConfig({})), { kind: 'pocketsphinx', options: {}, maxDecoders: 4, maxIdleDecoders: 4 },
      'by default every decoder made is kept for later turns (none freed and made again)');
    assert.equal(loadConfig({}).ortMemArena, true);
    assert.deepEqual(asrBackend(loadConfig({ PARLEY_ASR_MAX_DECODERS: '64', PARLEY_ASR_IDLE_DECODERS: '0', PARLEY_ORT_MEM_ARENA: 'false' })),
      { kind: 'pocketsphinx', options: {}, maxDecoders: 64, maxIdleDecoders: 0 });
    assert.equal(loadConfig({ PARLEY_ORT_MEM_ARENA: 'false' }).ortMemArena, false);
    assert.throws(() => loadConfig({ PARLEY_ASR_MAX_DECODERS: '0' }), /PARLEY_ASR_MAX_DECODERS/);
    assert.throws(() => loadConfig({ PARLEY_ORT_MEM_ARENA: 'off' }), /PARLEY_ORT_MEM_ARENA/);
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
