import assert from 'node:assert/strict';
import { after } from 'node:test';
import pino from 'pino';
import type { KeyedLock } from '../../graph/keyed-lock.js';
import type { Fact } from '../../graph/memory-store.js';
import { openDatabase, type SqliteDatabase } from '../../graph/sqlite/database.js';
import { SqliteEntityIndex } from '../../graph/sqlite/sqlite-entity-index.js';
import { SqliteGraphStore } from '../../graph/sqlite/sqlite-graph-store.js';
import { SqliteLexicalIndex } from '../../graph/sqlite/sqlite-lexical-index.js';
import { SqliteMemoryStore } from '../../graph/sqlite/sqlite-memory-store.js';
import { SqliteVectorStore } from '../../graph/sqlite/sqlite-vector-store.js';
import type { Utterance } from '../../graph/types.js';
import { UseLiteEmbedder } from '../../pipelines/embeddings/use-lite-embedder.js';
import { createConsolidationHandler } from '../../pipelines/memory/consolidate.js';
import { EmbeddedExtractor } from '../../pipelines/memory/embedded-extractor.js';
import { createLeftBrainHandler } from '../../pipelines/retrieval/left-brain-job.js';
import { Retriever } from '../../pipelines/retrieval/retriever.js';

/** Real embedded stores (one in-memory SQLite database), real USE-lite, real consolidation and left-brain jobs, run inline. */
export interface EmbeddedMemory {
  db: SqliteDatabase;
  graph: SqliteGraphStore;
  memory: SqliteMemoryStore;
  vectors: SqliteVectorStore;
  lexical: SqliteLexicalIndex;
  entities: SqliteEntityIndex;
  embedder: UseLiteEmbedder;
  /** Run a stored utterance through consolidation (facts, vectors) and the left brain, as the server's jobs would. */
  consolidate(tenant: string, sessionId: string, utteranceId: string): Promise<void>;
  close(): Promise<void>;
}

/** The embedded stores and memory jobs of {@link EmbeddedMemory}, for any number of tenants (benches use one per person). */
export function embeddedMemory(options: { locks?: KeyedLock } = {}): EmbeddedMemory {
  const db = openDatabase(':memory:');
  const graph = new SqliteGraphStore(db);
  const memory = new SqliteMemoryStore(db);
  const vectors = new SqliteVectorStore(db);
  const lexical = new SqliteLexicalIndex(db);
  const entities = new SqliteEntityIndex(db);
  const embedder = new UseLiteEmbedder();
  const logger = pino({ level: 'silent' });
  const consolidate = createConsolidationHandler({
    graph, memory, vectors, lexical, embedder, extractor: new EmbeddedExtractor(), onOps: () => {}, logger,
    ...(options.locks ? { locks: options.locks } : {}),
  });
  const leftBrain = createLeftBrainHandler({ graph, memory, vectors, entities, embedder, logger });
  const signal = new AbortController().signal;
  let n = 0;
  return {
    db, graph, memory, vectors, lexical, entities, embedder,
    async consolidate(tenant, sessionId, utteranceId) {
      n += 1;
      await consolidate({ id: `c${n}`, name: 'memory.consolidate', attempt: 1, data: { tenant, sessionId, utteranceId } }, signal);
      const factIds = (await memory.processedFacts(tenant, utteranceId)) ?? [];
      await leftBrain({ id: `l${n}`, name: 'retrieval.left-brain', attempt: 1, data: { tenant, utteranceId, factIds } }, signal);
    },
    async close() {
      await embedder.close();
      db.close();
    },
  };
}

/** {@link EmbeddedMemory} with one tenant's named people and a way to say things. */
export interface MemoryFixture extends EmbeddedMemory {
  /** Participant ids by name. */
  people: Record<string, string>;
  /** Store an utterance and consolidate it (facts, vectors, left brain) before returning. */
  say(session: string, speaker: string, addressees: string[], text: string, time: string): Promise<Utterance>;
  /** Store several utterances in one commit (as an HTTP batch is), then consolidate them in order. */
  sayBatch(session: string, lines: { speaker: string; addressees: string[]; text: string; time: string }[]): Promise<Utterance[]>;
}

