import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.js';

interface JsonRpcError { jsonrpc: string; error: { code: number; message: string }; id: null }

describe('POST /mcp with a body that is not JSON', () => {
  let t: TestApp;
  before(async () => { t = await startTestApp(); });
  after(async () => { await t.close(); });

  const post = (body: string): Promise<Response> => fetch(`${t.httpUrl}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body,
  });

  // It used to get Parley's 400 {"error":{"code":"PARLEY_ERR_BAD_REQUEST",…}}, which no MCP client reads.
  test('is answered with JSON-RPC\'s parse error (-32700, id null), HTTP 400, as the MCP transport answers', async () => {
    for (const body of ['{"jsonrpc":"2.0","method":', 'not json at all', '']) {
      const res = await post(body);
      assert.equal(res.status, 400, JSON.stringify(body));
      const reply = (await res.json()) as JsonRpcError;
      assert.equal(reply.jsonrpc, '2.0');
      assert.equal(reply.error.code, -32700, JSON.stringify(body));
      assert.match(reply.error.message, /^Parse error/);
      assert.equal(reply.id, null);
    }
  });

  test('a JSON body still reaches the MCP server (an initialize is answered)', async () => {
    const res = await post(JSON.stringify({
      jsonrpc: '2.0', id: 1, method: 'initialize',
      params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'parley-test', version: '1' } },
    }));
    assert.equal(res.status, 200);
    const reply = (await res.json()) as { id: number; result: { serverInfo: { name: string } } };
    assert.equal(reply.id, 1);
    assert.ok(reply.result.serverInfo.name);
  });
});
