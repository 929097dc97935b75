import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { refusedUpgrade } from '../helpers/refused-upgrade.js';
import { TestWsClient } from '../helpers/ws-client.js';

interface Answer { status: number; headers: Headers; body: { error?: { code: string; message: string }; [key: string]: unknown } }

// Rough edges a newcomer met with only the README: errors that did not say what was wrong, a JSON media type
// refused, a wrong method answered as a missing route.
describe('requests a newcomer gets wrong are answered with what is wrong', () => {
  let t: TestApp;
  before(async () => { t = await startTestApp(); });
  after(async () => { await t.close(); });

  const call = async (path: string, init: RequestInit = {}): Promise<Answer> => {
    const res = await fetch(`${t.httpUrl}${path}`, init);
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) as Answer['body'] : {} };
  };
  const json = (method: string, body: unknown, type = 'application/json'): RequestInit => ({
    method, headers: { 'content-type': type }, body: JSON.stringify(body),
  });

  test('an unknown query or body field is named, with the known field it was probably meant to be', async () => {
    const query = await call('/v1/memories?limt=5');
    assert.equal(query.status, 400);
    assert.equal(query.body.error?.code, 'PARLEY_ERR_BAD_REQUEST');
    assert.match(query.body.error?.message ?? '', /unknown field "limt"; did you mean "limit"\?/);
    const body = await call('/v1/query', json('POST', { question: 'who lives in Oslo?', sessionId: 'x' }));
    assert.equal(body.status, 400);
    assert.match(body.body.error?.message ?? '', /body has unknown field "sessionId"; did you mean "session_id"\?/);
    // Nested: the path to the object that holds the unknown field is given too.
    const nested = await call('/v1/sessions/typo/utterances', json('POST', { utterances: [{ speaker: 'Ana', text: 'hi', tiem: 'now' }] }));
    assert.equal(nested.status, 400);
    assert.match(nested.body.error?.message ?? '', /body\/utterances\/0 has unknown field "tiem"; did you mean "time"\?/);
    // Nothing close: the known fields are listed when they are few.
    const far = await call('/v1/participants/Ana', json('PATCH', { favourite_colour: 'blue' }));
    assert.equal(far.status, 400);
    assert.match(far.body.error?.message ?? '', /unknown field "favourite_colour"; known fields: name, external_id, aliases, attributes/);
  });

  test('a value of the wrong type for a field that takes a string or null names the field and the types it takes', async () => {
    const wrong = await call('/v1/participants/Ana', json('PATCH', { name: 5 }));
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.error?.code, 'PARLEY_ERR_BAD_REQUEST');
    assert.equal(wrong.body.error?.message, 'body/name must be a string or null, not an integer');
    const list = await call('/v1/participants/Ana', json('PATCH', { aliases: 'Annie' }));
    assert.equal(list.status, 400);
    assert.doesNotMatch(list.body.error?.message ?? '', /anyOf/);
    // A string of the wrong length keeps its own words: the type was right.
    const long = await call('/v1/participants/Ana', json('PATCH', { name: 'A'.repeat(201) }));
    assert.equal(long.status, 400);
    assert.equal(long.body.error?.message, 'body/name must NOT have more than 200 characters');
    const blank = await call('/v1/participants/Ana', json('PATCH', { name: '  ' }));
    assert.equal(blank.status, 400);
    assert.doesNotMatch(blank.body.error?.message ?? '', /must be null|anyOf/);
  });

  test('/v1/stream: an unknown query parameter (samplerate) fails the upgrade instead of streaming at the default rate', async () => {
    const refused = await refusedUpgrade(`${t.wsUrl}/v1/stream?session_id=typo&samplerate=8000`);
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error.code, 'PARLEY_ERR_BAD_REQUEST');
    assert.match(refused.body.error.message, /unknown field "samplerate"; did you mean "sample_rate"\?/);
  });

  test('offsets into the audio past 1e15 ms are refused over HTTP and the WebSocket, naming the field; nothing is stored', async () => {
    const utterance = (start_ms: number) => ({ utterances: [{ speaker: 'Ana', text: 'a long time from now', start_ms, end_ms: start_ms }] });
    assert.equal((await call('/v1/sessions/far/utterances', json('POST', utterance(1e15)))).status, 201, '1e15 itself is allowed');
    for (const far of [1e15 + 1, 1e300]) {
      const refused = await call('/v1/sessions/far/utterances', json('POST', utterance(far)));
      assert.equal(refused.status, 400);
      assert.match(refused.body.error?.message ?? '', /body\/utterances\/0\/start_ms must be <= 1000000000000000/);
    }
    const ws = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=far`);
    await ws.next('session.started');
    ws.sendJson({ type: 'utterance', speaker: 'Ana', text: 'later still', start_ms: 0, end_ms: 1e300 });
    const err = await ws.nextNew('error');
    assert.equal(err.code, 'PARLEY_ERR_BAD_FRAME');
    assert.match(String(err.message), /utterance: \/end_ms .*1000000000000000/);
    ws.close();
    const transcript = await call('/v1/sessions/far/transcript');
    assert.deepEqual((transcript.body.utterances as { text: string }[]).map((u) => u.text), ['a long time from now']);
  });

  test('an utterance text over 10,000 characters (the documented limit) is refused over HTTP and the WebSocket, naming the field; nothing is stored', async () => {
    const batch = (text: string) => ({ utterances: [{ speaker: 'Ana', text: 'a short one first' }, { speaker: 'Ana', text }] });
    assert.equal((await call('/v1/sessions/long/utterances', json('POST', batch('a'.repeat(10_000))))).status, 201, '10,000 itself is allowed');
    const refused = await call('/v1/sessions/long/utterances', json('POST', batch('a'.repeat(10_001))));
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error?.message, 'body/utterances/1/text must NOT have more than 10000 characters');
    const ws = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=long`);
    await ws.next('session.started');
    ws.sendJson({ type: 'utterance', speaker: 'Ana', text: 'b'.repeat(10_001) });
    const err = await ws.nextNew('error');
    assert.equal(err.code, 'PARLEY_ERR_BAD_FRAME');
    assert.match(String(err.message), /utterance: \/text .*10000/);
    ws.close();
    const transcript = await call('/v1/sessions/long/transcript');
    assert.deepEqual((transcript.body.utterances as { text: string }[]).map((u) => u.text.length), [17, 10_000]);
  });

  test('WebSocket messages refuse a field their schema does not name, naming it; the utterance is not stored', async () => {
    const ws = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=ws-typo`);
    await ws.next('session.started');
    ws.sendJson({ type: 'utterance', speaker: 'Ana', text: 'see you at noon', addresees: ['Ben'] });
    const err = await ws.nextNew('error');
    assert.equal(err.code, 'PARLEY_ERR_BAD_FRAME');
    assert.equal(err.message, 'utterance: /addresees is an unknown field; did you mean "addressees"?');
    ws.sendJson({ type: 'query', id: 'q1', question: 'when?', top_k: 3 });
    assert.equal((await ws.nextNew('error')).message, 'query: /top_k is an unknown field');
    ws.sendJson({ type: 'utterance', speaker: 'Ana', text: 'see you at noon', addressees: ['Ben'] });
    await ws.nextNew('transcript.final');
    ws.close();
    const transcript = await call('/v1/sessions/ws-typo/transcript');
    assert.equal((transcript.body.utterances as unknown[]).length, 1, 'only the well-formed utterance was stored');
  });

  test('a misspelt REQUIRED field is named with the field it was probably meant to be, over the WebSocket and HTTP; nothing is stored', async () => {
    const ws = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=ws-required-typo`);
    await ws.next('session.started');
    const misspelt: [Record<string, unknown>, string][] = [
      [{ type: 'query', id: 'x', questoin: 'hi' }, 'query: /questoin is an unknown field; did you mean "question"?'],
      [{ type: 'utterance', speaker: 'Ana', txet: 'hi' }, 'utterance: /txet is an unknown field; did you mean "text"?'],
      [{ type: 'utterance', speakr: 'Ana', text: 'hi' }, 'utterance: /speakr is an unknown field; did you mean "speaker"?'],
      [{ type: 'participant.identify', externalId: 'crm-1' }, 'participant.identify: /externalId is an unknown field; did you mean "external_id"?'],
      [{ type: 'session.update', sesion: { language: 'en' } }, 'session.update: /sesion is an unknown field; did you mean "session"?'],
    ];
    for (const [message, says] of misspelt) {
      ws.sendJson(message);
      const err = await ws.nextNew('error');
      assert.equal(err.code, 'PARLEY_ERR_BAD_FRAME');
      assert.equal(err.message, says);
    }
    // A missing field with nothing close to it still says it is missing.
    ws.sendJson({ type: 'query', id: 'y' });
    assert.equal((await ws.nextNew('error')).message, 'query: /question Expected required property');
    ws.close();
    const http: [string, string, unknown, RegExp][] = [
      ['/v1/query', 'POST', { questoin: 'hi' }, /^body has unknown field "questoin"; did you mean "question"\?$/],
      ['/v1/sessions/http-required-typo/utterances', 'POST', { utterances: [{ speaker: 'Ana', txet: 'hi' }] }, /^body\/utterances\/0 has unknown field "txet"; did you mean "text"\?$/],
      ['/v1/sessions/http-required-typo/utterances', 'POST', { utterance: [] }, /^body has unknown field "utterance"; did you mean "utterances"\?$/],
    ];
    for (const [path, method, body, says] of http) {
      const refused = await call(path, json(method, body));
      assert.equal(refused.status, 400);
      assert.equal(refused.body.error?.code, 'PARLEY_ERR_BAD_REQUEST');
      assert.match(refused.body.error?.message ?? '', says);
    }
    assert.match((await call('/v1/query', json('POST', {}))).body.error?.message ?? '', /must have required property 'question'/);
    assert.equal(await t.app.stores.graph.getSession('default', 'http-required-typo'), null, 'nothing was stored');
    assert.deepEqual((await call('/v1/sessions/ws-required-typo/transcript')).body.utterances, []);
  });

  test('PATCH of a memory\'s value alone rewrites its text; a text and value that disagree are refused, changing nothing', async () => {
    assert.equal((await call('/v1/sessions/patch-value/utterances', json('POST', { utterances: [{ speaker: 'Cleo', text: 'hello' }] }))).status, 201);
    const cleo = (await t.app.stores.graph.findParticipantsByName('default', 'Cleo'))[0]!;
    const at = new Date().toISOString();
    const [fact] = await t.app.stores.memory.addFacts('default', [{
      content: 'Cleo lives in Oslo', speakerId: cleo.id, subjectId: cleo.id, addresseeIds: [], kind: 'profile', slot: 'lives_in',
      value: 'Oslo', time: at, referIds: [], validFrom: at, supersedes: null, confidence: 0.8, sessionId: 'patch-value', source: 'test',
    }]);
    const moved = await call(`/v1/memories/${fact!.id}`, json('PATCH', { value: 'Bergen' }));
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.equal(moved.body.text, 'Cleo lives in Bergen');
    assert.equal(moved.body.value, 'Bergen');
    const clash = await call(`/v1/memories/${fact!.id}`, json('PATCH', { text: 'Cleo lives in Tromsø', value: 'Stavanger' }));
    assert.equal(clash.status, 400);
    assert.match(clash.body.error?.message ?? '', /the new text does not say the new value "Stavanger"/);
    const kept = (await t.app.stores.memory.getFact('default', fact!.id))!;
    assert.deepEqual([kept.content, kept.value], ['Cleo lives in Bergen', 'Bergen'], 'the refused patch changed nothing');
  });

  test('application/merge-patch+json and other +json types are read as JSON; other types stay a 415', async () => {
    assert.equal((await call('/v1/sessions/merge/utterances', json('POST', { utterances: [{ speaker: 'Ana', text: 'hello' }] }))).status, 201);
    const patched = await call('/v1/participants/Ana', json('PATCH', { attributes: { team: 'blue' } }, 'application/merge-patch+json'));
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.deepEqual((patched.body.attributes as Record<string, unknown>).team, 'blue');
    const vendor = await call('/v1/participants/Ana', json('PATCH', { aliases: ['Annie'] }, 'application/vnd.example+json; charset=utf-8'));
    assert.equal(vendor.status, 200, JSON.stringify(vendor.body));
    const broken = await call('/v1/participants/Ana', { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: '{"attributes":' });
    assert.equal(broken.status, 400);
    assert.equal(broken.body.error?.code, 'PARLEY_ERR_BAD_REQUEST');
    const xml = await call('/v1/participants/Ana', { method: 'PATCH', headers: { 'content-type': 'application/xml' }, body: '<a/>' });
    assert.equal(xml.status, 415);
    const kept = await call('/v1/participants/Ana');
    assert.equal((kept.body.attributes as Record<string, unknown>).team, 'blue', 'a refused patch changed nothing');
  });

  test('an empty JSON body is no body on a route whose body is optional, and still a 400 where a body is required', async () => {
    assert.equal((await call('/v1/sessions/empty-end/utterances', json('POST', { utterances: [{ speaker: 'Ana', text: 'hello' }] }))).status, 201);
    const jsonHeaders = { 'content-type': 'application/json' };
    const end = await call('/v1/sessions/empty-end/end', { method: 'POST', headers: jsonHeaders });
    assert.equal(end.status, 202, JSON.stringify(end.body));
    assert.equal(end.body.session_id, 'empty-end');
    const suffixed = await call('/v1/sessions/empty-end/end', { method: 'POST', headers: { 'content-type': 'application/vnd.example+json' } });
    assert.equal(suffixed.status, 202, JSON.stringify(suffixed.body));
    const required = await call('/v1/sessions/empty-end/utterances', { method: 'POST', headers: jsonHeaders });
    assert.equal(required.status, 400);
    assert.equal(required.body.error?.code, 'PARLEY_ERR_BAD_REQUEST');
    const transcript = await call('/v1/sessions/empty-end/transcript');
    assert.equal((transcript.body.utterances as unknown[]).length, 1, 'the refused request stored nothing');
  });

  test('a known path with a method it does not answer is a 405 with Allow; an unknown path stays a 404', async () => {
    const put = await call('/v1/memories', json('PUT', {}));
    assert.equal(put.status, 405);
    assert.equal(put.body.error?.code, 'PARLEY_ERR_METHOD_NOT_ALLOWED');
    assert.equal(put.headers.get('allow'), 'GET, HEAD');
    const withParam = await call('/v1/memories/m_1', { method: 'POST' });
    assert.equal(withParam.status, 405);
    assert.equal(withParam.headers.get('allow'), 'DELETE, PATCH');
    assert.match(withParam.body.error?.message ?? '', /\/v1\/memories\/m_1 does not answer POST; it answers DELETE, PATCH/);
    const missing = await call('/v1/memoirs');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error?.code, 'PARLEY_ERR_NOT_FOUND');
  });
});

