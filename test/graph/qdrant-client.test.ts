/**
 * The Qdrant adapters against a small in-process stand-in for Qdrant's REST API (no Qdrant server
 * can be installed here): which address requests go to, and that a stale 404 does not drop writes.
 */
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, describe, test } from 'node:test';
import { qdrantAddress } from '../../graph/qdrant/qdrant-common.js';
import { QdrantLexicalIndex } from '../../graph/qdrant/qdrant-lexical-index.js';
import { QdrantVectorStore } from '../../graph/qdrant/qdrant-vector-store.js';
import { QdrantVoiceprintStore } from '../../graph/qdrant/qdrant-voiceprint-store.js';
import { serveLocally } from '../helpers/local-http.js';
import { assertFloodKeepsScores } from './contracts/lexical-index.contract.js';

type Point = { id: string | number; vector: unknown; payload: Record<string, unknown> };
type Filter = { must?: ({ key: string; match: { value?: unknown; any?: unknown[] } } | { has_id: unknown[] })[] };

/** Qdrant's `must` conditions the adapters use: keyword/integer match (any element of an array), `any`, `has_id`. */
function matches(point: Point, filter: Filter | undefined): boolean {
  return (filter?.must ?? []).every((c) => {
    if ('has_id' in c) return c.has_id.map(String).includes(String(point.id));
    const value = point.payload[c.key];
    const values = Array.isArray(value) ? value : [value];
    if (c.match.any) return values.some((v) => c.match.any!.includes(v));
    return values.includes(c.match.value);
  });
}

/**
 * The few Qdrant REST calls the adapters make for writes and collection management, kept in memory.
 * `lose(name)` deletes a collection behind the adapters' back (another process, or a server
 * restarted on empty storage). Every request path is recorded.
 */
