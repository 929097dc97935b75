import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AGENT_ROLE_LABELS, DEFAULT_ASSISTANT_NAMES, isRoleLabel } from '../../pipelines/interaction/non-person-labels.js';
import { appForSuite, startTestApp } from '../helpers/app.js';

describe('a speaker label that is a role ("user") is stored but warned about', () => {
  const t = appForSuite(() => startTestApp());

  test('role words are flagged; the agent side, ids and names are not', () => {
    for (const role of ['user', 'User', ' the user ', 'customer', 'caller', 'human', 'me', 'speaker', 'guest']) assert.ok(isRoleLabel(role), role);
    for (const person of ['assistant', 'agent', 'bot', 'Priya', 'user_42', 'Customer Jones', 'u-7f3a']) assert.ok(!isRoleLabel(person), person);
  });

  test('one vocabulary: no label of the agent side, nor any default assistant name, is a person\'s role', () => {
    for (const agent of [...AGENT_ROLE_LABELS, ...DEFAULT_ASSISTANT_NAMES]) assert.ok(!isRoleLabel(agent), agent);
    assert.ok(DEFAULT_ASSISTANT_NAMES.includes('assistant') && AGENT_ROLE_LABELS.includes('assistant'));
  });

  test('HTTP: the 201 carries warnings naming the label; a batch of people carries none', async () => {
    const post = (speaker: string) => t.app.inject({
      method: 'POST', url: '/v1/sessions/role-1/utterances',
      payload: { utterances: [{ speaker, text: 'My name is Priya and I live in Leeds.' }, { speaker: 'assistant', text: 'Noted.' }] },
    });
    const warned = await post('user');
    assert.equal(warned.statusCode, 201, warned.body);
    const body = warned.json<{ utterance_ids: string[]; warnings?: string[] }>();
    assert.equal(body.utterance_ids.length, 2, 'still stored');
    assert.equal(body.warnings?.length, 1);
    assert.match(body.warnings![0]!, /"user" is a role.*different people.*mixed/);
    const clean = await post('Priya');
    assert.equal(clean.statusCode, 201);
    assert.equal(clean.json<Record<string, unknown>>().warnings, undefined, 'no warnings field when there is nothing to warn about');
  });

  test('MCP add_utterances: the tool says speaker is a person, and its result carries the warning', async () => {
    const client = new Client({ name: 'parley-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.httpUrl}/mcp`)));
    try {
      const { tools } = await client.listTools();
      const add = tools.find((x) => x.name === 'add_utterances')!;
      assert.match(add.description ?? '', /never a role/);
      const res = (await client.callTool({ name: 'add_utterances', arguments: {
        session_id: 'mcp-chat-1', utterances: [{ speaker: 'user', text: "Hi, I'm Bob. I live in York." }],
      } })) as CallToolResult;
      assert.ok(!res.isError);
      const out = res.structuredContent as { utterance_ids: string[]; warnings?: string[] };
      assert.equal(out.utterance_ids.length, 1);
      assert.match(out.warnings?.[0] ?? '', /"user" is a role/);
      assert.match(res.content.map((c) => (c.type === 'text' ? c.text : '')).join(''), /is a role/);
    } finally {
      await client.close();
    }
  });
});
