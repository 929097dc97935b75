import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ParleyClient } from '../../clients/typescript/src/index.js';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { mcpOriginAllowed } from '../../server/mcp/origin.js';
import { appForSuite, startTestApp, type TestApp } from '../helpers/app.js';
import { tempDir } from '../helpers/temp-dir.js';

/** The compiled stdio entry point (tests run from dist/test/…). */
const STDIO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../server/mcp/stdio.js');

interface Item { layer: string; text: string; refer_ids: string[]; speaker: { id: string; name: string | null } | null }

/** A tool's JSON result; fails the test when the call is a tool error. */
async function call<T = Record<string, unknown>>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const res = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = res.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
  assert.ok(!res.isError, `${name} failed: ${text}`);
  assert.deepEqual(JSON.parse(text), res.structuredContent, 'text and structured content agree');
  return JSON.parse(text) as T;
}

/** A tool's Parley error code and message; fails the test when the call succeeded. */
async function callError(client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ code: string; message: string }> {
  const res = (await client.callTool({ name, arguments: args })) as CallToolResult;
  assert.equal(res.isError, true, `${name} should fail`);
  const text = res.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
  return (JSON.parse(text) as { error: { code: string; message: string } }).error;
}

const ANA = [
  { speaker: 'Ana', addressees: ['Ben'], text: "Hi Ben, I'm Ana. I live in Porto and I keep bees." },
  { speaker: 'Ben', addressees: ['Ana'], text: 'Nice to meet you Ana, I love sushi.' },
];

const READ_TOOLS = ['add_utterances', 'get_participant', 'get_transcript', 'list_participants', 'query_memory'];

