import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, test, type TestContext } from 'node:test';
import { ParleyError } from '../../graph/core/errors.js';
import { fixtureSamples, loadAudioFixtures } from '../../pipelines/audio/fixtures.js';
import { AFTER_CONSOLIDATION_JOB } from '../../pipelines/memory/after-consolidation.js';
import { encodeS16le } from '../../pipelines/audio/pcm-codecs.js';
import { ParleyClient } from '../../clients/typescript/src/index.js';
import { startTestApp, startVoiceTestApp, type TestApp } from '../helpers/app.js';
import { TestWsClient } from '../helpers/ws-client.js';

/** One sample's value from a Prometheus exposition (`name{labels}` exactly as written), or undefined. */
function sample(text: string, series: string): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    if (line.slice(0, at) === series) return Number(line.slice(at + 1));
  }
  return undefined;
}

/**
 * The exposition passes `promtool check metrics` (installed by scripts/setup.sh from Debian's
 * `prometheus` package); where promtool is missing, a structural check of the same main rules runs instead.
 */
function assertLints(t: TestContext, text: string): void {
  const run = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
  if (!run.error) {
    assert.equal(run.status, 0, `promtool check metrics: ${run.stdout}${run.stderr}`);
    return;
  }
  t.diagnostic('promtool is not installed (scripts/setup.sh installs it): structural check only');
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (m) types.set(m[1]!, m[2]!);
  }
  for (const [name, type] of types) {
    assert.match(name, /^[a-zA-Z_:][a-zA-Z0-9_:]*$/);
    if (type === 'counter') assert.ok(name.endsWith('_total'), `counter ${name} ends in _total`);
    else assert.ok(!name.endsWith('_total'), `non-counter ${name} does not end in _total`);
    assert.match(text, new RegExp(`^# HELP ${name} \\S`, 'm'), `${name} has help`);
  }
}

const KEY_A = 'metrics-key-a1';

