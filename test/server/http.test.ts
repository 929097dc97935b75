import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ParleyClient, ParleyError, type UtteranceInput } from '../../clients/typescript/src/index.js';
import { startTestAppWithClient, type TestApp } from '../helpers/app.js';

/** Rejects with a ParleyError of `code` (and `status`) whose message matches. */
async function rejectsWith(promise: Promise<unknown>, code: string, status: number, message?: RegExp): Promise<void> {
  await assert.rejects(promise, (err: unknown) => {
    assert.ok(err instanceof ParleyError, String(err));
    assert.equal(err.code, code);
    assert.equal(err.status, status);
    if (message) assert.match(err.message, message);
    assert.doesNotMatch(err.message, /at .*\.js:\d+/, 'no stack trace');
    return true;
  });
}

describe('HTTP API', () => {
  let t: TestApp;
  let api: ParleyClient;
  before(async () => {
    ({ t, api } = await startTestAppWithClient());
  });
  after(() => t.close());

  test('imports utterances, infers addressees, and serves the transcript', async () => {
    const res = await api.postUtterances('s-http', [
      { speaker: 'Ana', text: 'Ben, I will send you the draft on Friday', start_ms: 0, end_ms: 2100 },
      { speaker: 'Ben', text: 'Great, thanks.', time: '2026-11-02T09:00:00Z' },
      { speaker: 'Ana', text: 'See you all tomorrow', addressees: ['Ben', 'Cy'] },
    ]);
    const ids = res.utterance_ids;
    assert.equal(ids.length, 3);

    const transcript = await api.transcript('s-http');
    const [u1, u2, u3] = ids.map((id) => transcript.utterances.find((u) => u.id === id));
    assert.equal(u1!.speaker.name, 'Ana');
    assert.deepEqual(u1!.addressees.map((a) => a.name), ['Ben'], 'vocative name');
    assert.deepEqual(u2!.addressees.map((a) => a.name), ['Ana'], 'two-party reply');
    assert.equal(u2!.time, '2026-11-02T09:00:00.000Z');
    assert.deepEqual(u3!.addressees.map((a) => a.name).sort(), ['Ben', 'Cy'], 'given addressees');
    assert.equal(u1!.start_ms, 0);
    assert.equal(u1!.end_ms, 2100);
    // Listed in the order said: Ben's reply carries a time before the others' (stored at the time they were stored).
    assert.deepEqual(transcript.utterances.map((u) => u.id), [ids[1], ids[0], ids[2]]);
  });

  test('who said what to whom', async () => {
    const people = await api.participants();
    const ana = people.find((p) => p.name === 'Ana')!;
    const ben = people.find((p) => p.name === 'Ben')!;
    const texts = (await api.interactions({ speaker: ana.id, addressee: ben.id })).map((u) => u.text);
    assert.deepEqual(texts.sort(), ['Ben, I will send you the draft on Friday', 'See you all tomorrow']);
    assert.deepEqual(await api.interactions({ speaker: ben.id, addressee: ben.id }), []);
  });

  test('participants: read, patch, erase everywhere', async () => {
    const people = await api.participants();
    const cy = people.find((p) => p.name === 'Cy')!;
    const patched = await api.updateParticipant(cy.id, { name: 'Cyrus', aliases: ['Cy'], attributes: { role: 'designer' } });
    assert.equal(patched.name, 'Cyrus');
    assert.deepEqual(patched.aliases, ['Cy']);
    assert.equal((await api.participant(cy.id)).attributes.role, 'designer');

    const ana = people.find((p) => p.name === 'Ana')!;
    const erased = await api.eraseParticipant(ana.id);
    assert.equal(erased.erased_utterances, 2);
    await rejectsWith(api.participant(ana.id), 'PARLEY_ERR_NOT_FOUND', 404);
    const transcript = await api.transcript('s-http');
    assert.deepEqual(transcript.utterances.map((u) => u.text), ['Great, thanks.']);
    const hits = await t.app.stores.lexical.search('default', 'draft Friday', 5);
    assert.deepEqual(hits, [], 'erased utterances leave the keyword index too');
  });

  test('bad input gets a clear error and keeps stored data', async () => {
    const before = (await api.transcript('s-http')).utterances.length;
    const cases: [unknown, RegExp][] = [
      [[], /fewer than 1/],
      [[{ speaker: 'A' }], /text/],
      [[{ speaker: 'A', text: 'x', start_ms: 5, end_ms: 1 }], /end_ms is before start_ms/],
      [[{ speaker: 'A', text: 'x', time: 'yesterday' }], /date-time/],
      [[{ speaker: 'A', text: 'x', extra: 1 }], /unknown field "extra"/],
    ];
    for (const [utterances, message] of cases) {
      // Deliberately ill-typed: the server, not the compiler, must refuse these.
      await rejectsWith(api.postUtterances('s-http', utterances as UtteranceInput[]), 'PARLEY_ERR_BAD_REQUEST', 400, message);
    }
    // Not JSON at all: no typed client sends this, so it goes in raw.
    const broken = await t.app.inject({
      method: 'POST', url: '/v1/sessions/s-http/utterances', headers: { 'content-type': 'application/json' }, payload: '{"utter',
    });
    assert.equal(broken.statusCode, 400);
    assert.equal(broken.json().error.code, 'PARLEY_ERR_BAD_REQUEST');
    // A body that is not JSON by its Content-Type: 415 (it was a 400) in the Parley envelope.
    for (const type of ['text/plain', 'text/csv']) {
      const plain = await t.app.inject({
        method: 'POST', url: '/v1/sessions/s-http/utterances', headers: { 'content-type': type }, payload: 'Ana: hello',
      });
      assert.equal(plain.statusCode, 415, type);
      assert.equal(plain.json().error.code, 'PARLEY_ERR_BAD_REQUEST');
      assert.match(plain.json().error.message, /application\/json/);
    }
    await rejectsWith(api.postUtterances('bad id', [{ speaker: 'A', text: 'x' }]), 'PARLEY_ERR_BAD_REQUEST', 400);
    await rejectsWith(api.transcript('nope'), 'PARLEY_ERR_NOT_FOUND', 404);
    await rejectsWith(api.updateParticipant('p_x', { name: 'Z' }), 'PARLEY_ERR_NOT_FOUND', 404);
    const after = (await api.transcript('s-http')).utterances.length;
    assert.equal(after, before);
  });

  test('an unknown route is a Parley 404 too', async () => {
    const res = await fetch(`${t.httpUrl}/v1/nothing`);
    assert.equal(res.status, 404);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'PARLEY_ERR_NOT_FOUND');
  });

  test('ending a session queues end-of-session consolidation', async () => {
    const res = await api.endSession('s-http');
    assert.ok(res.job_id);
    assert.equal(res.session_id, 's-http');
    await rejectsWith(api.endSession('never'), 'PARLEY_ERR_NOT_FOUND', 404);
  });

  test('health, readiness, metrics and OpenAPI', async () => {
    assert.deepEqual(await api.health(), { status: 'ok' });
    const ready = await api.readiness();
    assert.deepEqual(ready.checks, { graph: true, vectors: true, lexical: true, queue: true, memory: true, events: true });
    const metrics = await (await fetch(`${t.httpUrl}/metrics`)).text();
    assert.match(metrics, /parley_utterances_stored_total\{source="http"\} 3/);
    const spec = (await (await fetch(`${t.httpUrl}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    for (const path of ['/v1/sessions/{session_id}/utterances', '/v1/sessions/{session_id}/transcript', '/v1/interactions', '/v1/participants/{id}', '/readyz']) {
      assert.ok(spec.paths[path], `OpenAPI documents ${path}`);
    }
  });
});

describe('HTTP API: finding people', () => {
  let t2: TestApp;
  let api: ParleyClient;
  before(async () => {
    ({ t: t2, api } = await startTestAppWithClient());
  });
  after(() => t2.close());

  test('people are found by name in any case, non-ASCII too, and when named though not in the session', async () => {
    await api.postUtterances('s-names-1', [{ speaker: 'Émile', text: 'Bonjour' }]);
    await api.postUtterances('s-names-2', [
      { speaker: 'Dora', text: 'hi émile, welcome back' },
      { speaker: 'ÉMILE', text: 'Thanks Dora' },
    ]);
    const [u1, u2] = (await api.transcript('s-names-2')).utterances;
    assert.deepEqual(u1!.addressees.map((a) => a.name), ['Émile'], 'named, though not in this session');
    assert.equal(u2!.speaker.name, 'Émile', 'the same person, not a new one');
    const people = await api.participants();
    assert.equal(people.filter((p) => p.name?.toLowerCase() === 'émile').length, 1);
  });
});

describe('HTTP API: transcripts and participants in pages', () => {
  let t: TestApp;
  let api: ParleyClient;
  before(async () => {
    ({ t, api } = await startTestAppWithClient());
  });
  after(() => t.close());

  test('a transcript is read a page at a time, and bad page parameters are refused', async () => {
    await api.postUtterances('s-pages', Array.from({ length: 7 }, (_, i) => ({ speaker: i % 2 ? 'Ben' : 'Ana', text: `line ${i + 1}` })));
    const first = await api.transcript('s-pages', { limit: 3 });
    assert.deepEqual(first.utterances.map((u) => u.text), ['line 1', 'line 2', 'line 3']);
    assert.equal(first.next_after_seq, first.utterances[2]!.seq);
    const second = await api.transcript('s-pages', { limit: 3, after_seq: first.next_after_seq! });
    assert.deepEqual(second.utterances.map((u) => u.text), ['line 4', 'line 5', 'line 6']);
    const last = await api.transcript('s-pages', { limit: 3, after_seq: second.next_after_seq! });
    assert.deepEqual(last.utterances.map((u) => u.text), ['line 7']);
    assert.equal(last.next_after_seq, null, 'the last page says so');
    // Exactly a page's worth left: no empty page after it.
    assert.equal((await api.transcript('s-pages', { limit: 7 })).next_after_seq, null);
    assert.equal((await api.transcript('s-pages')).utterances.length, 7, 'the default page holds a short session');
    assert.deepEqual((await api.transcriptAll('s-pages', 2)).map((u) => u.text), Array.from({ length: 7 }, (_, i) => `line ${i + 1}`));
    for (const query of ['limit=0', 'limit=5001', 'after_seq=-1', 'limit=abc', 'page=2']) {
      const res = await fetch(`${t.httpUrl}/v1/sessions/s-pages/transcript?${query}`);
      assert.equal(res.status, 400, query);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'PARLEY_ERR_BAD_REQUEST', query);
    }
  });

  // A call centre: the caller's turns are stored as heard, the agent's text turn said between them is posted later with
  // its own time. The transcript used to list by seq (the order stored), so the agent's answer came after the caller's
  // next turn.
  test('a transcript lists turns in the order they were said, however late each was posted; pages by cursor or after_seq', async () => {
    await api.postUtterances('s-said', [
      { speaker: 'Cal', text: 'hello, my card was charged twice', time: '2026-11-01T10:00:00Z' },
      { speaker: 'Cal', text: 'yes, on Monday', time: '2026-11-01T10:00:20Z' },
    ]);
    await api.postUtterances('s-said', [
      { speaker: 'Ada', text: 'sorry to hear that, was it this week?', time: '2026-11-01T10:00:10Z' },
      { speaker: 'Ada', text: 'I will refund one', time: '2026-11-01T10:00:20Z' },
    ]);
    const said = ['hello, my card was charged twice', 'sorry to hear that, was it this week?', 'yes, on Monday', 'I will refund one'];
    const whole = await api.transcript('s-said');
    assert.deepEqual(whole.utterances.map((u) => u.text), said);
    assert.deepEqual(whole.utterances.map((u) => u.seq), [1, 3, 2, 4], 'a tie in time keeps the order stored');
    assert.deepEqual((await api.transcriptAll('s-said', 1)).map((u) => u.text), said, 'by cursor, a page of one at a time');
    const bySeq: string[] = [];
    let afterSeq: number | null = 0;
    while (afterSeq !== null) {
      const page: Awaited<ReturnType<ParleyClient['transcript']>> = await api.transcript('s-said', { limit: 1, after_seq: afterSeq });
      bySeq.push(...page.utterances.map((u) => u.text));
      afterSeq = page.next_after_seq;
    }
    assert.deepEqual(bySeq, said, 'by after_seq: after that utterance in the order said, not after that number');
    // The agent is erased between two pages: their turns go; a cursor still goes on, a seq that named one of them cannot.
    const first = await api.transcript('s-said', { limit: 2 });
    assert.equal(first.utterances[1]?.speaker.name, 'Ada');
    await api.eraseParticipant('Ada');
    const rest = await api.transcript('s-said', { cursor: first.next_cursor! });
    assert.deepEqual(rest.utterances.map((u) => u.text), ['yes, on Monday']);
    await rejectsWith(api.transcript('s-said', { after_seq: first.next_after_seq! }), 'PARLEY_ERR_BAD_REQUEST', 400, /after_seq 3: .*no utterance with that seq.*cursor/);
    await rejectsWith(api.transcript('s-said', { cursor: 'bm90IGEgY3Vyc29y' }), 'PARLEY_ERR_BAD_REQUEST', 400, /cursor is not a next_cursor/);
    await rejectsWith(api.transcript('s-said', { cursor: first.next_cursor!, after_seq: 1 }), 'PARLEY_ERR_BAD_REQUEST', 400, /cursor or after_seq, not both/);
  });

  test('participants are listed a page at a time, and a bad cursor is refused', async () => {
    await api.postUtterances('s-people', ['Ana', 'Ben', 'Cy', 'Dee', 'Eve'].map((speaker) => ({ speaker, text: `I am ${speaker}` })));
    const all = await api.participants();
    const names = all.map((p) => p.name);
    for (const n of ['Ana', 'Ben', 'Cy', 'Dee', 'Eve']) assert.ok(names.includes(n), `${n} in ${names.join(', ')}`);
    const first = await api.participantsPage({ limit: 2 });
    assert.equal(first.participants.length, 2);
    assert.ok(first.next_cursor, 'another page follows');
    const paged = [...first.participants];
    let cursor: string | null = first.next_cursor;
    while (cursor !== null) {
      const page: Awaited<ReturnType<typeof api.participantsPage>> = await api.participantsPage({ limit: 2, cursor });
      paged.push(...page.participants);
      cursor = page.next_cursor;
    }
    assert.deepEqual(paged.map((p) => p.id), all.map((p) => p.id), 'pages join up to the whole list, each participant once');
    assert.equal((await api.participantsPage({ limit: all.length })).next_cursor, null, 'no empty page after an exact fit');
    assert.deepEqual((await api.participants(2)).map((p) => p.id), all.map((p) => p.id));
    for (const query of ['cursor=nonsense', `cursor=${Buffer.from('[1,2]').toString('base64url')}`, 'limit=0', 'limit=5001', 'after=x']) {
      const res = await fetch(`${t.httpUrl}/v1/participants?${query}`);
      assert.equal(res.status, 400, query);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'PARLEY_ERR_BAD_REQUEST', query);
    }
  });
});
