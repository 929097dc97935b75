import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { appForSuite, startTestApp } from '../helpers/app.js';

describe('HTTP request limits a client can act on', () => {
  const t = appForSuite(() => startTestApp());

  test('a body over 16 MiB is a 413 whose message names the limit; nothing is stored', async () => {
    const text = 'x'.repeat(9000);
    const utterances = Array.from({ length: 2000 }, () => ({ speaker: 'Ana', text }));
    const res = await fetch(`${t.httpUrl}/v1/sessions/big-1/utterances`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ utterances }),
    });
    assert.equal(res.status, 413);
    const { error } = (await res.json()) as { error: { code: string; message: string } };
    assert.equal(error.code, 'PARLEY_ERR_FRAME_TOO_LARGE');
    assert.match(error.message, /16 MiB \(16777216 bytes\)/);
    const transcript = await fetch(`${t.httpUrl}/v1/sessions/big-1/transcript`);
    assert.equal(transcript.status, 404, 'no session was created');
  });

  test('POST /mcp without Accept: application/json, text/event-stream is 406 (docs/MCP.md shows the header)', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    const bare = await fetch(`${t.httpUrl}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body });
    assert.equal(bare.status, 406);
    const ok = await fetch(`${t.httpUrl}/mcp`, {
      method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body,
    });
    assert.equal(ok.status, 200, await ok.text());
  });
});
