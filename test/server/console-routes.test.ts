import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import Fastify from 'fastify';
import { parseWav } from '../../pipelines/audio/wav.js';
import { errorHandlerPlugin } from '../../server/plugins/error-handler.js';
import { CONSOLE_CSP, CONSOLE_DIR, consoleRoutes } from '../../server/routes/console.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { tempDir } from '../helpers/temp-dir.js';

const A = 'key-alpha-console';
const B = 'key-bravo-console';
const as = (key: string) => ({ authorization: `Bearer ${key}` });

describe('console routes: static page, utterance audio spans, persona', () => {
  let t: TestApp;
  let withAudio = '';
  let withoutAudio = '';
  let ana = '';
  before(async () => {
    t = await startTestApp({ PARLEY_API_KEYS: `${A}:tenantA,${B}:tenantB` }, false);
    // One utterance with a kept audio span (as the voice path stores it), one without (typed text).
    const tone = Float32Array.from({ length: 8000 }, (_, i) => 0.3 * Math.sin((2 * Math.PI * 440 * i) / 16000));
    const audioRef = await t.app.models.audioSpans.write('tenantA', 'call-1', 'u_spoken', tone);
    const [spoken] = await t.app.ingest.ingest('tenantA', 'call-1', [{ id: 'u_spoken', speaker: 'Ana', text: 'I love jazz.', audioRef }]);
    const [typed] = await t.app.ingest.ingest('tenantA', 'call-1', [{ speaker: 'Ana', text: 'Typed, not spoken.' }]);
    withAudio = spoken!.utterance.id;
    withoutAudio = typed!.utterance.id;
    ana = spoken!.speaker.id;
    await t.app.stores.memory.addPersonaEvidence('tenantA', {
      participantId: ana, kind: 'preference', target: 'jazz', valence: 0.8, label: null, strength: 0.7,
      utteranceId: withAudio, sessionId: 'call-1', time: new Date().toISOString(),
    });
  });
  after(async () => {
    await t.close();
  });

  test('/console serves the built page without a key, with a same-origin CSP; the API still needs one', async () => {
    assert.ok(existsSync(path.join(CONSOLE_DIR, 'index.html')), 'run `npm run build` first: it bundles console/ into dist/console');
    const redirect = await t.app.inject({ url: '/console' });
    assert.equal(redirect.statusCode, 302);
    assert.equal(redirect.headers.location, '/console/');
    const page = await t.app.inject({ url: '/console/' });
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /text\/html/);
    assert.equal(page.headers['content-security-policy'], CONSOLE_CSP);
    assert.match(CONSOLE_CSP, /default-src 'self'/);
    assert.doesNotMatch(CONSOLE_CSP, /unsafe-inline|unsafe-eval|https?:/, 'nothing inline, nothing from elsewhere');
    assert.match(page.body, /<script type="module" src="main.js">/);
    for (const asset of ['main.js', 'pcm-worklet.js', 'console.css']) {
      const res = await t.app.inject({ url: `/console/${asset}` });
      assert.equal(res.statusCode, 200, asset);
    }
    for (const url of ['/console/../package.json', '/console/%2e%2e/package.json', '/console/..%2fpackage.json', '/console/../v1/participants']) {
      const res = await t.app.inject({ url });
      assert.ok(res.statusCode === 401 || res.statusCode === 403 || res.statusCode === 404, `${url}: ${res.statusCode}`);
      assert.doesNotMatch(res.body, /"name": "parley"|participants/, url);
    }
    assert.equal((await t.app.inject({ url: '/console-other' })).statusCode, 401, 'only /console itself is open');
    assert.equal((await t.app.inject({ url: '/v1/participants' })).statusCode, 401);
  });

  test('console paths that climb out of its folder (\\ or //, encoded or not) and ranges past a file\'s end keep their 4xx, never a 500', async () => {
    for (const url of ['/console/..%5cpackage.json', '/console/..%5c..%5cpackage.json', '/console//etc/passwd', '/console/%2e%2e%5cpackage.json']) {
      // With a key, so the request gets past auth (which refuses `..` in console paths without one) to the files.
      const res = await t.app.inject({ url, headers: as(A) });
      assert.ok(res.statusCode === 403 || res.statusCode === 404, `${url}: ${res.statusCode} ${res.body}`);
      assert.match(res.json().error.code, /PARLEY_ERR_(FORBIDDEN|NOT_FOUND)/, url);
      assert.doesNotMatch(res.body, /"name": "parley"|root:/, url);
    }
    const size = (await t.app.inject({ url: '/console/main.js' })).rawPayload.length;
    for (const range of [`bytes=${size + 100}-`, 'bytes=20-10']) {
      const res = await t.app.inject({ url: '/console/main.js', headers: { range } });
      assert.equal(res.statusCode, 416, `${range}: ${res.body}`);
      assert.equal(res.headers['content-range'], `bytes */${size}`);
      assert.equal(res.json().error.code, 'PARLEY_ERR_BAD_REQUEST');
    }
    const part = await t.app.inject({ url: '/console/main.js', headers: { range: 'bytes=0-9' } });
    assert.equal(part.statusCode, 206);
    assert.equal(part.rawPayload.length, 10);
  });

  test('/console/auth.json says, without a key, whether the API needs one (the page asks for a key before any API call)', async () => {
    const keyed = await t.app.inject({ url: '/console/auth.json' });
    assert.equal(keyed.statusCode, 200);
    assert.deepEqual(keyed.json(), { key_required: true });
    assert.equal(keyed.headers['cache-control'], 'no-store');
    const open = await startTestApp({}, false);
    try {
      const res = await open.app.inject({ url: '/console/auth.json', headers: { host: '127.0.0.1' } });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { key_required: false });
    } finally {
      await open.close();
    }
  });

  test('an unbuilt console answers 404 saying how to build it; built while the server runs, it is served without a restart', async () => {
    const empty = tempDir('parley-console-empty-');
    const app = Fastify();
    await app.register(errorHandlerPlugin);
    await app.register(consoleRoutes, { dir: empty.dir });
    const res = await app.inject({ url: '/console/' });
    assert.equal(res.statusCode, 404);
    assert.match(res.json().error.message, /npm run build/);
    // `npm run build` while the server runs (the newcomer trial: it still answered 404 until restarted).
    writeFileSync(path.join(empty.dir, 'index.html'), '<!doctype html><title>Parley</title>');
    writeFileSync(path.join(empty.dir, 'main.js'), 'export {};');
    const page = await app.inject({ url: '/console/' });
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.body, /<title>Parley<\/title>/);
    assert.equal((await app.inject({ url: '/console/main.js' })).statusCode, 200);
    assert.equal((await app.inject({ url: '/console/missing.js' })).statusCode, 404);
    await app.close();
    empty.remove();
  });

  test('GET /v1/utterances/{id} and /audio: the kept span as a WAV, scoped to the tenant, behind the key', async () => {
    const u = await t.app.inject({ url: `/v1/utterances/${withAudio}`, headers: as(A) });
    assert.equal(u.statusCode, 200);
    assert.equal(u.json().text, 'I love jazz.');
    assert.equal(u.json().speaker.name, 'Ana');
    const audio = await t.app.inject({ url: `/v1/utterances/${withAudio}/audio`, headers: as(A) });
    assert.equal(audio.statusCode, 200);
    assert.equal(audio.headers['content-type'], 'audio/wav');
    const wav = parseWav(audio.rawPayload);
    assert.equal(wav.sampleRate, 16000);
    assert.equal(wav.samples.length, 8000);
    assert.equal((await t.app.inject({ url: `/v1/utterances/${withAudio}/audio` })).statusCode, 401, 'no key, no audio');
    assert.equal((await t.app.inject({ url: `/v1/utterances/${withAudio}/audio`, headers: as(B) })).statusCode, 404, 'another tenant cannot hear it');
    assert.equal((await t.app.inject({ url: `/v1/utterances/${withAudio}`, headers: as(B) })).statusCode, 404);
    const none = await t.app.inject({ url: `/v1/utterances/${withoutAudio}/audio`, headers: as(A) });
    assert.equal(none.statusCode, 404);
    assert.match(none.json().error.message, /no audio kept/);
    assert.equal((await t.app.inject({ url: '/v1/utterances/u_nope/audio', headers: as(A) })).statusCode, 404);
  });

  test('an audio span past retention (file gone) is a 404, not a 500', async () => {
    const u = await t.app.stores.graph.getUtterance('tenantA', withAudio);
    await t.app.models.audioSpans.remove(u!.audioRef!);
    const res = await t.app.inject({ url: `/v1/utterances/${withAudio}/audio`, headers: as(A) });
    assert.equal(res.statusCode, 404);
    assert.match(res.json().error.message, /no longer kept/);
  });

  test('GET /v1/participants/{id}/persona lists the persona nodes; unknown ids and other tenants get 404', async () => {
    const res = await t.app.inject({ url: `/v1/participants/${ana}/persona`, headers: as(A) });
    assert.equal(res.statusCode, 200);
    const body = res.json() as { participant_id: string; persona: { kind: string; target: string; evidence_count: number; evidence_ids: string[] }[] };
    assert.equal(body.participant_id, ana);
    assert.equal(body.persona.length, 1);
    assert.equal(body.persona[0]!.kind, 'preference');
    assert.equal(body.persona[0]!.target, 'jazz');
    assert.deepEqual(body.persona[0]!.evidence_ids, [withAudio]);
    assert.equal((await t.app.inject({ url: `/v1/participants/${ana}/persona?stable_only=true`, headers: as(A) })).json().persona.length, 0);
    assert.equal((await t.app.inject({ url: `/v1/participants/${ana}/persona`, headers: as(B) })).statusCode, 404);
    assert.equal((await t.app.inject({ url: '/v1/participants/p_nope/persona', headers: as(A) })).statusCode, 404);
  });
});
