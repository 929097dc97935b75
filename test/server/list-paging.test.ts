import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ParleyClient } from '../../clients/typescript/src/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const TOTAL = 1205;

// GET /v1/memories and GET /v1/interactions stopped at 1,000 items (their most `limit`), with no way to read on.
describe('GET /v1/memories and /v1/interactions page past 1,000 items with cursor / next_cursor', () => {
  let t: TestApp;
  let client: ParleyClient;
  before(async () => {
    // No consolidation: the facts below are the only memories, and the utterances are only read back.
    t = await startTestApp({ PARLEY_RUN_JOBS: 'false' });
    client = new ParleyClient({ baseUrl: t.httpUrl });
    const said = Array.from({ length: TOTAL }, (_, i) => ({ speaker: i % 2 ? 'Ana' : 'Ben', text: `line ${i}` }));
    // Every utterance at one time: the pages must still neither repeat nor skip any (ties go by seq, then id).
    const time = '2026-01-01T10:00:00.000Z';
    await client.postUtterances('paging-a', said.slice(0, 1000).map((u) => ({ ...u, time })));
    await client.postUtterances('paging-b', said.slice(1000).map((u) => ({ ...u, time })));
    const ana = (await t.app.stores.graph.findParticipantsByName('default', 'Ana'))[0]!;
    const base = { addresseeIds: [], kind: 'preference' as const, slot: null, value: null, time, referIds: [], validFrom: time,
      supersedes: null, confidence: 0.8, sessionId: 'paging-a', source: 'test', speakerId: ana.id, subjectId: ana.id };
    await t.app.stores.memory.addFacts('default', Array.from({ length: TOTAL }, (_, i) => ({ ...base, content: `Ana likes thing ${i}` })));
  });
  after(async () => { await t.close(); });

  const get = async (path: string): Promise<{ status: number; body: Record<string, any> }> => {
    const res = await fetch(`${t.httpUrl}${path}`);
    return { status: res.status, body: await res.json() as Record<string, any> };
  };

  /** Every item of `list` read a page of `limit` at a time, and the size of each page. */
  const readAll = async (list: 'memories' | 'interactions', query: string, limit: number): Promise<{ ids: string[]; pages: number[] }> => {
    const ids: string[] = [];
    const pages: number[] = [];
    let cursor: string | null = null;
    do {
      const page = await get(`/v1/${list}?${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      assert.equal(page.status, 200, JSON.stringify(page.body));
      ids.push(...(page.body[list] as { id: string }[]).map((x) => x.id));
      pages.push(page.body[list].length);
      cursor = page.body.next_cursor as string | null;
    } while (cursor && pages.length < 100);
    return { ids, pages };
  };

  test('interactions: two pages of 1,000 then 205, no item twice, the last page\'s next_cursor null', async () => {
    const all = await readAll('interactions', '', 1000);
    assert.deepEqual(all.pages, [1000, 205]);
    assert.equal(new Set(all.ids).size, TOTAL);
    // Filters still apply: Ana said every other line, one page of them.
    assert.deepEqual((await readAll('interactions', 'speaker=Ana', 1000)).pages, [602]);
    const small = await readAll('interactions', 'session_id=paging-b', 50);
    assert.deepEqual(small.pages, [50, 50, 50, 50, 5]);
    assert.equal(new Set(small.ids).size, 205);
  });

  test('memories: the same, and the SDK reads every page', async () => {
    const { ids, pages } = await readAll('memories', 'participant=Ana', 1000);
    assert.deepEqual(pages, [1000, 205]);
    assert.equal(new Set(ids).size, TOTAL);
    assert.equal((await client.allMemories({ participant: 'Ana', limit: 500 })).length, TOTAL);
    assert.equal(new Set((await client.allInteractions({ limit: 400 })).map((u) => u.id)).size, TOTAL);
    const one = await client.memoriesPage({ limit: 10 });
    assert.equal(one.memories.length, 10);
    assert.equal(typeof one.next_cursor, 'string');
  });

  test('a cursor that is not one the listing gave is a 400; a memories cursor does not page interactions', async () => {
    const page = await get('/v1/memories?limit=5');
    const refused = await get(`/v1/interactions?cursor=${encodeURIComponent(page.body.next_cursor as string)}`);
    assert.equal(refused.status, 400);
    assert.match(refused.body.error.message, /cursor is not a next_cursor this API gave for interactions/);
    assert.equal((await get('/v1/memories?cursor=garbage')).status, 400);
  });

  test('with q, a cursor past the search\'s first 10,000 hits ends the listing without asking the search for millions', async () => {
    const lexical = t.app.stores.lexical;
    const asked: number[] = [];
    const search = lexical.search.bind(lexical);
    lexical.search = async (tenant, text, limit, options) => { asked.push(limit); return search(tenant, text, limit, options); };
    try {
      const deep = Buffer.from(JSON.stringify({ l: 'memories', o: 9_999_000 })).toString('base64url');
      const page = await get(`/v1/memories?q=thing&cursor=${deep}`);
      assert.equal(page.status, 200);
      assert.deepEqual(page.body.memories, []);
      assert.equal(page.body.next_cursor, null);
      const first = await get('/v1/memories?q=thing&limit=5');
      assert.equal(first.status, 200);
      assert.ok(asked.every((n) => n <= 10_001), `the search was asked for ${asked.join(', ')} hits`);
      assert.ok(asked.length >= 1, 'the first page still searches');
    } finally {
      lexical.search = search;
    }
  });
});
