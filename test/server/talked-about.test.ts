import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { NEO4J_SKIP, neo4jGraphEnv } from '../helpers/stores.js';
import { tenantApp } from '../helpers/tenant-app.js';

interface MemoryJson { id: string; text: string; subject_id: string }

/** Facts holding ordinary words, capitalised too ("The", "May", "Will" as a sentence starts): none is a person's name. */
const ORDINARY_FACTS = ['Ana likes green tea', 'The dog of Ana sleeps all day', 'Ana will visit Porto in May', 'Will Ana call Ben'];

/**
 * `GET /v1/memories?participant=Cara` (and the MCP tool `get_participant`) for a person others talk about who never spoke:
 * the facts naming her, as their subject; a name no participant holds and no memory names stays a 404.
 */
function talkedAbout(label: string, env: Record<string, string>, skip?: string): void {
  describe(`memories of someone talked about but never a speaker (${label})`, { skip }, () => {
    const api = tenantApp('talked', env);
    const { send } = api;
    const memories = async (query: string): Promise<MemoryJson[]> => {
      const res = await send('GET', `/v1/memories?${query}`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().memories as MemoryJson[];
    };
    const texts = (ms: MemoryJson[]): string[] => ms.map((m) => m.text).sort();

    test('set-up: Ana and Ben talk about Cara', async () => {
      const res = await send('POST', '/v1/sessions/ta-1/utterances', {
        utterances: [
          { speaker: 'Ana', addressees: ['Ben'], text: 'Cara lent me her bike last week.' },
          { speaker: 'Ben', addressees: ['Ana'], text: 'Cara is moving to Lisbon in May.' },
          { speaker: 'Ana', addressees: ['Ben'], text: 'I love sushi.' },
        ],
      });
      assert.equal(res.statusCode, 201, res.body);
      await drainConsolidation(api.t.app.stores.queue, 120_000);
      const ana = (await api.t.app.stores.graph.findParticipantsByName(api.tenant, 'Ana'))[0]!;
      const at = new Date().toISOString();
      await api.t.app.stores.memory.addFacts(api.tenant, ORDINARY_FACTS.map((content) => ({
        content, speakerId: ana.id, subjectId: ana.id, addresseeIds: [], kind: 'statement' as const, slot: null, value: null,
        time: at, referIds: [], validFrom: at, supersedes: null, confidence: 0.9, sessionId: 'ta-1', source: 'test',
      })));
    });

    test('an ordinary word, whatever its case, is no name even where facts hold it: a 404, as is a mistyped name that is a word', async () => {
      for (const word of ['tea', 'TEA', 'Tea', 'likes', 'the', 'The', 'may', 'May', 'will', 'Will']) {
        const res = await send('GET', `/v1/memories?participant=${word}`);
        assert.equal(res.statusCode, 404, `${word}: ${res.body}`);
        assert.equal(res.json().error.code, 'PARLEY_ERR_NOT_FOUND');
      }
      const all = texts(await memories('layer=fact&limit=100'));
      for (const text of ORDINARY_FACTS) assert.ok(all.includes(text), `the facts holding the words are stored: ${text}`);
    });

    test('a talked-about name is found in any case: Cara, cara, CARA', async () => {
      const cara = texts(await memories('participant=Cara'));
      assert.equal(cara.length, 2, JSON.stringify(cara));
      assert.deepEqual(texts(await memories('participant=cara')), cara);
      assert.deepEqual(texts(await memories('participant=CARA')), cara);
      assert.deepEqual(texts(await memories('participant=%20cArA%20')), cara);
    });

    test('a name only memories hold gives the facts naming it, by any case, as their subject; none as speaker or addressee', async () => {
      const cara = await memories('participant=Cara');
      assert.equal(cara.length, 2, JSON.stringify(cara));
      assert.ok(cara.every((m) => /\bCara\b/.test(m.text)), JSON.stringify(cara));
      assert.deepEqual(texts(await memories('participant=cara')), texts(cara), 'a name is matched whatever its case, as a participant name is');
      assert.deepEqual(texts(await memories('participant=Cara&role=subject')), texts(cara));
      assert.deepEqual(await memories('participant=Cara&role=speaker'), [], 'Cara never said anything');
      assert.deepEqual(await memories('participant=Cara&role=addressee'), [], 'nothing was said to Cara');
      const bike = await memories('participant=Cara&q=bike');
      assert.deepEqual(texts(bike), texts(cara.filter((m) => /bike/.test(m.text))), 'a search keeps only her facts');
      assert.deepEqual(await memories('participant=Cara&q=sushi'), [], 'a fact not naming her is not hers');
    });

    test('her facts page like any listing', async () => {
      const first = await send('GET', '/v1/memories?participant=Cara&limit=1');
      assert.equal(first.statusCode, 200, first.body);
      const { memories: one, next_cursor: cursor } = first.json() as { memories: MemoryJson[]; next_cursor: string | null };
      assert.equal(one.length, 1);
      assert.ok(cursor, 'a second page follows');
      const second = await memories(`participant=Cara&limit=1&cursor=${encodeURIComponent(cursor)}`);
      assert.equal(second.length, 1);
      assert.notEqual(second[0]!.id, one[0]!.id);
    });

    test('a name nobody holds and no memory names, or an id no one holds, is a 404 saying so', async () => {
      const zed = await send('GET', '/v1/memories?participant=Zed');
      assert.equal(zed.statusCode, 404, zed.body);
      assert.equal(zed.json().error.code, 'PARLEY_ERR_NOT_FOUND');
      assert.equal(zed.json().error.message, 'no participant with id, external_id or name "Zed", and no memory names it');
      const stale = await send('GET', '/v1/memories?participant=p_0123456789abcdef');
      assert.equal(stale.statusCode, 404, stale.body);
      assert.equal((await send('GET', '/v1/participants/Cara')).statusCode, 404, 'Cara is still no participant');
    });

    test('MCP get_participant with talked_about gives participant null, talked_about and the facts naming her; without it, or for an unknown name, PARLEY_ERR_NOT_FOUND', async () => {
      const client = new Client({ name: 'parley-test', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${api.t.httpUrl}/mcp`), { requestInit: { headers: api.headers } }));
      try {
        const plain = (await client.callTool({ name: 'get_participant', arguments: { id: 'Cara' } })) as CallToolResult;
        assert.equal(plain.isError, true, 'without talked_about a name no participant holds is not found, as it always was');
        assert.match(JSON.stringify(plain.content), /PARLEY_ERR_NOT_FOUND/);
        const ana = (await client.callTool({ name: 'get_participant', arguments: { id: 'Ana', talked_about: true } })) as CallToolResult;
        assert.ok(!ana.isError, JSON.stringify(ana.content));
        assert.equal((ana.structuredContent as { participant: { name: string } }).participant.name, 'Ana');
        assert.ok(!('talked_about' in ana.structuredContent!), 'a participant\'s result has no talked_about');
        const res = (await client.callTool({ name: 'get_participant', arguments: { id: 'Cara', talked_about: true } })) as CallToolResult;
        assert.ok(!res.isError, JSON.stringify(res.content));
        const detail = res.structuredContent as {
          participant: unknown; talked_about: { names: string[] }; facts: MemoryJson[]; profile: MemoryJson[]; persona: unknown[];
        };
        assert.equal(detail.participant, null);
        assert.deepEqual(detail.talked_about, { names: ['Cara'] });
        assert.deepEqual(texts(detail.facts), texts(await memories('participant=Cara&layer=fact')));
        assert.deepEqual(detail.persona, []);
        const unknown = (await client.callTool({ name: 'get_participant', arguments: { id: 'Zed', talked_about: true } })) as CallToolResult;
        assert.equal(unknown.isError, true);
        assert.match(JSON.stringify(unknown.content), /PARLEY_ERR_NOT_FOUND/);
      } finally {
        await client.close();
      }
    });

    test('with her facts deleted, a name the entity index still knows gives an empty page, not a 404', async () => {
      const known = await api.t.app.stores.entities.findByNames(api.tenant, ['Cara']);
      assert.equal(known.length, 1, 'the entity index knows Cara from the turns naming her');
      for (const m of await memories('participant=Cara')) assert.equal((await send('DELETE', `/v1/memories/${m.id}`)).statusCode, 200);
      assert.deepEqual(await memories('participant=Cara&include_history=true'), []);
    });
  });
}

talkedAbout('embedded SQLite', {});
talkedAbout('Neo4j', neo4jGraphEnv(), NEO4J_SKIP);