async function fakeQdrant(prefixPath = '') {
  const collections = new Map<string, Map<string, Point>>();
  /** Collections created with a sparse vector whose `modifier` is `idf` (collection-wide idf, as Qdrant applies it). */
  const idfModifier = new Set<string>();
  const paths: string[] = [];
  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const handler = async (req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = raw ? JSON.parse(raw) as Record<string, unknown> : {};
    const url = new URL(req.url ?? '/', 'http://x');
    paths.push(url.pathname);
    if (!url.pathname.startsWith(`${prefixPath}/collections`)) return send(res, 404, { status: { error: 'no such route' } });
    const parts = url.pathname.slice(prefixPath.length).split('/').filter(Boolean); // collections, name, ...
    const ok = (result: unknown) => send(res, 200, { result, status: 'ok', time: 0 });
    if (parts.length === 1) return ok({ collections: [...collections.keys()].map((name) => ({ name })) });
    const name = parts[1]!;
    const points = collections.get(name);
    if (parts.length === 2 && req.method === 'PUT') {
      if (points) return send(res, 409, { status: { error: `Collection ${name} already exists!` } });
      collections.set(name, new Map());
      const sparse = (body.sparse_vectors ?? {}) as Record<string, { modifier?: string }>;
      if (Object.values(sparse).some((v) => v.modifier === 'idf')) idfModifier.add(name);
      return ok(true);
    }
    if (parts[2] === 'exists') return ok({ exists: Boolean(points) });
    if (!points) return send(res, 404, { status: { error: `Not found: Collection \`${name}\` doesn't exist!` } });
    if (parts[2] === 'index') return ok({ operation_id: 0, status: 'completed' });
    if (parts[2] === 'points' && parts.length === 3 && req.method === 'PUT') {
      for (const p of body.points as Point[]) points.set(String(p.id), p);
      return ok({ operation_id: 0, status: 'completed' });
    }
    if (parts[2] === 'points' && parts[3] === 'count') {
      return ok({ count: [...points.values()].filter((p) => matches(p, body.filter as Filter | undefined)).length });
    }
    if (parts[2] === 'points' && parts[3] === 'query') {
      // Sparse query: the dot product of the query with each point's sparse vector, filtered.
      const query = body.query as { indices: number[]; values: number[] };
      const using = String(body.using);
      const all = [...points.values()];
      const weights = query.values.map((w, i) => {
        if (!idfModifier.has(name)) return w;
        const n = all.filter((p) => (p.vector as Record<string, { indices: number[] }>)[using]!.indices.includes(query.indices[i]!)).length;
        return w * Math.log(1 + (all.length - n + 0.5) / (n + 0.5));
      });
      const scored = all.filter((p) => matches(p, body.filter as Filter | undefined)).map((p) => {
        const v = (p.vector as Record<string, { indices: number[]; values: number[] }>)[using]!;
        const score = query.indices.reduce((sum, qi, i) => { const j = v.indices.indexOf(qi); return j < 0 ? sum : sum + weights[i]! * v.values[j]!; }, 0);
        return { id: p.id, score, payload: p.payload };
      }).filter((h) => h.score > 0).sort((a, b) => b.score - a.score).slice(0, Number(body.limit));
      return ok({ points: scored });
    }
    if (parts[2] === 'points' && parts.length === 3 && req.method === 'POST') {
      return ok((body.ids as string[]).flatMap((id) => (points.has(String(id)) ? [points.get(String(id))] : [])));
    }
    return send(res, 400, { status: { error: `the stand-in does not serve ${req.method} ${url.pathname}` } });
  };
  const { server, base } = await serveLocally((req, res) => { void handler(req, res); });
  return {
    base, paths, collections,
    lose: (name: string) => collections.delete(name),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('QDRANT_URL is used exactly as written', () => {
  test('a URL without a port means the scheme\'s port, not 6333; a path is kept as a prefix', () => {
    assert.deepEqual(qdrantAddress('http://qdrant.internal'), { url: 'http://qdrant.internal', port: 80, prefix: '' });
    assert.deepEqual(qdrantAddress('https://db.example.com/qdrant/'), { url: 'https://db.example.com', port: 443, prefix: '/qdrant' });
    assert.deepEqual(qdrantAddress('http://127.0.0.1:6333'), { url: 'http://127.0.0.1', port: 6333, prefix: '' });
  });

  test('requests reach the path of QDRANT_URL on its host and port', async () => {
    const fake = await fakeQdrant('/proxied/qdrant');
    try {
      const index = new QdrantLexicalIndex({ url: `${fake.base}/proxied/qdrant/`, collectionPrefix: 'p_' });
      await index.index('t1', [{ id: 'a', text: 'hello world', layer: 'fact' }]);
      assert.ok(fake.paths.length > 0);
      for (const p of fake.paths) assert.match(p, /^\/proxied\/qdrant\/collections/);
      assert.equal(fake.collections.get('p_lexical_tenant_bm25')?.size, 1);
    } finally {
      await fake.close();
    }
  });
});

describe('a stale 404 does not drop writes', () => {
  const servers: { close(): Promise<void> }[] = [];
  after(async () => { for (const s of servers) await s.close(); });

  test('lexical index: the collection vanished after this process created it; the next write recreates it and lands', async () => {
    const fake = await fakeQdrant();
    servers.push(fake);
    const index = new QdrantLexicalIndex({ url: fake.base, collectionPrefix: 'p_' });
    await index.index('t1', [{ id: 'a', text: 'first', layer: 'fact' }]);
    fake.lose('p_lexical_tenant_bm25');
    await index.index('t1', [{ id: 'b', text: 'second', layer: 'fact' }]);
    assert.equal(fake.collections.get('p_lexical_tenant_bm25')?.size, 1);
  });

  test('vector store: the Qdrant collection under a live binding vanished; the write recreates it and lands', async () => {
    const fake = await fakeQdrant();
    servers.push(fake);
    const store = new QdrantVectorStore({ url: fake.base, collectionPrefix: 'p_' });
    await store.ensureCollection('facts', { model: 'm', dimension: 2 });
    const [name] = [...fake.collections.keys()].filter((n) => n.startsWith('p_facts__'));
    assert.ok(name);
    fake.lose(name);
    await store.upsert('t1', 'facts', [{ id: 'a', vector: Float32Array.from([1, 0]), payload: { layer: 'fact' } }]);
    assert.equal(fake.collections.get(name)?.size, 1);
  });

  test('voiceprints: the collection vanished; the next upsert recreates it and lands', async () => {
    const fake = await fakeQdrant();
    servers.push(fake);
    const store = new QdrantVoiceprintStore({ url: fake.base, collectionPrefix: 'p_' });
    const first = await store.upsert('t1', { participantId: 'p_a', modelId: 'm1', vector: Float32Array.from([1, 0]), updateCount: 1 });
    const [name] = [...fake.collections.keys()];
    fake.lose(name!);
    await store.upsert('t1', { participantId: 'p_b', modelId: 'm1', vector: Float32Array.from([0, 1]), updateCount: 1 });
    assert.equal(fake.collections.get(name!)?.size, 1);
    assert.ok(first.id);
  });
});

describe('Qdrant keyword ranking per tenant (on the stand-in, which applies a collection-wide idf modifier as Qdrant does)', () => {
  test("one tenant's documents never change another tenant's scores", async () => {
    const fake = await fakeQdrant();
    try {
      const index = new QdrantLexicalIndex({ url: fake.base, collectionPrefix: 'p_' });
      const before = await assertFloodKeepsScores(index);
      assert.equal(before[2]!.id, 'b2', 'two query words outrank one');
      assert.deepEqual(await index.search('tB', 'zebra', 5), [], 'a word no document of the tenant holds finds nothing');
    } finally {
      await fake.close();
    }
  });
});
