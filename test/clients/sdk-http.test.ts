import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ParleyClient, ParleyError, parseRetryAfter, type ServerEvent } from '../../clients/typescript/src/index.js';
import { parseWav } from '../../pipelines/audio/wav.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const KEY = 'key-sdk-http-01';

describe('@parley/client: utterance audio and session events against the server', () => {
  let t: TestApp;
  let client: ParleyClient;
  before(async () => {
    t = await startTestApp({ PARLEY_API_KEYS: `${KEY}:acme` });
    client = new ParleyClient({ baseUrl: t.httpUrl, apiKey: KEY });
  });
  after(async () => {
    await t.close();
  });

  test('utteranceAudio: the kept span as WAV bytes; PARLEY_ERR_NOT_FOUND when none is kept', async () => {
    // An utterance with a kept audio span, stored as the voice path stores it, and a typed one without.
    const tone = Float32Array.from({ length: 8000 }, (_, i) => 0.3 * Math.sin((2 * Math.PI * 440 * i) / 16000));
    const audioRef = await t.app.models.audioSpans.write('acme', 'call-a', 'u_spoken_sdk', tone);
    const [spoken] = await t.app.ingest.ingest('acme', 'call-a', [{ id: 'u_spoken_sdk', speaker: 'Ana', text: 'I love jazz.', audioRef }]);
    const [typed] = await client.postUtterances('call-a', [{ speaker: 'Ana', text: 'typed, not spoken' }]).then((r) => r.utterance_ids);

    const wav = await client.utteranceAudio(spoken!.utterance.id);
    assert.ok(wav instanceof Uint8Array);
    const parsed = parseWav(Buffer.from(wav));
    assert.equal(parsed.sampleRate, 16000);
    assert.equal(parsed.samples.length, tone.length);
    assert.ok(Math.abs(parsed.samples[100]! - tone[100]!) < 1e-3, 'the same samples came back');
    assert.equal((await client.utterance(spoken!.utterance.id)).text, 'I love jazz.');

    await assert.rejects(client.utteranceAudio(typed!), (err: ParleyError) => err.code === 'PARLEY_ERR_NOT_FOUND' && err.status === 404);
    const stranger = new ParleyClient({ baseUrl: t.httpUrl, apiKey: 'key-not-configured' });
    await assert.rejects(stranger.utteranceAudio(spoken!.utterance.id), { code: 'PARLEY_ERR_UNAUTHORIZED', status: 401 });
  });

  test('sessionEvents: subscribed before the session starts, the same typed events as the stream, ends after session.ended', async () => {
    const follower = await client.sessionEvents('call-sse');
    const followed: ServerEvent[] = [];
    const following = (async () => {
      for await (const e of follower) followed.push(e);
    })();
    const session = await client.stream({ sessionId: 'call-sse', pacing: 'none' });
    const direct: ServerEvent[] = [];
    const reading = (async () => {
      for await (const e of session) direct.push(e);
    })();
    session.send({ type: 'utterance', speaker: 'Ana', text: 'Ben, the keys are under the mat.' });
    await session.waitFor('transcript.final');
    await session.end();
    await reading;
    await following;
    assert.equal(followed.at(-1)?.type, 'session.ended', 'the iterator ended after session.ended');
    assert.deepEqual(followed.map((e) => [e.type, e.seq]), direct.map((e) => [e.type, e.seq]), 'every event of the stream, in order');
    const final = followed.find((e) => e.type === 'transcript.final');
    assert.ok(final && final.type === 'transcript.final' && final.text === 'Ben, the keys are under the mat.' && final.speaker.name === 'Ana');
    await assert.rejects(async () => {
      for await (const _ of follower) break;
    }, { code: 'PARLEY_CLIENT_CLOSED' }, 'one iteration per stream');
  });

  test('sessionEvents: close() and an aborted signal end the iterator quietly; a wrong key is refused typed', async () => {
    const closing = await client.sessionEvents('call-quiet');
    const done = (async () => {
      const seen: ServerEvent[] = [];
      for await (const e of closing) seen.push(e);
      return seen;
    })();
    closing.close();
    assert.deepEqual(await done, []);

    const controller = new AbortController();
    const aborted = await client.sessionEvents('call-quiet', { signal: controller.signal });
    const ended = (async () => {
      for await (const _ of aborted) { /* none come */ }
      return 'ended';
    })();
    controller.abort();
    assert.equal(await ended, 'ended');

    const stranger = new ParleyClient({ baseUrl: t.httpUrl, apiKey: 'key-not-configured' });
    await assert.rejects(stranger.sessionEvents('call-quiet'), { code: 'PARLEY_ERR_UNAUTHORIZED', status: 401 });
  });
});