describe('MCP over stdio (npm run mcp): the SDK client drives a spawned server on a temp DATA_DIR', () => {
  const tmp = tempDir('parley-mcp-stdio-');
  const clients: Client[] = [];
  const stderr: string[] = [];
  const protocolErrors: Error[] = [];
  after(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    tmp.remove();
  });

  const connect = async (env: Record<string, string>): Promise<Client> => {
    const transport = new StdioClientTransport({
      command: process.execPath, args: [STDIO], stderr: 'pipe',
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: tmp.dir, LOG_LEVEL: 'info', PARLEY_MCP_TENANT: 'acme', ...env },
    });
    transport.stderr?.on('data', (d: Buffer) => stderr.push(d.toString()));
    const client = new Client({ name: 'parley-test', version: '1' });
    client.onerror = (err) => protocolErrors.push(err);
    await client.connect(transport);
    clients.push(client);
    return client;
  };

  test('tools, add (idempotent), query (the fact and its turn), transcript, participant facts; erase refused without the flag', async () => {
    const client = await connect({});
    assert.equal(client.getServerVersion()?.name, 'parley');
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), READ_TOOLS, 'erase_participant is not listed without the flag');
    const add = tools.find((t) => t.name === 'add_utterances')!;
    assert.deepEqual(add.inputSchema.required?.slice().sort(), ['session_id', 'utterances']);

    const first = await call<{ utterance_ids: string[] }>(client, 'add_utterances', { session_id: 'call-1', utterances: ANA, idempotency_key: 'batch-1' });
    assert.equal(first.utterance_ids.length, 2);
    const again = await call<{ utterance_ids: string[] }>(client, 'add_utterances', { session_id: 'call-1', utterances: ANA, idempotency_key: 'batch-1' });
    assert.deepEqual(again.utterance_ids, first.utterance_ids, 'the same idempotency key stores nothing twice');

    const transcript = await call<{ utterances: { text: string; speaker: { name: string } }[] }>(client, 'get_transcript', { session_id: 'call-1' });
    assert.deepEqual(transcript.utterances.map((u) => u.speaker.name), ['Ana', 'Ben']);

    // Consolidation runs in the MCP process (in-process queue): wait until the fact is there.
    let evidence: Item[] = [];
    for (let i = 0; i < 600; i++) {
      evidence = (await call<{ evidence: Item[] }>(client, 'query_memory', { question: 'Where does Ana live?', k: 10 })).evidence;
      if (evidence.some((e) => e.layer !== 'interaction' && /Porto/.test(e.text))) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.ok(evidence.some((e) => e.layer !== 'interaction' && /Porto/.test(e.text)), `a fact about Porto: ${JSON.stringify(evidence)}`);
    const porto = evidence.find((e) => e.layer !== 'interaction' && /Porto/.test(e.text))!;
    assert.deepEqual(porto.refer_ids, [first.utterance_ids[0]], 'the fact names the turn it came from');
    assert.equal(porto.speaker?.name, 'Ana');

    const { participants, next_cursor } = await call<{ participants: { id: string; name: string }[]; next_cursor: string | null }>(client, 'list_participants');
    const ana = participants.find((p) => p.name === 'Ana');
    assert.ok(ana, JSON.stringify(participants));
    assert.equal(next_cursor, null, 'one page holds them all');
    const one = await call<{ participants: { id: string }[]; next_cursor: string | null }>(client, 'list_participants', { limit: 1 });
    assert.equal(one.participants.length, 1);
    const rest = await call<{ participants: { id: string }[] }>(client, 'list_participants', { limit: 1000, cursor: one.next_cursor });
    assert.deepEqual([...one.participants, ...rest.participants].map((p) => p.id), participants.map((p) => p.id));
    const detail = await call<{ participant: { id: string }; facts: Item[]; profile: Item[]; persona: unknown[] }>(client, 'get_participant', { id: ana.id });
    assert.equal(detail.participant.id, ana.id);
    assert.ok([...detail.facts, ...detail.profile].some((f) => /Porto/.test(f.text)), JSON.stringify(detail));
    const byName = await call<{ participant: { id: string } }>(client, 'get_participant', { id: 'ana' });
    assert.equal(byName.participant.id, ana.id, 'a name resolves as in GET /v1/participants/{id}');
    assert.equal((await callError(client, 'get_participant', { id: 'Nobody' })).code, 'PARLEY_ERR_NOT_FOUND');
    // Blank references and questions are refused as on HTTP, saying so.
    for (const [tool, args, path] of [['get_participant', { id: ' ' }, '/id'], ['query_memory', { question: '  ' }, '/question']] as const) {
      const blank = await callError(client, tool, args);
      assert.equal(blank.code, 'PARLEY_ERR_BAD_REQUEST', tool);
      assert.equal(blank.message, `invalid arguments: ${path}: must not be blank (empty or only whitespace)`);
    }
    // One message per field, the most useful: a misspelt field is named with what it meant, not also as missing
    // and of the wrong type; a missing field is "required", not also "Expected string".
    const typo = await callError(client, 'query_memory', { questoin: 'where does Ana live?' });
    assert.equal(typo.message, 'invalid arguments: /questoin: is an unknown field; did you mean "question"?');
    assert.equal((await callError(client, 'get_participant', {})).message, 'invalid arguments: /id: Expected required property');

    const bad = await callError(client, 'add_utterances', { session_id: 'call-1', utterances: [{ speaker: 'Ana', text: '' }] });
    assert.equal(bad.code, 'PARLEY_ERR_BAD_REQUEST');
    assert.match(bad.message, /utterances\/0\/text/);
    const order = await callError(client, 'add_utterances', { session_id: 'call-1', utterances: [{ speaker: 'Ana', text: 'x', start_ms: 5, end_ms: 1 }] });
    assert.equal(order.code, 'PARLEY_ERR_BAD_REQUEST', 'the route\'s own checks apply too');
    const far = await callError(client, 'add_utterances', { session_id: 'call-1', utterances: [{ speaker: 'Ana', text: 'x', start_ms: 1e300 }] });
    assert.equal(far.code, 'PARLEY_ERR_BAD_REQUEST', 'an offset past 1e15 ms is refused, as on HTTP and the WebSocket');
    assert.match(far.message, /utterances\/0\/start_ms: .*1000000000000000/);
    assert.equal((await callError(client, 'get_transcript', { session_id: 'nope' })).code, 'PARLEY_ERR_NOT_FOUND');
    const refused = await callError(client, 'erase_participant', { id: ana.id });
    assert.equal(refused.code, 'PARLEY_ERR_FORBIDDEN');
    assert.match(refused.message, /PARLEY_MCP_ALLOW_ERASE=true/);
    assert.ok((await call<{ participants: unknown[] }>(client, 'list_participants')).participants.length >= 2, 'nobody was erased');
    await client.close();
    assert.deepEqual(protocolErrors, [], 'stdout carried only protocol messages');
    assert.match(stderr.join(''), /parley mcp serving on stdio/, 'logs go to stderr');
  });

  test('with PARLEY_MCP_ALLOW_ERASE=true, erase_participant is listed and erases the person (same DATA_DIR, new process)', async () => {
    const client = await connect({ PARLEY_MCP_ALLOW_ERASE: 'true' });
    const { tools } = await client.listTools();
    const erase = tools.find((t) => t.name === 'erase_participant');
    assert.ok(erase, 'listed with the flag');
    assert.equal(erase.annotations?.destructiveHint, true);
    const { participants } = await call<{ participants: { id: string; name: string }[] }>(client, 'list_participants');
    const ana = participants.find((p) => p.name === 'Ana');
    assert.ok(ana, 'memory persisted in DATA_DIR');
    const erased = await call<{ erased_utterances: number; erased_memories: number }>(client, 'erase_participant', { id: ana.id });
    assert.equal(erased.erased_utterances, 1);
    assert.ok(erased.erased_memories >= 1);
    assert.equal((await callError(client, 'get_participant', { id: ana.id })).code, 'PARLEY_ERR_NOT_FOUND');
    const transcript = await call<{ utterances: { text: string }[] }>(client, 'get_transcript', { session_id: 'call-1' });
    assert.ok(transcript.utterances.every((u) => !/Porto/.test(u.text)));
    // The forgetting tools come with the same flag.
    for (const name of ['forget_utterance', 'forget_session']) assert.equal(tools.find((t) => t.name === name)?.annotations?.destructiveHint, true, name);
    const added = await call<{ utterance_ids: string[] }>(client, 'add_utterances', { session_id: 'call-forget', utterances: [{ speaker: 'Ben', text: 'Forget that I said this.' }] });
    assert.equal((await call<{ erased_utterances: number }>(client, 'forget_utterance', { id: added.utterance_ids[0] })).erased_utterances, 1);
    assert.equal((await callError(client, 'forget_utterance', { id: added.utterance_ids[0] })).code, 'PARLEY_ERR_NOT_FOUND');
    assert.equal((await call<{ erased_utterances: number }>(client, 'forget_session', { session_id: 'call-forget' })).erased_utterances, 0, 'the session record goes');
    assert.equal((await callError(client, 'forget_session', { session_id: 'call-forget' })).code, 'PARLEY_ERR_NOT_FOUND');
    await client.close();
    assert.deepEqual(protocolErrors, []);
  });
});

