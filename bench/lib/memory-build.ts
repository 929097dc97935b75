/**
 * The modules a memory bench needs to run the real consolidation: this build's, or another build's
 * dist/ (`--baseline DIR`, e.g. main built in a scratch copy), loaded in the same process so both
 * builds see the same data and the same embedder.
 */
import path from 'node:path';
import { pino } from 'pino';
import { pathToFileURL } from 'node:url';
import { openDatabase } from '../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../graph/sqlite/sqlite-graph-store.js';
import { SqliteMemoryStore } from '../../graph/sqlite/sqlite-memory-store.js';
import { SqliteVectorStore } from '../../graph/sqlite/sqlite-vector-store.js';
import { SqliteLexicalIndex } from '../../graph/sqlite/sqlite-lexical-index.js';
import { EmbeddedExtractor } from '../../pipelines/memory/embedded-extractor.js';
import { createConsolidationHandler, type ConsolidationDeps } from '../../pipelines/memory/consolidate.js';
import type { TextEmbedder } from '../../pipelines/embeddings/text-embedder.js';
import { RuleDecider, type Decider } from '../../pipelines/memory/decide.js';
import { changeModelFor, changeModelPath, LearnedChangeDecider } from '../../pipelines/memory/learned-change.js';
import { shownAttributes } from '../../pipelines/interaction/participant-attributes.js';

/** Stores, extractor and consolidation of one build. */
export interface MemoryBuild {
  openDatabase: typeof openDatabase;
  SqliteGraphStore: typeof SqliteGraphStore;
  SqliteMemoryStore: typeof SqliteMemoryStore;
  SqliteVectorStore: typeof SqliteVectorStore;
  SqliteLexicalIndex: typeof SqliteLexicalIndex;
  EmbeddedExtractor: typeof EmbeddedExtractor;
  createConsolidationHandler: typeof createConsolidationHandler;
  /**
   * The sweep of ended temporary states (`memory.states-ended`) of a build that had one (rules 26 to 28; none now: the
   * attributes record their ends and are read at a time by `shownAttributes`).
   */
  rederiveEndedStates?: (stores: unknown, job: { tenant: string; endedAfter: string | null; endedBy: string }) => Promise<unknown>;
  /** A participant's attributes as clients read them at a time; absent in a build from before it (the stored ones). */
  shownAttributes?: typeof shownAttributes;
}

/** This build's modules. */
export const thisBuild: MemoryBuild = {
  openDatabase, SqliteGraphStore, SqliteMemoryStore, SqliteVectorStore, SqliteLexicalIndex, EmbeddedExtractor, createConsolidationHandler,
  shownAttributes,
};

/**
 * One build's stores on a fresh in-memory database and its consolidation with the embedded extractor, every op it
 * decides handed to `onOps` (the memory benches' common set-up; close `db` when done). `decider`: another decider than
 * the build's rules (this build's `LearnedChangeDecider`, `--learned`).
 */
export function consolidationRig(build: MemoryBuild, embedder: TextEmbedder, onOps: ConsolidationDeps['onOps'] = () => {}, decider?: Decider) {
  const db = build.openDatabase(':memory:');
  const graph = new build.SqliteGraphStore(db);
  const memory = new build.SqliteMemoryStore(db);
  const handler = build.createConsolidationHandler({
    graph, memory, vectors: new build.SqliteVectorStore(db), lexical: new build.SqliteLexicalIndex(db), embedder,
    extractor: new build.EmbeddedExtractor(), onOps, logger: pino({ level: 'silent' }), ...(decider ? { decider } : {}),
  });
  return { db, graph, memory, handler };
}

/**
 * `--learned [FILE]`: this build's rules followed by the learned change model (`LearnedChangeDecider`) trained for
 * `embedder` (or the model in FILE); null without the flag. No model for the embedder throws, naming it.
 */
export function learnedArm(embedder: TextEmbedder, argv = process.argv): Decider | null {
  const at = argv.indexOf('--learned');
  if (at < 0) return null;
  const next = argv[at + 1];
  const file = next !== undefined && !next.startsWith('--') ? next : undefined;
  const model = changeModelFor(embedder.space, file);
  if (!model) throw new Error(`--learned: no change model was trained for ${embedder.space.model} (${changeModelPath(embedder.space.model)}); pass --embedder bge-small-en-v1.5-q or a model file`);
  return new LearnedChangeDecider(new RuleDecider(), model, embedder);
}

/** Another build's modules, from its dist/ folder `dir`. */
export async function loadBuild(dir: string): Promise<MemoryBuild> {
  const load = async (file: string): Promise<Record<string, unknown>> => (await import(pathToFileURL(path.resolve(dir, file)).href)) as Record<string, unknown>;
  const pick = async <K extends keyof MemoryBuild>(file: string, name: K): Promise<MemoryBuild[K]> => (await load(file))[name] as MemoryBuild[K];
  return {
    openDatabase: await pick('graph/sqlite/database.js', 'openDatabase'),
    SqliteGraphStore: await pick('graph/sqlite/sqlite-graph-store.js', 'SqliteGraphStore'),
    SqliteMemoryStore: await pick('graph/sqlite/sqlite-memory-store.js', 'SqliteMemoryStore'),
    SqliteVectorStore: await pick('graph/sqlite/sqlite-vector-store.js', 'SqliteVectorStore'),
    SqliteLexicalIndex: await pick('graph/sqlite/sqlite-lexical-index.js', 'SqliteLexicalIndex'),
    EmbeddedExtractor: await pick('pipelines/memory/embedded-extractor.js', 'EmbeddedExtractor'),
    createConsolidationHandler: await pick('pipelines/memory/consolidate.js', 'createConsolidationHandler'),
    ...(await optional(load, 'pipelines/memory/temporary-states.js', 'rederiveEndedStates')),
    ...(await optional(load, 'pipelines/interaction/participant-attributes.js', 'shownAttributes')),
  };
}

/** `{ [name]: the export }` of `file` in another build's dist/, when it has that file and export; else `{}`. */
async function optional<K extends 'rederiveEndedStates' | 'shownAttributes'>(load: (file: string) => Promise<Record<string, unknown>>, file: string, name: K):
  Promise<Partial<Pick<MemoryBuild, K>>> {
  try {
    const f = (await load(file))[name];
    return typeof f === 'function' ? { [name]: f } as Partial<Pick<MemoryBuild, K>> : {};
  } catch {
    return {};
  }
}