describe('operator metrics and probes (API keys, jobs left waiting, separate metrics listener)', () => {
  let t: TestApp;
  let sdk: ParleyClient;
  before(async () => {
    t = await startTestApp({ PARLEY_API_KEYS: `${KEY_A}:tenantA`, PARLEY_RUN_JOBS: 'false', PARLEY_METRICS_PORT: '0' });
    sdk = new ParleyClient({ baseUrl: t.httpUrl, apiKey: KEY_A });
  });
  after(async () => {
    await t.close();
  });
  const auth = { authorization: `Bearer ${KEY_A}` };
  // `/metrics` is no API operation (not in /openapi.json), so the SDK has no method for it: scraped raw.
  const scrape = async (): Promise<string> => {
    const res = await fetch(`${t.httpUrl}/metrics`, { headers: auth });
    assert.equal(res.status, 200);
    return res.text();
  };

  test('/healthz answers without a key and says nothing else; /metrics needs the key on the main port', async () => {
    const keyless = new ParleyClient({ baseUrl: t.httpUrl });
    assert.deepEqual(await keyless.health(), { status: 'ok' });
    await assert.rejects(keyless.readiness(), { code: 'PARLEY_ERR_UNAUTHORIZED', status: 401 });
    await assert.rejects(keyless.participants(), { code: 'PARLEY_ERR_UNAUTHORIZED', status: 401 });
    // Raw: HEAD, /metrics (no API operation) and a dot-segment path are requests the SDK never makes.
    assert.equal((await fetch(`${t.httpUrl}/healthz`, { method: 'HEAD' })).status, 200);
    for (const url of ['/metrics', '/healthz/../v1/participants']) {
      const res = await fetch(`${t.httpUrl}${url}`);
      assert.equal(res.status, 401, url);
    }
    assert.match(await scrape(), /^# TYPE parley_sessions gauge$/m);
  });

  test('PARLEY_METRICS_PORT serves /metrics without a key on its own listener, and nothing else', async () => {
    const address = t.app.metricsAddress();
    assert.ok(address, 'the metrics listener is up');
    assert.equal(address.address, '127.0.0.1');
    const base = `http://127.0.0.1:${address.port}`;
    // Raw: this listener serves only /metrics, no API operation.
    const res = await fetch(`${base}/metrics`);
    assert.equal(res.status, 200);
    assert.match(await res.text(), /^parley_queue_jobs\{/m);
    const onMetricsListener = new ParleyClient({ baseUrl: base });
    await assert.rejects(onMetricsListener.participants(), { code: 'PARLEY_ERR_NOT_FOUND', status: 404 });
    await assert.rejects(onMetricsListener.health(), { code: 'PARLEY_ERR_NOT_FOUND', status: 404 });
  });

  test('queue depth and oldest job age are read from the queue at scrape time', async () => {
    const before = await scrape();
    assert.equal(sample(before, 'parley_queue_jobs{queue="memory.consolidate",state="waiting"}'), 0);
    assert.equal(sample(before, 'parley_queue_oldest_job_age_seconds{queue="memory.consolidate"}'), 0);
    const stored = await sdk.postUtterances('q-1', [{ speaker: 'Ana', text: 'I live in Porto.' }, { speaker: 'Ben', text: 'I love sushi.' }]);
    assert.equal(stored.utterance_ids.length, 2);
    await new Promise((r) => setTimeout(r, 300));
    const now = await scrape();
    assert.equal(sample(now, 'parley_queue_jobs{queue="memory.consolidate",state="waiting"}'), 2, 'no worker runs them here');
    assert.equal(sample(now, 'parley_queue_jobs{queue="memory.consolidate",state="running"}'), 0);
    assert.ok(sample(now, 'parley_queue_oldest_job_age_seconds{queue="memory.consolidate"}')! >= 0.3);
    assert.equal(sample(now, 'parley_utterances_stored_total{source="http"}'), 2);
  });

  test('one scrape reads each queue\'s stats once, shared by the three queue gauges', async () => {
    const queue = t.app.stores.queue;
    const read = queue.stats.bind(queue);
    const calls: string[] = [];
    queue.stats = (name: string) => { calls.push(name); return read(name); };
    try {
      await scrape();
      assert.equal(calls.length, new Set(calls).size, `each queue once: ${calls.join(', ')}`);
      assert.ok(calls.includes('memory.consolidate'));
      calls.length = 0;
      await scrape();
      assert.ok(calls.includes('memory.consolidate'), 'the next scrape reads afresh');
    } finally {
      queue.stats = read;
    }
  });

  test('jobs waiting out a store outage are counted per queue, in /metrics and in /readyz', async () => {
    const before = await scrape();
    assert.equal(sample(before, 'parley_queue_outage_waiting_jobs{queue="memory.after-consolidation"}'), 0);
    // No worker runs here (PARLEY_RUN_JOBS=false): this handler meets a store that is down, every time.
    t.app.stores.queue.process(AFTER_CONSOLIDATION_JOB, async () => {
      throw new ParleyError('PARLEY_ERR_STORE_UNAVAILABLE', 'Neo4j (NEO4J_URI) unavailable during a test');
    });
    await t.app.stores.queue.enqueue(AFTER_CONSOLIDATION_JOB, { tenant: 'tenantA', sessionId: 'm-outage', utteranceId: 'u_m_outage' });
    let text = before;
    for (let i = 0; i < 600 && sample(text, 'parley_queue_outage_waiting_jobs{queue="memory.after-consolidation"}') !== 1; i++) {
      await new Promise((r) => setTimeout(r, 50));
      text = await scrape();
    }
    assert.equal(sample(text, 'parley_queue_outage_waiting_jobs{queue="memory.after-consolidation"}'), 1);
    assert.equal(sample(text, 'parley_queue_outage_waiting_jobs{queue="memory.consolidate"}'), 0);
    const ready = await sdk.readiness();
    assert.equal(ready.status, 'ready', 'a job waiting on an outage does not make the process unready');
    assert.equal(ready.waiting_on_outage?.['memory.after-consolidation'], 1);
    assert.equal(ready.waiting_on_outage?.['memory.consolidate'], 0);
  });

  test('sessions by state: live while connected, waiting_resume after the socket drops', async () => {
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=m-live&token=${KEY_A}`);
    await c.next('session.started');
    let text = await scrape();
    assert.equal(sample(text, 'parley_sessions{state="live"}'), 1);
    assert.equal(sample(text, 'parley_sessions{state="waiting_resume"}'), 0);
    c.sendJson({ type: 'utterance', speaker: 'Ana', text: 'Typed over the socket.' });
    await c.next('transcript.final');
    c.close();
    for (let i = 0; i < 200 && sample(text, 'parley_sessions{state="waiting_resume"}') !== 1; i++) {
      await new Promise((r) => setTimeout(r, 50));
      text = await scrape();
    }
    assert.equal(sample(text, 'parley_sessions{state="live"}'), 0);
    assert.equal(sample(text, 'parley_sessions{state="waiting_resume"}'), 1);
    assert.equal(sample(text, 'parley_utterances_stored_total{source="ws"}'), 1);
  });

  test('query latency and its retrieval rounds are observed; Node defaults keep their standard names; the exposition passes promtool', async (ctx) => {
    const answer = await sdk.query({ question: 'Where does Ana live?' });
    const text = await scrape();
    assert.equal(sample(text, 'parley_query_duration_seconds_count'), 1);
    assert.ok(sample(text, 'parley_query_duration_seconds_sum')! > 0);
    assert.ok(answer.rounds >= 1);
    assert.equal(sample(text, 'parley_memory_search_duration_seconds_count{kind="query_round"}'), answer.rounds, 'one search per round');
    // Node's defaults under their standard names, not prefixed.
    assert.match(text, /^process_cpu_seconds_total /m);
    assert.match(text, /^nodejs_heap_size_used_bytes /m);
    assert.doesNotMatch(text, /^parley_process_|^parley_nodejs_/m);
    assertLints(ctx, text);
  });
});

describe('voice metrics: transcript lag and latency, ready_at, voice utterances, audio shed', () => {
  let t: TestApp;
  before(async () => {
    t = await startVoiceTestApp();
  });
  after(() => t.close());
  const scrape = async (): Promise<string> => (await t.app.inject({ url: '/metrics' })).body;

  test('a spoken session counts voice utterances and observes partial lag, final latency, ready_at and search latency', async (ctx) => {
    const awb = loadAudioFixtures().find((f) => f.file === 'awb.wav')!;
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=metrics-voice`, {}, { pacing: 'realtime', frameMs: 100, speed: 1 });
    await c.next('session.started');
    await c.speak(fixtureSamples(awb));
    c.sendJson({ type: 'session.end' });
    await c.next('session.ended', () => true, 120_000);
    const finals = c.events.filter((e) => e.type === 'transcript.final').length;
    const partials = c.events.filter((e) => e.type === 'transcript.partial').length;
    const confirmed = c.events.filter((e) => e.type === 'memory.context' && e.speculative === false).length;
    assert.ok(finals >= 1 && partials >= 1 && confirmed >= 1, `finals ${finals}, partials ${partials}, confirmed contexts ${confirmed}`);

    const text = await scrape();
    assert.equal(sample(text, 'parley_utterances_stored_total{source="voice"}'), finals, 'every voice turn is counted');
    assert.equal(sample(text, 'parley_transcript_final_latency_seconds_count'), finals);
    assert.equal(sample(text, 'parley_transcript_partial_lag_seconds_count'), partials);
    assert.equal(sample(text, 'parley_memory_ready_at_seconds_count'), confirmed);
    assert.ok(sample(text, 'parley_memory_search_duration_seconds_count{kind="turn"}')! >= 1);
    assert.equal(sample(text, 'parley_memory_search_duration_seconds_count{kind="query_round"}'), undefined, 'no question asked here');
    // The final comes at least the end-of-turn silence (500 ms) after the end of speech arrived.
    assert.ok(sample(text, 'parley_transcript_final_latency_seconds_sum')! >= 0.5 * finals);
    assert.equal(sample(text, 'parley_transcript_final_latency_seconds_bucket{le="0.25"}'), 0);
    assert.equal(sample(text, 'parley_audio_shed_seconds_total'), 0, 'nothing shed at real time');
    assertLints(ctx, text);
  });

  test('audio sent faster than real time is shed, and the shed seconds are counted, not only the episode', async () => {
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=metrics-flood`);
    await c.next('session.started');
    const second = new Float32Array(16000);
    for (let i = 0; i < 12; i++) c.sendRaw(encodeS16le(second));
    await c.next('error', (e) => e.code === 'PARLEY_ERR_OVERLOADED');
    c.sendJson({ type: 'session.end' });
    await c.next('session.ended', () => true, 120_000);
    const text = await scrape();
    const shed = sample(text, 'parley_audio_shed_seconds_total')!;
    // 12 s arrive at once and at most 5 s may run ahead of the clock (plus the time the burst took).
    assert.ok(shed >= 5 && shed <= 7, `shed ${shed} s of 12 s`);
    assert.equal(sample(text, 'parley_ws_errors_total{code="PARLEY_ERR_OVERLOADED"}'), 1, 'one episode');
  });
});