describe('MCP over stdio: a client that pipes its calls and closes stdin at once', () => {
  const tmp = tempDir('parley-mcp-pipe-');
  after(() => tmp.remove());

  test('gets every reply before the server shuts down', async () => {
    const child = spawn(process.execPath, [STDIO], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: tmp.dir, LOG_LEVEL: 'info' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const lines: string[] = [];
    createInterface({ input: child.stdout }).on('line', (line) => lines.push(line));
    const stderr: string[] = [];
    child.stderr.on('data', (d: Buffer) => stderr.push(d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const messages = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'query_memory', arguments: { question: 'Where does Ana live?' } } },
      { jsonrpc: '2.0', id: 3, method: 'tools/list' },
    ];
    // Between the calls, a line that is not JSON and one that is JSON but no JSON-RPC message: each gets its
    // JSON-RPC error (id null), and the calls after them are still answered.
    const sent = messages.map((m) => JSON.stringify(m));
    sent.splice(2, 0, '{"jsonrpc": "2.0", "id": 9, "method": ', '{"hello": "world"}');
    child.stdin.end(sent.join('\n') + '\n');
    assert.equal(await exited, 0, stderr.join(''));
    const replies = lines.map((l) => JSON.parse(l) as { id?: number | null; result?: { isError?: boolean }; error?: { code: number; message: string } });
    const unreadable = replies.filter((r) => r.id === null);
    assert.deepEqual(unreadable.map((r) => r.error?.code), [-32700, -32600], lines.join('\n'));
    assert.match(unreadable[0]!.error!.message, /^Parse error/);
    assert.deepEqual(replies.filter((r) => r.id !== null).map((r) => r.id).sort(), [1, 2, 3], lines.join('\n'));
    assert.notEqual(replies.find((r) => r.id === 2)?.result?.isError, true, 'query_memory answered without an error');
    assert.match(stderr.join(''), /stdin closed/);
  });
});

