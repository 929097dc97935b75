import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ERRORS } from '../../graph/core/errors.js';
import { repoRoot } from '../../pipelines/models/repo-root.js';
import { OPERATIONS, PARLEY_ERROR_CODES } from '../../clients/typescript/src/index.js';
import { generateClientTypes } from '../../scripts/lib/client-types.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

describe('@parley/client is generated from what the server serves', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({}, false);
  });
  after(async () => {
    await t.close();
  });

  test('clients/typescript/src/generated/api.ts is what /openapi.json and /asyncapi.json give now (npm run gen:client)', async () => {
    const openapi = (await t.app.inject({ url: '/openapi.json' })).json();
    const asyncapi = (await t.app.inject({ url: '/asyncapi.json' })).json();
    const committed = readFileSync(path.join(repoRoot(), 'clients', 'typescript', 'src', 'generated', 'api.ts'), 'utf8');
    assert.equal(committed, generateClientTypes(openapi, asyncapi), 'stale: run npm run gen:client');
  });

  test('every served operation is in the SDK with its method and path, and nothing else', async () => {
    const openapi = (await t.app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, Record<string, { operationId: string }>> };
    const served = Object.entries(openapi.paths).flatMap(([p, ops]) => Object.entries(ops).map(([m, op]) => [op.operationId, m.toUpperCase(), p].join(' ')));
    const sdk = Object.entries(OPERATIONS).map(([id, op]) => [id, op.method, op.path].join(' '));
    assert.deepEqual(sdk.sort(), served.sort());
  });

  test('after_seq / next_after_seq are served as deprecated (superseded by cursor) and the SDK marks them @deprecated', async () => {
    type Param = { name: string; in: string; description?: string; schema: { deprecated?: boolean } };
    const openapi = (await t.app.inject({ url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { parameters?: Param[] }>>;
      components: { schemas: Record<string, { properties: Record<string, { deprecated?: boolean; description?: string }> }> };
    };
    const afterSeq = openapi.paths['/v1/sessions/{session_id}/transcript']?.get?.parameters?.find((p) => p.in === 'query' && p.name === 'after_seq');
    assert.equal(afterSeq?.schema.deprecated, true);
    assert.match(afterSeq?.description ?? '', /^deprecated, superseded by cursor/);
    const next = openapi.components.schemas.Transcript?.properties.next_after_seq;
    assert.equal(next?.deprecated, true);
    assert.match(next?.description ?? '', /^deprecated, superseded by next_cursor/);
    const generated = readFileSync(path.join(repoRoot(), 'clients', 'typescript', 'src', 'generated', 'api.ts'), 'utf8').split('\n');
    for (const member of ['after_seq?: number;', 'next_after_seq: number | null;']) {
      const at = generated.findIndex((line) => line.trim() === member);
      assert.match(generated[at - 1] ?? '', /@deprecated \*\/$/, member);
    }
  });

  test('the SDK knows every error code of the server', () => {
    assert.deepEqual([...PARLEY_ERROR_CODES].sort(), Object.keys(ERRORS).sort());
  });
});
