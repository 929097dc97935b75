import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { pino } from 'pino';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { tempDir } from '../helpers/temp-dir.js';
import { TestWsClient } from '../helpers/ws-client.js';

interface ParticipantJson { id: string; name: string | null; external_id: string | null }

describe('participants carry the application\'s own ids (external_id); lookups take an id, an external id or a name', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(async () => {
    await t.close();
  });

  const post = (url: string, payload: unknown) => t.app.inject({ method: 'POST', url, payload: payload as object });
  const patch = (ref: string, payload: unknown) => t.app.inject({ method: 'PATCH', url: `/v1/participants/${encodeURIComponent(ref)}`, payload: payload as object });
  const get = (url: string) => t.app.inject({ url });
  const people = async (): Promise<ParticipantJson[]> => (await get('/v1/participants')).json().participants as ParticipantJson[];

  test('PATCH sets external_id; GET/PATCH/DELETE and filters accept it or a name; unknown is a 404', async () => {
    const res = await post('/v1/sessions/ext-1/utterances', {
      utterances: [
        { speaker: 'Ana', text: 'Ben, I will send you the draft on Friday' },
        { speaker: 'Ben', text: 'Thanks Ana, I love sushi.' },
      ],
    });
    assert.equal(res.statusCode, 201, res.body);
    await drainConsolidation(t.app.stores.queue, 60_000);
    const ana = (await people()).find((p) => p.name === 'Ana')!;
    assert.equal(ana.external_id, null, 'the field is there, null until given');

    const set = await patch(ana.id, { external_id: 'crm:4711' });
    assert.equal(set.statusCode, 200, set.body);
    assert.equal(set.json().external_id, 'crm:4711');

    for (const ref of [ana.id, 'crm:4711', 'Ana', 'ana']) {
      const one = await get(`/v1/participants/${encodeURIComponent(ref)}`);
      assert.equal(one.statusCode, 200, `${ref}: ${one.body}`);
      assert.equal(one.json().id, ana.id, ref);
    }
    // Filters: a name or an external id gives what the id gives (today a name silently gave []).
    const byId = (await get(`/v1/interactions?speaker=${ana.id}`)).json().interactions;
    assert.equal(byId.length, 1);
    for (const ref of ['Ana', 'crm:4711']) {
      const r = await get(`/v1/interactions?speaker=${encodeURIComponent(ref)}`);
      assert.equal(r.statusCode, 200, r.body);
      assert.deepEqual(r.json().interactions, byId, ref);
    }
    const toAna = await get('/v1/interactions?addressee=crm%3A4711');
    assert.deepEqual(toAna.json().interactions.map((u: { text: string }) => u.text), ['Thanks Ana, I love sushi.']);
    const benMemories = (await get('/v1/memories?participant=Ben')).json().memories as { text: string }[];
    assert.ok(benMemories.some((m) => /sushi/.test(m.text)), JSON.stringify(benMemories));
    const q = await post('/v1/query', { question: 'what does Ben love?', speaker: 'Ben', asker: 'crm:4711' });
    assert.equal(q.statusCode, 200, q.body);
    assert.equal(q.json().asker.id, ana.id);
    assert.ok(q.json().evidence.every((e: { speaker: { name: string } | null }) => e.speaker?.name === 'Ben'));

    for (const url of ['/v1/participants/nobody-at-all', '/v1/interactions?speaker=nobody-at-all', '/v1/memories?participant=nobody-at-all']) {
      const r = await get(url);
      assert.equal(r.statusCode, 404, url);
      assert.match(r.json().error.message, /no (participant|speaker) with id, external_id or name "nobody-at-all"/);
    }
    const qr = await post('/v1/query', { question: 'anything?', addressee: 'nobody-at-all' });
    assert.equal(qr.statusCode, 404);
  });

  test('external_id is unique per tenant (409) and can be cleared', async () => {
    const ben = (await people()).find((p) => p.name === 'Ben')!;
    const taken = await patch(ben.id, { external_id: 'crm:4711' });
    assert.equal(taken.statusCode, 409);
    assert.equal(taken.json().error.code, 'PARLEY_ERR_CONFLICT');
    assert.match(taken.json().error.message, /external_id "crm:4711" already belongs to participant p_/);
    assert.equal((await patch('Ben', { external_id: '+15550100' })).json().external_id, '+15550100');
    assert.equal((await patch('+15550100', { external_id: null })).json().external_id, null);
    assert.equal((await get('/v1/participants/%2B15550100')).statusCode, 404);
  });

  test('a name several participants hold is a 409 listing them, never merged: ingest and lookups refuse it', async () => {
    // Two callers both named "Sam", told apart by their external ids.
    const a = await post('/v1/sessions/ext-2/utterances', { utterances: [{ speaker: 'Sam', text: 'hello there' }] });
    assert.equal(a.statusCode, 201, a.body);
    const sam1 = (await people()).find((p) => p.name === 'Sam')!;
    await patch(sam1.id, { external_id: '+15550001' });
    const other = await t.app.stores.graph.createParticipant('default', { name: 'Sam', externalId: '+15550002' });

    const ambiguous = await get('/v1/participants/Sam');
    assert.equal(ambiguous.statusCode, 409);
    const msg = ambiguous.json().error.message as string;
    assert.match(msg, /"Sam" names 2 participants/);
    assert.ok(msg.includes(sam1.id) && msg.includes(other.id) && msg.includes('+15550002'), msg);
    assert.equal((await get('/v1/interactions?speaker=Sam')).statusCode, 409);

    // A new utterance labelled "Sam" is not attached to either Sam by the label alone.
    const said = await post('/v1/sessions/ext-3/utterances', { utterances: [{ speaker: 'Sam', text: 'it is me again' }] });
    assert.equal(said.statusCode, 409, said.body);
    assert.match(said.json().error.message, /send a participant id or external_id/);
    // By external id it is unambiguous.
    const byExt = await post('/v1/sessions/ext-3/utterances', { utterances: [{ speaker: '+15550002', text: 'it is me again' }] });
    assert.equal(byExt.statusCode, 201, byExt.body);
    const [u] = (await get('/v1/sessions/ext-3/transcript')).json().utterances;
    assert.equal(u.speaker.id, other.id);

    // The store never merges two participants with different external ids.
    await assert.rejects(t.app.stores.graph.mergeParticipants('default', other.id, sam1.id), /hold different external ids/);
  });

  test('participant.identify on /v1/stream, and ?external_id= on the upgrade', async () => {
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=ext-ws`);
    await c.next('session.started');
    c.sendJson({ type: 'utterance', speaker: 'Dora', text: 'good morning' });
    await c.next('transcript.final');
    c.sendJson({ type: 'participant.identify', external_id: 'crm:dora' });
    const identified = await c.next('participant.identified');
    const who = identified.participant as ParticipantJson;
    assert.equal(who.name, 'Dora');
    assert.equal(who.external_id, 'crm:dora');
    c.sendJson({ type: 'participant.identify', participant: 'Ana', external_id: 'crm:dora' });
    const err = await c.next('error');
    assert.equal(err.code, 'PARLEY_ERR_CONFLICT');
    c.sendJson({ type: 'session.end' });
    await c.next('session.ended');
    c.close();

    // Given on the upgrade, the session's first speaker takes it.
    const d = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=ext-ws2&external_id=${encodeURIComponent('+15550999')}`);
    await d.next('session.started');
    d.sendJson({ type: 'utterance', speaker: 'Eli', text: 'hi, it is Eli' });
    const final = await d.next('transcript.final');
    d.sendJson({ type: 'session.end' });
    await d.next('session.ended');
    d.close();
    const eli = (await get('/v1/participants/%2B15550999')).json() as ParticipantJson;
    assert.equal(eli.id, (final.speaker as ParticipantJson).id);
    assert.equal(eli.name, 'Eli');
  });
});

