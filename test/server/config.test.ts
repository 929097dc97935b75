import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { describe, test } from 'node:test';
import { repoRoot } from '../../pipelines/models/repo-root.js';
import { ConfigError, loadConfig, loadConfigWithWarnings } from '../../server/config.js';
import { narrowbandAsrConfig } from '../../pipelines/asr/narrowband.js';
import { asrBackend, favoursNames, phoneMoonshine } from '../../server/plugins/models.js';

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

  test('PARLEY_VAD_AGC: gain control on the VAD\'s input by default; off and vad+asr accepted; anything else refused', () => {
    assert.equal(loadConfig({}).vadAgc, 'vad');
    assert.equal(loadConfig({ PARLEY_VAD_AGC: 'off' }).vadAgc, 'off');
    assert.equal(loadConfig({ PARLEY_VAD_AGC: 'vad+asr' }).vadAgc, 'vad+asr');
    assert.throws(() => loadConfig({ PARLEY_VAD_AGC: 'on' }), /PARLEY_VAD_AGC/);
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

  test('MCP and metrics settings: erase off, tenant default, no separate metrics listener unless asked', () => {
    const c = loadConfig({});
    assert.equal(c.mcpAllowErase, false);
    assert.equal(c.mcpTenant, 'default');
    assert.equal(c.metricsPort, null);
    const set = loadConfig({ PARLEY_MCP_ALLOW_ERASE: 'true', PARLEY_MCP_TENANT: 'acme_1', PARLEY_METRICS_PORT: '9464', PARLEY_METRICS_HOST: '10.0.0.5' });
    assert.deepEqual([set.mcpAllowErase, set.mcpTenant, set.metricsPort, set.metricsHost], [true, 'acme_1', 9464, '10.0.0.5']);
    assert.throws(
      () => loadConfig({ PARLEY_MCP_ALLOW_ERASE: 'yes', PARLEY_MCP_TENANT: 'a b', PARLEY_METRICS_PORT: '70000' }),
      (err: unknown) => {
        assert.ok(err instanceof ConfigError);
        for (const name of ['PARLEY_MCP_ALLOW_ERASE', 'PARLEY_MCP_TENANT', 'PARLEY_METRICS_PORT']) assert.match(err.message, new RegExp(name));
        return true;
      },
    );
  });

  test('PARLEY_MCP_ALLOWED_ORIGINS: none by default; origins normalised; a path, another scheme or a trailing slash refused', () => {
    assert.deepEqual(loadConfig({}).mcpAllowedOrigins, []);
    assert.deepEqual(
      loadConfig({ PARLEY_MCP_ALLOWED_ORIGINS: 'https://Agent.Example.com, http://10.0.0.5:5173,*' }).mcpAllowedOrigins,
      ['https://agent.example.com', 'http://10.0.0.5:5173', '*'],
    );
    for (const bad of ['https://a.example.com/mcp', 'ftp://a.example.com', 'https://a.example.com/', 'a.example.com', 'https://u@a.example.com']) {
      assert.throws(() => loadConfig({ PARLEY_MCP_ALLOWED_ORIGINS: bad }), /PARLEY_MCP_ALLOWED_ORIGINS/, bad);
    }
  });

  test('PARLEY_ALLOWED_HOSTS: host names, lower-cased; a scheme or port is refused', () => {
    assert.deepEqual(loadConfig({}).allowedHosts, []);
    assert.deepEqual(loadConfig({ PARLEY_ALLOWED_HOSTS: 'Parley.Tunnel.test, box.lan' }).allowedHosts, ['parley.tunnel.test', 'box.lan']);
    assert.throws(() => loadConfig({ PARLEY_ALLOWED_HOSTS: 'https://box.lan' }), /PARLEY_ALLOWED_HOSTS/);
    assert.throws(() => loadConfig({ PARLEY_ALLOWED_HOSTS: 'box.lan:8080' }), /PARLEY_ALLOWED_HOSTS/);
  });

  test('pocketsphinx options are "-name value" pairs', () => {
    assert.deepEqual(loadConfig({}).pocketsphinxOptions, {});
    assert.deepEqual(loadConfig({ PARLEY_POCKETSPHINX_OPTIONS: ' -ds 1  -maxhmmpf 30000 ' }).pocketsphinxOptions, { '-ds': '1', '-maxhmmpf': '30000' });
    assert.throws(() => loadConfig({ PARLEY_POCKETSPHINX_OPTIONS: '-ds' }), /PARLEY_POCKETSPHINX_OPTIONS must be pairs/);
    assert.throws(() => loadConfig({ PARLEY_POCKETSPHINX_OPTIONS: 'ds 1' }), /PARLEY_POCKETSPHINX_OPTIONS/);
  });

  test('PARLEY_ASR=moonshine loads MODELS_DIR/<PARLEY_MOONSHINE_MODEL> with PARLEY_MOONSHINE_PARTIAL_MS', () => {
    assert.deepEqual(asrBackend(loadConfig({ PARLEY_ASR: 'moonshine', MODELS_DIR: '/m' })),
      { kind: 'moonshine', model: 'moonshine-tiny', modelDir: path.join('/m', 'moonshine-tiny'), partialIntervalMs: 0, pauseDecode: false, retryEmpty: true, knownNames: false });
    assert.deepEqual(asrBackend(loadConfig({ PARLEY_ASR: 'moonshine', MODELS_DIR: '/m', PARLEY_MOONSHINE_MODEL: 'moonshine-base', PARLEY_MOONSHINE_PARTIAL_MS: '500', PARLEY_MOONSHINE_PAUSE_DECODE: 'true' })),
      { kind: 'moonshine', model: 'moonshine-base', modelDir: path.join('/m', 'moonshine-base'), partialIntervalMs: 500, pauseDecode: true, retryEmpty: true, knownNames: false });
    assert.throws(() => loadConfig({ PARLEY_MOONSHINE_MODEL: 'moonshine-huge' }), /PARLEY_MOONSHINE_MODEL/);
    assert.throws(() => loadConfig({ PARLEY_MOONSHINE_PARTIAL_MS: '-5' }), /PARLEY_MOONSHINE_PARTIAL_MS/);
    assert.throws(() => loadConfig({ PARLEY_MOONSHINE_PAUSE_DECODE: 'yes' }), /PARLEY_MOONSHINE_PAUSE_DECODE/);
    assert.equal((asrBackend(loadConfig({ PARLEY_ASR: 'moonshine', MODELS_DIR: '/m', PARLEY_MOONSHINE_RETRY_EMPTY: 'false' })) as { retryEmpty?: boolean }).retryEmpty, false);
    assert.throws(() => loadConfig({ PARLEY_MOONSHINE_RETRY_EMPTY: 'no' }), /PARLEY_MOONSHINE_RETRY_EMPTY/);
  });

  test('decoder pool and onnxruntime arena settings reach the inference workers\' config', () => {
    assert.deepEqual(asrBackend(loadConfig({ PARLEY_ASR_NAME_SPOTTING: 'false', PARLEY_ASR_PHONE: 'pocketsphinx' })), { kind: 'pocketsphinx', options: {}, maxDecoders: 4, maxIdleDecoders: 4, nameSpotting: false },
      'by default every decoder made is kept for later turns (none freed and made again)');
    assert.equal(loadConfig({}).ortMemArena, true);
    assert.deepEqual(asrBackend(loadConfig({ PARLEY_ASR_MAX_DECODERS: '64', PARLEY_ASR_IDLE_DECODERS: '0', PARLEY_ORT_MEM_ARENA: 'false', PARLEY_ASR_NAME_SPOTTING: 'false', PARLEY_ASR_PHONE: 'pocketsphinx' })),
      { kind: 'pocketsphinx', options: {}, maxDecoders: 64, maxIdleDecoders: 0, nameSpotting: false });
    assert.equal(loadConfig({ PARLEY_ORT_MEM_ARENA: 'false' }).ortMemArena, false);
    assert.throws(() => loadConfig({ PARLEY_ASR_MAX_DECODERS: '0' }), /PARLEY_ASR_MAX_DECODERS/);
    assert.throws(() => loadConfig({ PARLEY_ORT_MEM_ARENA: 'off' }), /PARLEY_ORT_MEM_ARENA/);
  });

  test('name spotting is on by default for wideband streams only (the narrowband recogniser gets none); true for all, false for none', () => {
    assert.equal(loadConfig({}).asrNameSpotting, 'wideband');
    // Phone streams on pocketsphinx (pinned: under the default, auto, they are Moonshine's where it is installed).
    const wide = asrBackend(loadConfig({ PARLEY_ASR_PHONE: 'pocketsphinx' }));
    assert.ok(wide.kind === 'pocketsphinx');
    assert.deepEqual(wide.nameSpotting, { maxNames: 100 }, 'the recogniser\'s own defaults, the session vocabulary\'s cap');
    assert.equal(wide.narrowbandNameSpotting, false);
    const narrow = narrowbandAsrConfig(wide);
    assert.equal(narrow?.kind === 'pocketsphinx' ? narrow.nameSpotting : null, false, '8 kHz streams are not spotted');
    const off = asrBackend(loadConfig({ PARLEY_ASR_NAME_SPOTTING: 'false' }));
    assert.equal(off.kind === 'pocketsphinx' ? off.nameSpotting : null, false);
    const on = asrBackend(loadConfig({ PARLEY_ASR_NAME_SPOTTING: 'true', PARLEY_ASR_PHONE: 'pocketsphinx' }));
    assert.deepEqual(on.kind === 'pocketsphinx' ? on.nameSpotting : null, { maxNames: 100 });
    const onNarrow = narrowbandAsrConfig(on);
    assert.deepEqual(onNarrow?.kind === 'pocketsphinx' ? onNarrow.nameSpotting : null, { maxNames: 100 }, 'true: 8 kHz streams are spotted too');
    assert.throws(() => loadConfig({ PARLEY_ASR_NAME_SPOTTING: 'yes' }), /PARLEY_ASR_NAME_SPOTTING/);
    assert.equal(loadConfig({}).asrNameSpottingTenantNames, 0, 'the session\'s people only');
    assert.equal(loadConfig({ PARLEY_ASR_NAME_SPOTTING_TENANT_NAMES: '7' }).asrNameSpottingTenantNames, 7);
    const capped = loadConfig({ PARLEY_ASR_NAME_SPOTTING: 'true', PARLEY_ASR_NAME_SPOTTING_MAX_NAMES: '20' });
    const cappedAsr = asrBackend(capped);
    assert.deepEqual(cappedAsr.kind === 'pocketsphinx' ? cappedAsr.nameSpotting : null, { maxNames: 20 });
    assert.throws(() => loadConfig({ PARLEY_ASR_NAME_SPOTTING_MAX_NAMES: '0' }), /PARLEY_ASR_NAME_SPOTTING_MAX_NAMES/);
    assert.throws(() => loadConfig({ PARLEY_ASR_NAME_SPOTTING_TENANT_NAMES: '-1' }), /PARLEY_ASR_NAME_SPOTTING_TENANT_NAMES/);
  });

  test('PARLEY_MOONSHINE_NAMES: streams on Moonshine get the session\'s names only when it is true (default false)', () => {
    assert.equal(loadConfig({}).moonshineNames, false);
    assert.throws(() => loadConfig({ PARLEY_MOONSHINE_NAMES: 'yes' }), /PARLEY_MOONSHINE_NAMES/);
    const off = loadConfig({ PARLEY_ASR: 'moonshine' });
    const on = loadConfig({ PARLEY_ASR: 'moonshine', PARLEY_MOONSHINE_NAMES: 'true' });
    assert.equal(favoursNames(off, 16000), false);
    assert.equal(favoursNames(on, 16000), true);
    assert.equal(favoursNames(on, 8000), true);
    const offBackend = asrBackend(off);
    assert.equal(offBackend.kind === 'moonshine' ? offBackend.knownNames : null, false, 'the recogniser is told too');
    const onBackend = asrBackend(on);
    assert.equal(onBackend.kind === 'moonshine' ? onBackend.knownNames : null, undefined, 'its own defaults');
    // PARLEY_ASR_PHONE=moonshine: 8 kHz streams follow PARLEY_MOONSHINE_NAMES, wideband ones PARLEY_ASR_NAME_SPOTTING.
    const phone = loadConfig({ PARLEY_ASR_PHONE: 'moonshine', PARLEY_ASR_NAME_SPOTTING: 'true' });
    assert.equal(favoursNames(phone, 8000), false);
    assert.equal(favoursNames(phone, 16000), true);
    assert.equal(favoursNames({ ...phone, moonshineNames: true }, 8000), true);
    const pocketsphinx = loadConfig({ PARLEY_ASR_PHONE: 'pocketsphinx' });
    assert.equal(favoursNames(pocketsphinx, 8000), false, 'default: pocketsphinx spots names on wideband streams only');
    assert.equal(favoursNames(pocketsphinx, 16000), true);
    assert.equal(favoursNames(loadConfig({ PARLEY_ASR: 'sherpa-onnx', PARLEY_MOONSHINE_NAMES: 'true' }), 16000), false);
  });

  test('PARLEY_ASR_PHONE=moonshine gives 8 kHz streams Moonshine when its model is installed', () => {
    assert.throws(() => loadConfig({ PARLEY_ASR_PHONE: 'whisper' }), /PARLEY_ASR_PHONE/);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-phone-'));
    try {
      const config = loadConfig({ PARLEY_ASR_PHONE: 'moonshine', MODELS_DIR: dir });
      assert.equal(phoneMoonshine(config), false, 'not installed');
      const none = asrBackend(config);
      assert.equal(none.kind === 'pocketsphinx' ? none.narrowbandRecogniser : 'x', undefined);
      mkdirSync(path.join(dir, 'moonshine-tiny'));
      for (const f of ['encoder_model.onnx', 'decoder_model_merged.onnx']) writeFileSync(path.join(dir, 'moonshine-tiny', f), 'x');
      assert.equal(phoneMoonshine(config), true);
      const backend = asrBackend(config);
      assert.deepEqual(backend.kind === 'pocketsphinx' ? backend.narrowbandRecogniser : null,
        { kind: 'moonshine', model: 'moonshine-tiny', modelDir: path.join(dir, 'moonshine-tiny'), partialIntervalMs: 0, pauseDecode: false, retryEmpty: true, knownNames: false });
      assert.equal(phoneMoonshine(loadConfig({ MODELS_DIR: dir, PARLEY_ASR_PHONE: 'pocketsphinx' })), false, 'not when pocketsphinx is asked for');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('PARLEY_MEMORY_MIN_ASR_CONFIDENCE: auto by default (per turn), a number from 0 to 1 for every turn; anything else refused', () => {
    assert.equal(loadConfig({}).memoryMinAsrConfidence, 'auto');
    assert.equal(loadConfig({ PARLEY_MEMORY_MIN_ASR_CONFIDENCE: 'AUTO' }).memoryMinAsrConfidence, 'auto');
    assert.equal(loadConfig({ PARLEY_MEMORY_MIN_ASR_CONFIDENCE: '0.35' }).memoryMinAsrConfidence, 0.35);
    assert.equal(loadConfig({ PARLEY_MEMORY_MIN_ASR_CONFIDENCE: '0' }).memoryMinAsrConfidence, 0);
    for (const bad of ['1.5', '-0.1', 'high']) {
      assert.throws(() => loadConfig({ PARLEY_MEMORY_MIN_ASR_CONFIDENCE: bad }), /PARLEY_MEMORY_MIN_ASR_CONFIDENCE=.* must be auto or a number from 0 to 1/);
    }
  });

  test('MODELS_DIR defaults to the models folder of the install, whatever the working directory', () => {
    const before = process.cwd();
    try {
      process.chdir(os.tmpdir());
      assert.equal(loadConfig({}).modelsDir, path.join(repoRoot(), 'models'));
      assert.equal(loadConfig({ MODELS_DIR: 'm' }).modelsDir, path.join(os.tmpdir(), 'm'), 'a relative value is taken from the working directory');
      assert.equal(loadConfig({ MODELS_DIR: '/srv/models' }).modelsDir, '/srv/models');
    } finally {
      process.chdir(before);
    }
  });

  test('PARLEY_JOB_MAX_RUN_MS: ten minutes by default, 0 for no limit, never negative', () => {
    assert.equal(loadConfig({}).jobMaxRunMs, 600_000);
    assert.equal(loadConfig({ PARLEY_JOB_MAX_RUN_MS: '0' }).jobMaxRunMs, 0);
    assert.equal(loadConfig({ PARLEY_JOB_MAX_RUN_MS: '90000' }).jobMaxRunMs, 90_000);
    assert.throws(() => loadConfig({ PARLEY_JOB_MAX_RUN_MS: '-1' }), /PARLEY_JOB_MAX_RUN_MS/);
  });

  test('a kept extraction must outlive the longest outage wait, and PARLEY_CMUDICT must name a file', () => {
    assert.doesNotThrow(() => loadConfig({ PARLEY_KEPT_EXTRACTION_DAYS: '2', PARLEY_JOB_MAX_OUTAGE_WAIT_MS: String(86_400_000) }));
    assert.throws(() => loadConfig({ PARLEY_KEPT_EXTRACTION_DAYS: '7', PARLEY_JOB_MAX_OUTAGE_WAIT_MS: String(10 * 86_400_000) }),
      /PARLEY_KEPT_EXTRACTION_DAYS \(7 days\) must be longer than PARLEY_JOB_MAX_OUTAGE_WAIT_MS/);
    assert.throws(() => loadConfig({ PARLEY_CMUDICT: '/nonexistent/cmudict.dict' }), /PARLEY_CMUDICT="\/nonexistent\/cmudict.dict": no such file/);
    assert.doesNotThrow(() => loadConfig({ PARLEY_CMUDICT: fileURLToPath(import.meta.url) }));
  });

  test('speaker thresholds can be overridden, and must stay consistent', () => {
    const c = loadConfig({ PARLEY_SPEAKER_TAU_MATCH: '0.6', PARLEY_SPEAKER_TAU_UPDATE: '0.7' });
    assert.deepEqual(c.speakerThresholds, { tauMatch: 0.6, tauUpdate: 0.7 });
    assert.throws(() => loadConfig({ PARLEY_SPEAKER_TAU_MATCH: '0.6', PARLEY_SPEAKER_TAU_UPDATE: '0.5' }), /TAU_UPDATE/);
    assert.throws(() => loadConfig({ PARLEY_SPEAKER_ALPHA: 'lots' }), /PARLEY_SPEAKER_ALPHA/);
  });

  test('the end-of-session merge rule and the stay prior: cosine and fixed by default, the calibrated ones by name', () => {
    const d = loadConfig({});
    assert.deepEqual([d.speakerMergeRule, d.speakerStayPrior], ['cosine', 'fixed']);
    const c = loadConfig({ PARLEY_SPEAKER_MERGE_RULE: 'calibrated', PARLEY_SPEAKER_STAY_PRIOR: 'online' });
    assert.deepEqual([c.speakerMergeRule, c.speakerStayPrior], ['calibrated', 'online']);
    assert.throws(() => loadConfig({ PARLEY_SPEAKER_MERGE_RULE: 'llr' }), /PARLEY_SPEAKER_MERGE_RULE/);
    assert.throws(() => loadConfig({ PARLEY_SPEAKER_STAY_PRIOR: 'yes' }), /PARLEY_SPEAKER_STAY_PRIOR/);
  });

  test('the first-turn revision: off by default, on by PARLEY_SPEAKER_REVISE=true, anything else refused', () => {
    assert.equal(loadConfig({}).speakerRevise, false);
    assert.equal(loadConfig({ PARLEY_SPEAKER_REVISE: 'true' }).speakerRevise, true);
    assert.equal(loadConfig({ PARLEY_SPEAKER_REVISE: 'false' }).speakerRevise, false);
    assert.throws(() => loadConfig({ PARLEY_SPEAKER_REVISE: 'yes' }), /PARLEY_SPEAKER_REVISE/);
  });

  test('small-id absorption in the end-of-session merge: off by default (a wrong join cannot be undone), on by PARLEY_SPEAKER_ABSORB=true, anything else refused', () => {
    assert.equal(loadConfig({}).speakerAbsorb, false);
    assert.equal(loadConfig({ PARLEY_SPEAKER_ABSORB: 'true' }).speakerAbsorb, true);
    assert.throws(() => loadConfig({ PARLEY_SPEAKER_ABSORB: 'no' }), /PARLEY_SPEAKER_ABSORB/);
  });

  test('utterance-level re-clustering at session end: off by default (not adopted), on by PARLEY_SPEAKER_RECLUSTER=true, anything else refused', () => {
    assert.equal(loadConfig({}).speakerRecluster, false);
    assert.equal(loadConfig({ PARLEY_SPEAKER_RECLUSTER: 'true' }).speakerRecluster, true);
    assert.throws(() => loadConfig({ PARLEY_SPEAKER_RECLUSTER: 'yes' }), /PARLEY_SPEAKER_RECLUSTER/);
  });

  test('centroid prototype updates: on by default, PARLEY_SPEAKER_CENTROID=false restores the EMA, anything else refused', () => {
    assert.equal(loadConfig({}).speakerCentroid, true);
    assert.equal(loadConfig({ PARLEY_SPEAKER_CENTROID: 'false' }).speakerCentroid, false);
    assert.equal(loadConfig({ PARLEY_SPEAKER_CENTROID: 'true' }).speakerCentroid, true);
    assert.throws(() => loadConfig({ PARLEY_SPEAKER_CENTROID: 'yes' }), /PARLEY_SPEAKER_CENTROID/);
  });

  test('end-of-session claims of stored voiceprints: on by default, off by PARLEY_SPEAKER_POOLED_CLAIM=false, anything else refused', () => {
    assert.equal(loadConfig({}).speakerPooledClaim, true);
    assert.equal(loadConfig({ PARLEY_SPEAKER_POOLED_CLAIM: 'false' }).speakerPooledClaim, false);
    assert.throws(() => loadConfig({ PARLEY_SPEAKER_POOLED_CLAIM: 'yes' }), /PARLEY_SPEAKER_POOLED_CLAIM/);
  });

  test('a key listed twice is refused', () => {
    assert.throws(() => loadConfig({ PARLEY_API_KEYS: 'samekey123:a,samekey123:b' }), /twice/);
  });

  test('idle decoders are at most the decoder cap, which they default to: above it is refused', () => {
    assert.equal(loadConfig({}).asrIdleDecoders, 4);
    assert.equal(loadConfig({ PARLEY_ASR_MAX_DECODERS: '16' }).asrIdleDecoders, 16);
    assert.equal(loadConfig({ PARLEY_ASR_IDLE_DECODERS: '4' }).asrIdleDecoders, 4);
    assert.throws(() => loadConfig({ PARLEY_ASR_IDLE_DECODERS: '9' }), /PARLEY_ASR_IDLE_DECODERS=9 must be at most PARLEY_ASR_MAX_DECODERS \(4\)/);
    assert.equal(loadConfig({ PARLEY_ASR_MAX_DECODERS: '16', PARLEY_ASR_IDLE_DECODERS: '9' }).asrIdleDecoders, 9);
  });

  test('warnings: a PARLEY_ variable the config does not read, with the closest name it reads', () => {
    const { warnings } = loadConfigWithWarnings({ PARLEY_ASR_NAMESPOTTING: 'true', PARLEY_QUEU: 'redis', PARLEY_ASR: 'none', HOME: '/x' });
    assert.deepEqual(warnings, [
      'PARLEY_ASR_NAMESPOTTING is not a Parley setting and is ignored; did you mean PARLEY_ASR_NAME_SPOTTING?',
      'PARLEY_QUEU is not a Parley setting and is ignored; did you mean PARLEY_QUEUE?',
    ]);
    // Every variable the config reads is known, even one read only through a condition or outside EnvReader.
    const every = {
      PARLEY_METRICS_PORT: '9464', PARLEY_METRICS_HOST: '127.0.0.1', PARLEY_API_KEYS: 'abcdefgh1:t1', PARLEY_CMUDICT: '',
      PARLEY_SPEAKER_TAU_MATCH: '0.5', PARLEY_POCKETSPHINX_OPTIONS: '-ds 1', PARLEY_TEST_REDIS_URL: 'redis://x', PARLEY_SHARED_DATA: '/d',
    };
    assert.deepEqual(loadConfigWithWarnings(every).warnings, []);
  });

  test('warnings: PARLEY_VOICEPRINTS naming a tenant no API key serves (a typo of all reads as tenant "al")', () => {
    const typo = loadConfigWithWarnings({ PARLEY_VOICEPRINTS: 'al' }).warnings;
    assert.equal(typo.length, 1);
    assert.match(typo[0]!, /PARLEY_VOICEPRINTS .*"al".*nothing here serves \(with no API keys the server serves default\).*all or none/);
    assert.deepEqual(loadConfigWithWarnings({ PARLEY_VOICEPRINTS: 'all' }).warnings, []);
    assert.deepEqual(loadConfigWithWarnings({ PARLEY_VOICEPRINTS: 'none' }).warnings, []);
    assert.deepEqual(loadConfigWithWarnings({ PARLEY_VOICEPRINTS: 'default' }).warnings, []);
    const keys = { PARLEY_API_KEYS: 'abcdefgh1:acme,abcdefgh2:beta' };
    assert.deepEqual(loadConfigWithWarnings({ ...keys, PARLEY_VOICEPRINTS: 'acme, beta' }).warnings, []);
    assert.match(loadConfigWithWarnings({ ...keys, PARLEY_VOICEPRINTS: 'acme,betta' }).warnings[0]!, /"betta"/);
    // No key serves `default`: the list names the keys' tenants, and the MCP tenant as npm run mcp's.
    const one = loadConfigWithWarnings({ PARLEY_API_KEYS: 'longenoughkey:acme', PARLEY_VOICEPRINTS: 'al' }).warnings[0]!;
    assert.match(one, /\(API keys serve acme; npm run mcp serves default \(PARLEY_MCP_TENANT\)\)/);
    assert.doesNotMatch(one, /acme, default/);
  });

  test('PARLEY_ANSWERABLE_TOPIC_GATE is off unless set on; another value is refused', () => {
    assert.equal(loadConfig({}).answerableTopicGate, false);
    assert.equal(loadConfig({ PARLEY_ANSWERABLE_TOPIC_GATE: 'on' }).answerableTopicGate, true);
    assert.throws(() => loadConfig({ PARLEY_ANSWERABLE_TOPIC_GATE: 'yes' }), (err: unknown) => err instanceof ConfigError && /PARLEY_ANSWERABLE_TOPIC_GATE/.test(err.message));
  });

  test('PARLEY_CHANGE_CLASSIFIER is off unless set on; another value is refused, naming it', () => {
    assert.equal(loadConfig({}).changeClassifier, false);
    assert.equal(loadConfig({ PARLEY_CHANGE_CLASSIFIER: 'on' }).changeClassifier, true);
    assert.equal(loadConfig({ PARLEY_CHANGE_CLASSIFIER: 'off' }).changeClassifier, false);
    assert.throws(() => loadConfig({ PARLEY_CHANGE_CLASSIFIER: 'learned' }), (err: unknown) => err instanceof ConfigError && /PARLEY_CHANGE_CLASSIFIER/.test(err.message));
  });

  test('PARLEY_CONTEXT_SCOPE: unset leaves each route its default; all or participants; another value is refused naming them', () => {
    assert.equal(loadConfig({}).contextScope, null);
    assert.equal(loadConfig({ PARLEY_CONTEXT_SCOPE: 'participants' }).contextScope, 'participants');
    assert.equal(loadConfig({ PARLEY_CONTEXT_SCOPE: 'all' }).contextScope, 'all');
    assert.throws(() => loadConfig({ PARLEY_CONTEXT_SCOPE: 'callers' }),
      (err: unknown) => err instanceof ConfigError && /PARLEY_CONTEXT_SCOPE="callers" must be one of: all, participants/.test(err.message));
  });
});
