import assert from 'node:assert/strict';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { tempDir } from '../helpers/temp-dir.js';

/** The compiled stdio entry point (tests run from dist/test/…). */
const STDIO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../server/mcp/stdio.js');

describe('MCP over stdio with its Redis unreachable', () => {
  const tmp = tempDir('parley-mcp-noredis-');
  after(() => tmp.remove());

  test('initialize and tools/list are answered; a tool call answers a tool error naming REDIS_URL and that it retries; the process stays', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath, args: [STDIO], stderr: 'pipe',
      env: {
        PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: tmp.dir, LOG_LEVEL: 'info',
        PARLEY_QUEUE: 'redis', REDIS_URL: 'redis://:pw-quiet@127.0.0.1:1/0',
      },
    });
    const stderr: string[] = [];
    transport.stderr?.on('data', (d: Buffer) => stderr.push(d.toString()));
    const client = new Client({ name: 'parley-test', version: '1' });
    const closed = new Promise<void>((resolve) => { client.onclose = () => resolve(); });
    let disconnected = false;
    void closed.then(() => { disconnected = true; });
    try {
      await client.connect(transport);
      assert.equal(client.getServerVersion()?.name, 'parley');
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'query_memory'));
      const res = (await client.callTool({ name: 'query_memory', arguments: { question: 'Where does Ana live?' } }, undefined, { timeout: 120_000 })) as CallToolResult;
      assert.equal(res.isError, true);
      const text = res.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
      const { error } = JSON.parse(text) as { error: { code: string; message: string } };
      assert.equal(error.code, 'PARLEY_ERR_STORE_UNAVAILABLE');
      assert.match(error.message, /Redis is unreachable at REDIS_URL=redis:\/\/.*127\.0\.0\.1:1\/0/);
      assert.match(error.message, /^stores not ready: .*, retrying \(next attempt in \d+ s\)$/);
      assert.doesNotMatch(error.message, /pw-quiet/, 'no password in the message');
      // A second call is answered alike, at once: the server is still there.
      const again = (await client.callTool({ name: 'list_participants', arguments: {} })) as CallToolResult;
      assert.equal(again.isError, true);
      assert.equal(disconnected, false, 'the client was not disconnected');
      // The reason also goes to stderr; the pipe may deliver it after the tool error came back on stdout, so wait for it.
      for (let i = 0; i < 600 && !/parley mcp failed to start/.test(stderr.join('')); i++) await new Promise((r) => setTimeout(r, 100));
      assert.match(stderr.join(''), /parley mcp failed to start/);
    } finally {
      await client.close().catch(() => undefined);
    }
  });
});

describe('MCP over stdio with DATA_DIR unusable at start', () => {
  const tmp = tempDir('parley-mcp-late-dir-');
  after(() => tmp.remove());

  test('tool calls answer "stores not ready: …, retrying" until the directory can be made; then the same process serves', async () => {
    // A plain file where a directory of DATA_DIR must go: the stores cannot open until it is removed.
    const blocker = path.join(tmp.dir, 'blocker');
    writeFileSync(blocker, 'not a directory');
    const transport = new StdioClientTransport({
      command: process.execPath, args: [STDIO], stderr: 'pipe',
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: path.join(blocker, 'data'), LOG_LEVEL: 'info' },
    });
    const stderr: string[] = [];
    transport.stderr?.on('data', (d: Buffer) => stderr.push(d.toString()));
    const client = new Client({ name: 'parley-test', version: '1' });
    const add = { name: 'add_utterances', arguments: { session_id: 'late-1', utterances: [{ speaker: 'Ana', text: 'I live in Porto.' }] } };
    try {
      await client.connect(transport);
      const refused = (await client.callTool(add, undefined, { timeout: 120_000 })) as CallToolResult;
      assert.equal(refused.isError, true);
      const { error } = JSON.parse(refused.content.map((c) => (c.type === 'text' ? c.text : '')).join('')) as { error: { code: string; message: string } };
      assert.equal(error.code, 'PARLEY_ERR_STORE_UNAVAILABLE');
      assert.match(error.message, /^stores not ready: .*ENOTDIR.*, retrying \(next attempt in \d+ s\)$/);

      rmSync(blocker);
      // The next attempt comes within 30 s (the longest backoff); a generous wait for a busy machine.
      let stored: CallToolResult | null = null;
      for (let i = 0; i < 600 && !stored; i++) {
        const res = (await client.callTool(add, undefined, { timeout: 120_000 })) as CallToolResult;
        if (!res.isError) stored = res;
        else await new Promise((r) => setTimeout(r, 500));
      }
      assert.ok(stored, 'served once the directory could be made');
      const ids = (stored.structuredContent as { utterance_ids: string[] }).utterance_ids;
      const transcript = (await client.callTool({ name: 'get_transcript', arguments: { session_id: 'late-1' } })) as CallToolResult;
      assert.deepEqual((transcript.structuredContent as { utterances: { id: string }[] }).utterances.map((u) => u.id), ids);
      assert.ok(existsSync(path.join(blocker, 'data', 'parley.db')), 'the stores live in DATA_DIR');
      for (let i = 0; i < 600 && !/parley mcp serving on stdio/.test(stderr.join('')); i++) await new Promise((r) => setTimeout(r, 100));
      assert.match(stderr.join(''), /parley mcp failed to start; answering tool calls with this reason and retrying/);
      assert.match(stderr.join(''), /parley mcp serving on stdio/);
    } finally {
      await client.close().catch(() => undefined);
    }
  });
});