describe('with API keys, an Authorization header of the wrong scheme is named', () => {
  let t: TestApp;
  before(async () => { t = await startTestApp({ PARLEY_API_KEYS: 'key-newcomer-1:acme' }); });
  after(async () => { await t.close(); });

  const refusal = async (authorization: string): Promise<string> => {
    const res = await fetch(`${t.httpUrl}/v1/memories`, { headers: { authorization } });
    assert.equal(res.status, 401);
    const body = await res.json() as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'PARLEY_ERR_UNAUTHORIZED');
    return body.error.message;
  };

  test('Basic (the key as user or password) says to send it as a bearer token; Bearer alone says it holds no key', async () => {
    const basic = Buffer.from('key-newcomer-1:').toString('base64');
    assert.equal(await refusal(`Basic ${basic}`), 'the Authorization header uses the "Basic" scheme: send the API key as Authorization: Bearer <key>');
    assert.equal(await refusal('Bearer'), 'the Authorization header says Bearer but holds no key: send Authorization: Bearer <key>');
    assert.equal(await refusal('Bearer key-wrong'), 'unknown API key');
    const ok = await fetch(`${t.httpUrl}/v1/memories`, { headers: { authorization: 'Bearer key-newcomer-1' } });
    assert.equal(ok.status, 200);
  });
});