describe('a database written before external_id existed', () => {
  test('opens, keeps its participants, and takes external ids', async () => {
    const tmp = tempDir('parley-old-db-');
    try {
      const db = new Database(path.join(tmp.dir, 'parley.db'));
      // The participants table as the first release created it.
      db.exec(`CREATE TABLE participants (
        tenant TEXT NOT NULL, id TEXT NOT NULL, name TEXT, aliases TEXT NOT NULL DEFAULT '[]',
        attributes TEXT NOT NULL DEFAULT '{}', voiceprint_count INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL, updated_at TEXT NOT NULL, PRIMARY KEY (tenant, id));
        INSERT INTO participants (tenant, id, name, created_at, updated_at)
          VALUES ('default', 'p_old1', 'Olga', '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z'),
                 ('default', 'p_old2', 'Olga', '2025-01-02T00:00:00Z', '2025-01-02T00:00:00Z');`);
      db.close();
      const config = loadConfig({ DATA_DIR: tmp.dir, PORT: '0', LOG_LEVEL: 'silent' });
      const app = await buildApp(config, { logger: pino({ level: 'silent' }) });
      try {
        const list = (await app.inject({ url: '/v1/participants' })).json().participants as ParticipantJson[];
        assert.deepEqual(list.map((p) => [p.id, p.name, p.external_id]), [['p_old1', 'Olga', null], ['p_old2', 'Olga', null]]);
        const set = await app.inject({ method: 'PATCH', url: '/v1/participants/p_old2', payload: { external_id: 'crm:olga-2' } });
        assert.equal(set.statusCode, 200, set.body);
        assert.equal((await app.inject({ url: '/v1/participants/crm:olga-2' })).json().id, 'p_old2');
        const dup = await app.inject({ method: 'PATCH', url: '/v1/participants/p_old1', payload: { external_id: 'crm:olga-2' } });
        assert.equal(dup.statusCode, 409);
      } finally {
        await app.close();
      }
      // Opening it again (migration already applied) works too.
      const again = await buildApp(config, { logger: pino({ level: 'silent' }) });
      try {
        assert.equal((await again.inject({ url: '/v1/participants/crm:olga-2' })).json().id, 'p_old2');
      } finally {
        await again.close();
      }
    } finally {
      tmp.remove();
    }
  });
});
