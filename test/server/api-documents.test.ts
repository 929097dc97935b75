import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Parser } from '@asyncapi/parser';
import { CLIENT_MESSAGES } from '../../server/protocol/ws-messages.js';
import { SERVER_EVENT_PAYLOADS } from '../../server/protocol/ws-events.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

interface OpenApiOperation { operationId?: string; security?: unknown[]; responses: Record<string, { content?: Record<string, { schema: unknown }> }> }

describe('API documents', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ PARLEY_API_KEYS: 'key-docs-1:acme' }, false);
  });
  after(async () => {
    await t.close();
  });

  test('OpenAPI: operation ids, named schemas, bearer security and documented errors', async () => {
    const res = await t.app.inject({ url: '/openapi.json', headers: { authorization: 'Bearer key-docs-1' } });
    assert.equal(res.statusCode, 200);
    const doc = res.json() as { paths: Record<string, Record<string, OpenApiOperation>>; components: { schemas: Record<string, unknown> }; security: unknown };
    const names = Object.keys(doc.components.schemas);
    assert.ok(names.length >= 10);
    assert.ok(names.every((n) => !/^def-\d+$/.test(n)), `unnamed schemas: ${names.join(', ')}`);
    for (const n of ['Error', 'Participant', 'Utterance', 'Memory', 'MemoryItem', 'QueryRequest', 'QueryResponse']) assert.ok(names.includes(n), n);
    assert.deepEqual(doc.security, [{ bearer: [] }]);
    const ids = new Set<string>();
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const where = `${method.toUpperCase()} ${path}`;
        assert.ok(op.operationId, `${where} has an operationId`);
        assert.ok(!ids.has(op.operationId), `${op.operationId} is unique`);
        ids.add(op.operationId);
        if (path === '/healthz') {
          assert.deepEqual(op.security, [], '/healthz is open');
          continue;
        }
        assert.equal(op.security, undefined, `${where} inherits bearer security`);
        for (const status of ['401', '503']) {
          assert.ok(op.responses[status], `${where} documents ${status}`);
        }
        if (method === 'post' || method === 'patch') assert.ok(op.responses['413'], `${where} documents 413`);
        if (path !== '/readyz') {
          assert.deepEqual(op.responses['401']!.content!['application/json']!.schema, { $ref: '#/components/schemas/Error' });
        }
      }
    }
  });

  test('the documented security is what the server does: /healthz open, the rest needs the key', async () => {
    assert.equal((await t.app.inject({ url: '/healthz' })).statusCode, 200);
    const refused = await t.app.inject({ url: '/v1/participants' });
    assert.equal(refused.statusCode, 401);
    assert.equal(refused.json().error.code, 'PARLEY_ERR_UNAUTHORIZED');
    assert.equal((await t.app.inject({ url: '/readyz' })).statusCode, 401);
  });

  test('AsyncAPI 3: every client message and server event, valid by @asyncapi/parser', async () => {
    const res = await t.app.inject({ url: '/asyncapi.json', headers: { authorization: 'Bearer key-docs-1' } });
    assert.equal(res.statusCode, 200);
    const raw = res.json() as { asyncapi: string; components: { messages?: unknown }; channels: { stream: { messages: Record<string, unknown>; description: string } } };
    assert.match(raw.asyncapi, /^3\./);
    // A refused upgrade opens no socket, so its answer is HTTP, not a message: the channel says so.
    assert.match(raw.channels.stream.description, /HTTP 401 PARLEY_ERR_UNAUTHORIZED/);
    assert.match(raw.channels.stream.description, /HTTP 400 PARLEY_ERR_BAD_REQUEST/);
    const parser = new Parser();
    const diagnostics = await parser.validate(JSON.stringify(raw));
    const errors = diagnostics.filter((d) => d.severity === 0);
    assert.deepEqual(errors.map((d) => `${d.path.join('.')}: ${d.message}`), []);
    const { document } = await parser.parse(JSON.stringify(raw));
    assert.ok(document, 'parses');
    const names = document.messages().all().map((m) => m.name());
    for (const type of [...Object.keys(CLIENT_MESSAGES), ...Object.keys(SERVER_EVENT_PAYLOADS)]) {
      assert.ok(names.includes(type), `AsyncAPI has message ${type}`);
    }
    const utterance = document.messages().all().find((m) => m.name() === 'utterance')!;
    assert.deepEqual(utterance.payload()?.required(), ['type', 'speaker', 'text']);
  });
});