export async function memoryFixture(tenant: string, names: string[]): Promise<MemoryFixture> {
  const stores = embeddedMemory();
  const { graph } = stores;
  const people: Record<string, string> = {};
  for (const name of names) people[name] = (await graph.createParticipant(tenant, { name })).id;
  const sayBatch: MemoryFixture['sayBatch'] = async (session, lines) => {
    await graph.openSession(tenant, session, lines[0]!.time);
    const stored = await graph.addUtterances(tenant, lines.map((l) => ({
      sessionId: session, speakerId: people[l.speaker] as string, addresseeIds: l.addressees.map((a) => people[a] as string),
      text: l.text, startMs: null, endMs: null, time: l.time, confidence: null, audioRef: null,
    })));
    for (const u of stored) await stores.consolidate(tenant, session, u.id);
    return stored;
  };
  return {
    ...stores, people,
    say: async (session, speaker, addressees, text, time) => (await sayBatch(session, [{ speaker, addressees, text, time }]))[0]!,
    sayBatch,
  };
}

/** A maker of fixtures of Maria and Jo (one tenant each), all closed after the test file. */
function mariaJoFixtures(): (tenant: string) => Promise<MemoryFixture> {
  const fixtures: MemoryFixture[] = [];
  after(async () => {
    for (const f of fixtures) await f.close();
  });
  return async (tenant) => {
    const f = await memoryFixture(tenant, ['Maria', 'Jo']);
    fixtures.push(f);
    return f;
  };
}

/**
 * A reader of the open facts' texts of a tenant after Maria says its turns to Jo in one session, the first at `first`
 * and the rest at `later`; its fixtures close after the test file.
 */
export function openFactsAfter(first: string, later: string): (tenant: string, turns: string[]) => Promise<string[]> {
  const fixture = mariaJoFixtures();
  return async (tenant, turns) => {
    const f = await fixture(tenant);
    for (const [i, turn] of turns.entries()) await f.say('s1', 'Maria', ['Jo'], turn, i === 0 ? first : later);
    return (await f.memory.listFacts(tenant)).filter((x) => x.validTo === null).map((x) => x.content);
  };
}

/** A turn of {@link allFactsAfter}: Maria's text to Jo, or `[speaker, text]` said by Maria or Jo to the other. */
export type MariaJoTurn = string | readonly ['Maria' | 'Jo', string];

/**
 * A reader of all facts of a tenant, history included, after its turns are said in one session, one a minute apart from
 * `first` (Maria to Jo unless a turn names its speaker); its fixtures close after the test file.
 */
export function allFactsAfter(first: string): (tenant: string, turns: readonly MariaJoTurn[]) => Promise<Fact[]> {
  const fixture = mariaJoFixtures();
  return async (tenant, turns) => {
    const f = await fixture(tenant);
    for (const [i, turn] of turns.entries()) {
      const [speaker, text] = typeof turn === 'string' ? ['Maria', turn] as const : turn;
      await f.say('s1', speaker, [speaker === 'Maria' ? 'Jo' : 'Maria'], text, new Date(Date.parse(first) + i * 60_000).toISOString());
    }
    return f.memory.listFacts(tenant, { includeHistory: true });
  };
}

/**
 * A {@link memoryFixture} of Ana, Ben and Clara in which every line of {@link SNIPPETS} was said (each appended to
 * `said`, in order), with a staged retriever over it (`minPool` 1).
 */
export async function snippetsFixture(tenant: string, said: Utterance[]): Promise<{ f: MemoryFixture; retriever: Retriever }> {
  const f = await memoryFixture(tenant, ['Ana', 'Ben', 'Clara']);
  for (const s of SNIPPETS) said.push(await f.say(s.session, s.speaker, s.to, s.text, s.time));
  return { f, retriever: new Retriever(f, f.entities, f.embedder, { minPool: 1 }) };
}

/** The id of the first turn of `said` whose text holds `fragment` (asserted to exist). */
export function idOfSaid(said: readonly Utterance[], fragment: string): string {
  const u = said.find((s) => s.text.includes(fragment));
  assert.ok(u, fragment);
  return u.id;
}