describe('@parley/client: 429 retries honour Retry-After, bounded', () => {
  let t: TestApp;
  before(async () => {
    // A tiny limit: one request per 5-second window.
    t = await startTestApp({ PARLEY_RATE_LIMIT_PER_MIN: '12', PARLEY_RATE_LIMIT_WINDOW_MS: '5000' });
  });
  after(async () => {
    await t.close();
  });

  test('a 429 is retried after Retry-After; past the bound the typed error is thrown', async () => {
    const noRetry = new ParleyClient({ baseUrl: t.httpUrl, rateLimitRetry: false });
    await noRetry.participants();
    const refused = await noRetry.participants().then(() => null, (err: unknown) => err);
    assert.ok(refused instanceof ParleyError, 'the second request in the window is refused');
    assert.equal(refused.code, 'PARLEY_ERR_RATE_LIMITED');
    assert.equal(refused.status, 429);
    assert.ok(refused.retryAfterMs !== undefined && refused.retryAfterMs > 0 && refused.retryAfterMs <= 5000, `retryAfterMs ${refused.retryAfterMs}`);
    assert.equal(noRetry.rateLimitedRetries, 0);

    const impatient = new ParleyClient({ baseUrl: t.httpUrl, rateLimitRetry: { maxWaitMs: 100 } });
    const started = performance.now();
    await assert.rejects(impatient.participants(), { code: 'PARLEY_ERR_RATE_LIMITED' });
    assert.equal(impatient.rateLimitedRetries, 0, 'a Retry-After over maxWaitMs is not waited for');

    const patient = new ParleyClient({ baseUrl: t.httpUrl });
    const participants = await patient.participants();
    assert.deepEqual(participants, []);
    assert.ok(patient.rateLimitedRetries >= 1, 'it was refused, then retried');
    assert.ok(performance.now() - started >= 900, 'it waited for the window the server named');

    // The stream's upgrade is a request too: refused in this window, opened in the next.
    const retriesBefore = patient.rateLimitedRetries;
    const session = await patient.stream({ sessionId: 'after-429' });
    assert.equal(session.sessionId, 'after-429');
    assert.ok(patient.rateLimitedRetries > retriesBefore, 'the upgrade was refused, then retried');
    session.close();
  });

  test('a baseUrl the client cannot use is a PARLEY_CLIENT_BAD_OPTIONS naming what is wrong, before any request', () => {
    const refused = (baseUrl: string, message: RegExp): void => assert.throws(() => new ParleyClient({ baseUrl }),
      (err: unknown) => err instanceof ParleyError && err.code === 'PARLEY_CLIENT_BAD_OPTIONS' && message.test(err.message));
    refused('', /baseUrl is required/);
    refused('not a url', /is not a URL/);
    refused('localhost:8080', /must start with http:\/\/ or https:\/\/.*did you mean http:\/\/localhost:8080\?/);
    refused('ws://127.0.0.1:8080', /not ws:/);
    refused('http://127.0.0.1:8080/v1/', /ends in \/v1.*use http:\/\/127\.0\.0\.1:8080$/);
    refused('http://127.0.0.1:8080/?key=x', /query or fragment/);
    assert.equal(new ParleyClient({ baseUrl: 'http://127.0.0.1:8080/parley/' }).baseUrl, 'http://127.0.0.1:8080/parley', 'a path prefix (a proxy) is kept');
  });

  test('Retry-After as seconds or an HTTP date', () => {
    assert.equal(parseRetryAfter('3'), 3000);
    assert.equal(parseRetryAfter(new Date(10_000).toUTCString(), 4_000), 6000);
    assert.equal(parseRetryAfter('soon'), undefined);
    assert.equal(parseRetryAfter(null), undefined);
  });
});

describe('@parley/client: mergeParticipant', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ PARLEY_API_KEYS: `${KEY}:acme` });
  });
  after(async () => {
    await t.close();
  });

  test('merges one participant into another by name; a merge into themself is a typed 400', async () => {
    const client = new ParleyClient({ baseUrl: t.httpUrl, apiKey: KEY });
    await client.postUtterances('call-m', [{ speaker: 'Voice 2', text: 'hello' }, { speaker: 'Ana', text: 'hi' }]);
    const ana = await client.participant('Ana');
    const merged = await client.mergeParticipant('Voice 2', 'Ana');
    assert.equal(merged.into.id, ana.id);
    assert.ok(merged.moved_utterances >= 1, 'at least the one Voice 2 spoke');
    assert.deepEqual((await client.participants()).map((p) => p.id), [ana.id]);
    await assert.rejects(client.mergeParticipant('Ana', ana.id), { code: 'PARLEY_ERR_BAD_REQUEST', status: 400 });
  });
});