describe('MCP over streamable HTTP at /mcp: API-key auth and tenant scoping', () => {
  let t: TestApp;
  const KEYS = 'mcp-key-acme-1:acme,mcp-key-other-1:other';
  before(async () => {
    t = await startTestApp({ PARLEY_API_KEYS: KEYS });
  });
  after(async () => {
    await t.close();
  });

  const connect = async (key: string | null, origin?: string): Promise<Client> => {
    const transport = new StreamableHTTPClientTransport(new URL(`${t.httpUrl}/mcp`), {
      requestInit: { headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(origin ? { origin } : {}) } },
    });
    const client = new Client({ name: 'parley-test', version: '1' });
    await client.connect(transport);
    return client;
  };

  /**
   * One `tools/list` POST, raw: /mcp is the MCP transport, not an operation of /openapi.json, so the
   * SDK has no method for it, and a refusal (401, 403) comes before any MCP message is read.
   */
  const rawMcpPost = (headers: Record<string, string>): Promise<Response> => fetch(`${t.httpUrl}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });

  test('list, add, query, transcript in the key\'s tenant; another tenant sees nothing; erase refused', async () => {
    const acme = await connect('mcp-key-acme-1');
    try {
      const { tools } = await acme.listTools();
      assert.deepEqual(tools.map((x) => x.name).sort(), READ_TOOLS);
      const added = await call<{ utterance_ids: string[] }>(acme, 'add_utterances', { session_id: 'web-1', utterances: ANA });
      assert.equal(added.utterance_ids.length, 2);
      await drainConsolidation(t.app.stores.queue, 120_000);
      const { evidence } = await call<{ evidence: Item[] }>(acme, 'query_memory', { question: 'Where does Ana live?', k: 10 });
      assert.ok(evidence.some((e) => e.layer !== 'interaction' && /Porto/.test(e.text)), JSON.stringify(evidence));
      assert.deepEqual(evidence.find((e) => /Porto/.test(e.text))?.refer_ids, [added.utterance_ids[0]], 'the fact names the turn it came from');
      const transcript = await call<{ utterances: { id: string }[] }>(acme, 'get_transcript', { session_id: 'web-1' });
      assert.deepEqual(transcript.utterances.map((u) => u.id), added.utterance_ids);
      const http = await new ParleyClient({ baseUrl: t.httpUrl, apiKey: 'mcp-key-acme-1' }).transcript('web-1');
      assert.deepEqual(http.utterances.map((u) => u.id), added.utterance_ids, 'the MCP write is visible over the HTTP API of the same tenant');
      const { participants } = await call<{ participants: { id: string; name: string }[] }>(acme, 'list_participants');
      const ana = participants.find((p) => p.name === 'Ana')!;
      assert.equal((await callError(acme, 'erase_participant', { id: ana.id })).code, 'PARLEY_ERR_FORBIDDEN');
      assert.ok((await t.app.metrics.registry.getSingleMetricAsString('parley_utterances_stored_total')).includes('source="mcp"} 2'));
    } finally {
      await acme.close();
    }

    const other = await connect('mcp-key-other-1');
    try {
      assert.equal((await callError(other, 'get_transcript', { session_id: 'web-1' })).code, 'PARLEY_ERR_NOT_FOUND');
      assert.deepEqual((await call<{ participants: unknown[] }>(other, 'list_participants')).participants, []);
      const { evidence } = await call<{ evidence: Item[] }>(other, 'query_memory', { question: 'Where does Ana live?' });
      assert.deepEqual(evidence, []);
    } finally {
      await other.close();
    }
  });

  test('without a key, or with a wrong one, /mcp answers 401 with Parley\'s error and the client cannot connect', async () => {
    await assert.rejects(connect(null));
    await assert.rejects(connect('not-a-real-key'));
    const res = await rawMcpPost({});
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'PARLEY_ERR_UNAUTHORIZED');
  });

  test('a browser Origin that is not loopback (DNS rebinding) is refused with 403 even with a valid key; loopback origins connect', async () => {
    const res = await rawMcpPost({ authorization: 'Bearer mcp-key-acme-1', origin: 'http://rebound.example.com:8080' });
    assert.equal(res.status, 403);
    const body = (await res.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'PARLEY_ERR_FORBIDDEN');
    assert.match(body.error.message, /PARLEY_MCP_ALLOWED_ORIGINS/);
    await assert.rejects(connect('mcp-key-acme-1', 'http://rebound.example.com:8080'));
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:8080']) {
      const client = await connect('mcp-key-acme-1', origin);
      try {
        assert.deepEqual((await client.listTools()).tools.map((x) => x.name).sort(), READ_TOOLS);
      } finally {
        await client.close();
      }
    }
  });
});

describe('MCP origins listed in PARLEY_MCP_ALLOWED_ORIGINS', () => {
  const t = appForSuite(() => startTestApp({ PARLEY_MCP_ALLOWED_ORIGINS: 'https://agent.example.com' }));

  test('a listed origin connects; an unlisted one (or one on another port or scheme) is refused', async () => {
    const connect = async (origin: string): Promise<Client> => {
      const client = new Client({ name: 'parley-test', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${t.httpUrl}/mcp`), { requestInit: { headers: { origin } } }));
      return client;
    };
    const ok = await connect('https://agent.example.com');
    try {
      assert.deepEqual((await ok.listTools()).tools.map((x) => x.name).sort(), READ_TOOLS);
    } finally {
      await ok.close();
    }
    for (const origin of ['https://other.example.com', 'https://agent.example.com:8443', 'http://agent.example.com']) {
      await assert.rejects(connect(origin), Error, origin);
    }
  });

  test('mcpOriginAllowed: no Origin passes; "null", other schemes and garbage do not; * allows any web origin', () => {
    assert.equal(mcpOriginAllowed(undefined, []), true);
    assert.equal(mcpOriginAllowed('null', []), false);
    assert.equal(mcpOriginAllowed('chrome-extension://abc', []), false);
    assert.equal(mcpOriginAllowed('http://[::1]:3000', []), true);
    assert.equal(mcpOriginAllowed('http://app.localhost', []), true);
    assert.equal(mcpOriginAllowed('http://localhost.evil.com', []), false);
    assert.equal(mcpOriginAllowed('https://anything.example', ['*']), true);
  });
});