/** Three short sessions between Ana and Ben (and Clara), a few days apart. */
export const SNIPPETS: { session: string; speaker: string; to: string[]; text: string; time: string }[] = [
  { session: 's1', speaker: 'Ana', to: ['Ben'], text: 'Ben, I promise I will send you the budget report on Friday.', time: '2026-11-02T10:00:00Z' },
  { session: 's1', speaker: 'Ben', to: ['Ana'], text: 'Thanks Ana, the Acme board meeting really needs that report.', time: '2026-11-02T10:01:00Z' },
  { session: 's1', speaker: 'Ana', to: ['Ben'], text: 'My cat Miko has been sick all week.', time: '2026-11-02T10:02:00Z' },
  { session: 's1', speaker: 'Ben', to: ['Ana'], text: 'Poor Miko, you should take him to the vet.', time: '2026-11-02T10:03:00Z' },
  { session: 's2', speaker: 'Ben', to: ['Ana'], text: 'I started learning the cello last month.', time: '2026-11-05T18:00:00Z' },
  { session: 's2', speaker: 'Ana', to: ['Ben'], text: 'We went hiking in the Alps in July with my brother.', time: '2026-11-05T18:01:00Z' },
  { session: 's2', speaker: 'Ben', to: ['Ana'], text: 'My sister Clara is moving to Lisbon next spring.', time: '2026-11-05T18:02:00Z' },
  { session: 's2', speaker: 'Ana', to: ['Ben'], text: 'I love sushi, especially salmon nigiri.', time: '2026-11-05T18:03:00Z' },
  { session: 's3', speaker: 'Clara', to: ['Ben'], text: 'I bought new running shoes for the marathon.', time: '2026-11-09T09:00:00Z' },
  { session: 's3', speaker: 'Ben', to: ['Clara'], text: 'The weather in the park was lovely this morning.', time: '2026-11-09T09:01:00Z' },
  { session: 's3', speaker: 'Clara', to: ['Ben'], text: 'Our landlord raised the rent on the apartment again.', time: '2026-11-09T09:02:00Z' },
  { session: 's3', speaker: 'Ben', to: ['Clara'], text: 'Miko the cat is finally eating again, the vet gave him pills.', time: '2026-11-09T09:03:00Z' },
];

/** Lines of a chat between Ana and Ben for `sayBatch`, each addressed to the other, a minute apart from 10:00 on `day`. */
export function anaBenChat(rows: readonly (readonly ['Ana' | 'Ben', string])[], day: string): { speaker: string; addressees: string[]; text: string; time: string }[] {
  return rows.map(([speaker, text], i) => ({ speaker, addressees: [speaker === 'Ana' ? 'Ben' : 'Ana'], text, time: `${day}T10:${String(i).padStart(2, '0')}:00Z` }));
}

/** Sessions of a chat between Ana and Ben: each session's lines on its day (`MM-DD` in 2023), as `anaBenChat` lays them out. */
export type AnaBenSessions = readonly { session: string; day: string; lines: readonly (readonly ['Ana' | 'Ben', string])[] }[];

/** A fixture with Ana and Ben in which `sessions` were said in order, and a retriever over it. */
export async function anaBenFixture(tenant: string, sessions: AnaBenSessions): Promise<{ f: MemoryFixture; retriever: Retriever }> {
  const f = await memoryFixture(tenant, ['Ana', 'Ben']);
  for (const { session, day, lines } of sessions) await f.sayBatch(session, anaBenChat(lines, `2023-${day}`));
  return { f, retriever: new Retriever(f, f.entities, f.embedder, { minPool: 1 }) };
}

/** Ana tells Ben of family painting, in many words: a session that fills an answer about her family activities. */
export const FAMILY_PAINTING: readonly (readonly ['Ana' | 'Ben', string])[] = [['Ana', 'Family activities are the best, we love our family activities.'], ['Ben', 'What family activities do you do?'],
  ['Ana', 'Painting is our favourite family activity, the kids love painting.'], ['Ben', 'Family painting sounds like fun.'],
  ['Ana', 'We paint together as a family every Sunday, such a lovely activity.'], ['Ben', 'My family does activities like that too.']];
