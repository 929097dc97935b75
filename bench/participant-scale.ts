/**
 * Explicit questions and the recogniser's names in a tenant of many participants (a call centre
 * keeps one per caller): latency p50/p95 and participant rows read, with 100 and with 100,000
 * participants. "before" is the old reading, measured in the same run on the same stores: every
 * participant of the tenant (`listParticipants`) where a question's names are looked up, and every
 * participant sorted by recency for the recogniser's names. "after" is `findParticipantsByWords` and
 * `recentFirstNames` (pages of `recentNamedParticipants`). Questions alternate before / after, so
 * load on the machine falls on both alike; the paired difference has a 95 % bootstrap interval.
 * Embedded stores (SQLite, USE-lite, real consolidation of the fixture conversation). With `--neo4j`
 * (NEO4J_URI etc. set) the same store reads are also timed on a Neo4jGraphStore.
 * Run: node dist/bench/participant-scale.js [--participants 100,100000] [--reps 5] [--given A,B,…] [--neo4j] [--neo4j-only]
 */
import neo4j from 'neo4j-driver';
import type { GraphStore } from '../graph/graph-store.js';
import { Neo4jGraphStore } from '../graph/neo4j/neo4j-graph-store.js';
import { participantNameWords } from '../graph/name-words.js';
import { firstNames, recentFirstNames } from '../pipelines/interaction/session-naming.js';
import { answerQuestion } from '../pipelines/retrieval/agentic-query.js';
import { tokens } from '../pipelines/retrieval/question-rewrite.js';
import { Retriever } from '../pipelines/retrieval/retriever.js';
import { neo4jTestOptions } from '../test/helpers/stores.js';
import { memoryFixture, SNIPPETS } from '../test/helpers/memory-fixture.js';
import { bootstrapDelta } from './lib/bootstrap.js';
import { argString } from './lib/cli.js';
import { f1, pct } from './lib/live-turns.js';

const sizes = argString('participants', '100,100000').split(',').map(Number);
const reps = Number(argString('reps', '5'));
const withNeo4j = process.argv.includes('--neo4j');
const embedded = !process.argv.includes('--neo4j-only');
const T = 'bench-people';
const QUESTIONS = [
  'What did Ana promise Ben?', "What is Ana's cat called?", 'What did Ben say about the cat?', 'Who is learning the cello?',
  'Did Clara and Ben talk about the report?', 'When is the budget report due?', 'What did Ben tell Ana about Miko?', 'What instrument is Ben learning?',
];
/** Callers' first names (`--given a,b,…`); by default two are the questions' Ana and Ben, so 1 caller in 12 shares each. */
const GIVEN = argString('given', 'Maria,John,Wei,Fatima,Olga,Carlos,Aisha,Tom,Priya,Lars,Ana,Ben').split(',');
const MAX_NAMES = 100;

/** The i-th synthetic caller: a third unnamed, the rest a given name and a surname of their own, some with an alias. */
function caller(i: number): { name?: string; aliases: string[] } {
  if (i % 3 === 0) return { aliases: [] };
  return { name: `${GIVEN[i % GIVEN.length]} Caller${i}`, aliases: i % 10 === 1 ? [`C${i}`] : [] };
}

/** The graph store counting participant rows returned; `old` answers word lookups with the whole tenant. */
function counted(graph: GraphStore, old: boolean): { graph: GraphStore; rows: { n: number } } {
  const rows = { n: 0 };
  const proxy = new Proxy(graph, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (typeof value !== 'function') return value;
      const name = String(key);
      return async (...args: unknown[]) => {
        const out = await (old && name === 'findParticipantsByWords'
          ? target.listParticipants(args[0] as string)
          : (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
        if (/Participants/.test(name) && Array.isArray(out)) rows.n += out.length;
        return out;
      };
    },
  });
  return { graph: proxy, rows };
}

/** The recogniser's names as the session read them before: every participant, sorted by recency. */
async function namesBefore(graph: GraphStore, tenant: string): Promise<string[]> {
  const people = [...await graph.listParticipants(tenant)].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  return [...firstNames(people)].slice(0, MAX_NAMES);
}

const row = (label: string, before: number[], after: number[], rowsBefore: number, rowsAfter: number): string[] => {
  const d = bootstrapDelta(after, before);
  return [label, f1(pct(before, 50)), f1(pct(before, 95)), f1(pct(after, 50)), f1(pct(after, 95)),
    `${f1(d.mean)} [${f1(d.lo)}, ${f1(d.hi)}]`, f1(rowsBefore), f1(rowsAfter)];
};
const out: string[][] = [];
const timed = async <R>(work: () => Promise<R>): Promise<[number, R]> => {
  const t0 = performance.now();
  const r = await work();
  return [performance.now() - t0, r];
};

