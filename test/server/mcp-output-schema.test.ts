import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { appForSuite, startTestApp } from '../helpers/app.js';

/** Every `$ref` left in a schema (an outputSchema must be self-contained: a client compiles it on its own). */
function refsIn(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(refsIn);
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) => (key === '$ref' ? [String(value)] : refsIn(value)));
}

describe('MCP tools declare an outputSchema (the HTTP response schemas) and their structuredContent validates against it', () => {
  const t = appForSuite(() => startTestApp({ PARLEY_MCP_ALLOW_ERASE: 'true' }));

  test('tools/list: every tool has a self-contained object outputSchema; each call\'s structuredContent passes ajv; errors carry none', async () => {
    const client = new Client({ name: 'parley-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.httpUrl}/mcp`)));
    try {
      const { tools } = await client.listTools();
      assert.equal(tools.length, 8);
      const ajv = new AjvJsonSchemaValidator();
      const validators = new Map(tools.map((tool: Tool) => {
        assert.ok(tool.outputSchema, `${tool.name} declares an outputSchema`);
        assert.equal(tool.outputSchema.type, 'object', tool.name);
        assert.deepEqual(refsIn(tool.outputSchema), [], `${tool.name}'s outputSchema has no $ref`);
        return [tool.name, ajv.getValidator(tool.outputSchema)];
      }));
      const results = new Map<string, unknown[]>();
      /** Call a tool, as the SDK does, and keep its structuredContent for the explicit check below. */
      const call = async <T>(name: string, args: Record<string, unknown>): Promise<T> => {
        const res = (await client.callTool({ name, arguments: args })) as CallToolResult;
        const text = res.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
        assert.ok(!res.isError, `${name}: ${text}`);
        assert.deepEqual(res.structuredContent, JSON.parse(text));
        results.set(name, [...(results.get(name) ?? []), res.structuredContent]);
        return res.structuredContent as T;
      };

      const added = await call<{ utterance_ids: string[] }>('add_utterances', { session_id: 'out-1', utterances: [
        { speaker: 'Ana', addressees: ['Ben'], text: "Hi Ben, I'm Ana. I live in Porto." },
        { speaker: 'Ben', addressees: ['Ana'], text: 'Cara is moving to Lisbon in May.' },
        { speaker: 'customer', text: 'I love sushi.' },
      ] });
      await drainConsolidation(t.app.stores.queue, 120_000);
      const { participants } = await call<{ participants: { id: string; name: string | null }[] }>('list_participants', {});
      const ana = participants.find((p) => p.name === 'Ana');
      assert.ok(ana, JSON.stringify(participants));
      // A persona node, so that get_participant's persona items are checked too.
      await t.app.stores.memory.addPersonaEvidence('default', {
        participantId: ana.id, kind: 'preference', target: 'bees', valence: 0.8, label: null, strength: 0.7,
        utteranceId: added.utterance_ids[0]!, sessionId: 'out-1', time: new Date().toISOString(),
      });
      await call('query_memory', { question: 'Where does Ana live?', k: 10 });
      await call('get_transcript', { session_id: 'out-1' });
      const detail = await call<{ facts: unknown[]; persona: unknown[] }>('get_participant', { id: 'Ana' });
      assert.ok(detail.facts.length > 0 && detail.persona.length > 0, JSON.stringify(detail));
      await call('get_participant', { id: 'Cara', talked_about: true });
      await call('forget_utterance', { id: added.utterance_ids[1]! });
      await call('forget_session', { session_id: 'out-1' });
      await call('erase_participant', { id: ana.id });

      assert.deepEqual([...results.keys()].sort(), tools.map((x) => x.name).sort(), 'every tool was called');
      for (const [name, contents] of results) {
        const validate = validators.get(name)!;
        for (const content of contents) assert.equal(validate(content).errorMessage, undefined, `${name}: ${JSON.stringify(content)}`);
        assert.equal(validate({}).valid, false, `${name}'s schema requires its fields`);
      }

      const error = (await client.callTool({ name: 'get_participant', arguments: { id: 'Nobody' } })) as CallToolResult;
      assert.equal(error.isError, true);
      assert.equal(error.structuredContent, undefined, 'an error is not checked against the success schema');
    } finally {
      await client.close();
    }
  });
});
