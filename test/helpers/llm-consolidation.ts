import { after, before } from 'node:test';
import pino from 'pino';
import { startOpenAiDouble, type ChatRequestBody, type OpenAiDouble } from '../doubles/openai-double.js';
import { openDatabase, type SqliteDatabase } from '../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../graph/sqlite/sqlite-graph-store.js';
import { SqliteLexicalIndex } from '../../graph/sqlite/sqlite-lexical-index.js';
import { SqliteMemoryStore } from '../../graph/sqlite/sqlite-memory-store.js';
import { SqliteVectorStore } from '../../graph/sqlite/sqlite-vector-store.js';
import type { JobHandler } from '../../graph/job-queue.js';
import { OpenAiEmbedder } from '../../pipelines/embeddings/openai-embedder.js';
import { createConsolidationHandler, type ConsolidationJob, type MemoryOp } from '../../pipelines/memory/consolidate.js';
import { LlmJsonClient } from '../../pipelines/memory/llm-client.js';
import { LlmDecider } from '../../pipelines/memory/llm-decider.js';
import { LlmExtractor } from '../../pipelines/memory/llm-extractor.js';
import type { MinAsrConfidence } from '../../pipelines/memory/doubtful-speech.js';

/** Dimension of the double's embeddings. */
const DIMENSION = 64;

/** The OpenAI-compatible TEST DOUBLE and an in-memory SQLite database, for one `describe`. */
export interface LlmDoubleFixture {
  readonly double: OpenAiDouble;
  readonly db: SqliteDatabase;
}

/**
 * Starts the OpenAI-compatible TEST DOUBLE answering chats with `chat`, and opens an in-memory
 * SQLite database, before the enclosing `describe`'s tests; closes both after them. Call it inside a
 * `describe` callback: it registers that suite's `before` and `after` hooks.
 */
export function withLlmDouble(chat: (body: ChatRequestBody) => string): LlmDoubleFixture {
  let double: OpenAiDouble | undefined;
  let db: SqliteDatabase | undefined;
  before(async () => {
    double = await startOpenAiDouble({ chat, dimension: DIMENSION });
    db = openDatabase(':memory:');
  });
  after(async () => {
    await double?.close();
    db?.close();
  });
  return {
    get double() { return double as OpenAiDouble; },
    get db() { return db as SqliteDatabase; },
  };
}

/** The current turn of a facts request, as the LLM extractor writes it, and the speaker's id in it (`p_x` when none). */
export function currentTurn(body: ChatRequestBody): { text: string; speaker: string } {
  const user = body.messages.find((m) => m.role === 'user')?.content ?? '';
  const text = user.split('CURRENT TURN:')[1] ?? '';
  return { text, speaker: text.match(/\((p_\w+)\)/)?.[1] ?? 'p_x' };
}

/** What `llmConsolidation` wires. */
export interface LlmConsolidation {
  llm: LlmJsonClient;
  graph: SqliteGraphStore;
  memory: SqliteMemoryStore;
  embedder: OpenAiEmbedder;
  handler: JobHandler<ConsolidationJob>;
}

/**
 * The consolidation handler of the LLM memory path over `fixture`'s database: the LLM extractor and
 * embedder against the double, and the LLM decider when `decider` is set (else the rule decider).
 * Every batch of ops it publishes goes to `onOps`; `minAsrConfidence` is the doubtful-speech gate (default `auto`: none for these turns, which name no recogniser).
 */
export function llmConsolidation(
  fixture: LlmDoubleFixture, options: { decider: boolean; onOps: (ops: MemoryOp[]) => void; minAsrConfidence?: MinAsrConfidence },
): LlmConsolidation {
  const { double, db } = fixture;
  const llm = new LlmJsonClient({ baseURL: double.baseURL, apiKey: 'test-key', model: 'double-model' });
  const graph = new SqliteGraphStore(db);
  const memory = new SqliteMemoryStore(db);
  const embedder = new OpenAiEmbedder({ baseURL: double.baseURL, apiKey: 'test-key', model: 'double-embed', dimension: DIMENSION });
  const handler = createConsolidationHandler({
    graph, memory, vectors: new SqliteVectorStore(db), lexical: new SqliteLexicalIndex(db), embedder,
    extractor: new LlmExtractor(llm), ...(options.decider ? { decider: new LlmDecider(llm) } : {}),
    onOps: (_tenant, _session, ops) => options.onOps(ops), logger: pino({ level: 'silent' }),
    ...(options.minAsrConfidence !== undefined ? { minAsrConfidence: options.minAsrConfidence } : {}),
  });
  return { llm, graph, memory, embedder, handler };
}