for (const n of embedded ? sizes : []) {
  const f = await memoryFixture(T, ['Ana', 'Ben', 'Clara']);
  for (const s of SNIPPETS) await f.say(s.session, s.speaker, s.to, s.text, s.time);
  const t0 = performance.now();
  for (let i = 3; i < n; i++) await f.graph.createParticipant(T, caller(i));
  console.log(`embedded: ${n} participants (${n - 3} added in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  const old = counted(f.graph, true);
  const now = counted(f.graph, false);
  const before = new Retriever({ ...f, graph: old.graph }, f.entities, f.embedder, { minPool: 1 });
  const after = new Retriever({ ...f, graph: now.graph }, f.entities, f.embedder, { minPool: 1 });
  const at = new Date('2026-12-01T12:00:00Z');
  for (const q of QUESTIONS.slice(0, 2)) await answerQuestion(after, T, { question: q, k: 5, now: at }); // warm up
  const lat: { before: number[]; after: number[] } = { before: [], after: [] };
  old.rows.n = 0;
  now.rows.n = 0;
  let differ = 0;
  for (let r = 0; r < reps; r++) {
    for (const question of QUESTIONS) {
      const [tb, a] = await timed(() => answerQuestion(before, T, { question, k: 5, now: at }));
      const [ta, b] = await timed(() => answerQuestion(after, T, { question, k: 5, now: at }));
      lat.before.push(tb);
      lat.after.push(ta);
      if (JSON.stringify(a.evidence) !== JSON.stringify(b.evidence)) differ += 1;
    }
  }
  const asked = reps * QUESTIONS.length;
  out.push(row(`embedded, ${n}: explicit question (answers differing: ${differ}/${asked})`, lat.before, lat.after, old.rows.n / asked, now.rows.n / asked));
  const names: { before: number[]; after: number[] } = { before: [], after: [] };
  old.rows.n = 0;
  now.rows.n = 0;
  let namesDiffer = 0;
  for (let r = 0; r < reps * QUESTIONS.length; r++) {
    const [tb, a] = await timed(() => namesBefore(old.graph, T));
    const [ta, b] = await timed(() => recentFirstNames(now.graph, T, MAX_NAMES));
    names.before.push(tb);
    names.after.push(ta);
    if (JSON.stringify(a) !== JSON.stringify(b)) namesDiffer += 1;
  }
  out.push(row(`embedded, ${n}: recogniser's names (differing: ${namesDiffer}/${asked})`, names.before, names.after, old.rows.n / asked, now.rows.n / asked));
  await f.close();
}

if (withNeo4j) {
  const options = neo4jTestOptions(`bench-people-${process.pid}`);
  const store = new Neo4jGraphStore(options);
  const driver = neo4j.driver(options.uri, neo4j.auth.basic(options.user, options.password));
  try {
    await store.init();
    for (const n of sizes) {
      const tenant = `t${n}`;
      const prefixed = `${options.tenantPrefix}${tenant}`;
      for (const name of ['Ana', 'Ben', 'Clara']) await store.createParticipant(tenant, { name });
      // Callers written straight into the database, as an older version left them: the store indexes their words on start.
      const stamp = new Date('2026-11-01T00:00:00Z').getTime();
      for (let from = 3; from < n; from += 5_000) {
        const batch = Array.from({ length: Math.min(5_000, n - from) }, (_, k) => {
          const i = from + k;
          const c = caller(i);
          const time = new Date(stamp + i * 1000).toISOString();
          return { id: `p_bench${i}`, name: c.name ?? null, aliases: c.aliases, time };
        });
        await driver.executeQuery(`UNWIND $batch AS b CREATE (:Participant {tenant: $tenant, id: b.id, name: b.name, aliases: b.aliases,
          attributes: '{}', voiceprintCount: 0, createdAt: b.time, updatedAt: b.time})`, { tenant: prefixed, batch }, { database: options.database });
      }
      const [indexMs] = await timed(async () => {
        const fresh = new Neo4jGraphStore(options);
        await fresh.init();
        await fresh.close();
      });
      await driver.executeQuery('CALL db.awaitIndexes(120)', {}, { database: options.database });
      console.log(`neo4j: ${n} participants, words of the callers indexed on start in ${(indexMs / 1000).toFixed(1)} s`);
      const old = counted(store, true);
      const now = counted(store, false);
      const lat: { before: number[]; after: number[] } = { before: [], after: [] };
      const names: { before: number[]; after: number[] } = { before: [], after: [] };
      const rows = { qBefore: 0, qAfter: 0, nBefore: 0, nAfter: 0 };
      let differ = 0;
      for (let r = 0; r < reps; r++) {
        for (const question of QUESTIONS) {
          const words = tokens(question);
          const [tb, a] = await timed(() => old.graph.findParticipantsByWords(tenant, words));
          const [ta, b] = await timed(() => now.graph.findParticipantsByWords(tenant, words));
          lat.before.push(tb);
          lat.after.push(ta);
          rows.qBefore += a.length;
          rows.qAfter += b.length;
          const named = a.filter((p) => participantNameWords(p.name, p.aliases).some((w) => words.includes(w))).map((p) => p.id);
          if (JSON.stringify(named) !== JSON.stringify(b.map((p) => p.id))) differ += 1;
          old.rows.n = 0;
          now.rows.n = 0;
          const [nb, x] = await timed(() => namesBefore(old.graph, tenant));
          const [na, y] = await timed(() => recentFirstNames(now.graph, tenant, MAX_NAMES));
          names.before.push(nb);
          names.after.push(na);
          rows.nBefore += old.rows.n;
          rows.nAfter += now.rows.n;
          if (JSON.stringify(x) !== JSON.stringify(y)) differ += 1;
        }
      }
      const asked = reps * QUESTIONS.length;
      out.push(row(`neo4j, ${n}: a question's participants (results differing: ${differ}/${2 * asked})`, lat.before, lat.after, rows.qBefore / asked, rows.qAfter / asked));
      out.push(row(`neo4j, ${n}: recogniser's names`, names.before, names.after, rows.nBefore / asked, rows.nAfter / asked));
    }
  } finally {
    await store.eraseAll();
    await store.close();
    await driver.close();
  }
}

const head = ['what, participants', 'before p50 ms', 'before p95 ms', 'after p50 ms', 'after p95 ms', 'after − before, mean ms [95 % CI]', 'rows read before', 'rows read after'];
console.log(`| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|\n${out.map((r) => `| ${r.join(' | ')} |`).join('\n')}`);
