import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { EntityIndex } from '../../graph/entity-index.js';
import type { TextEmbedder } from '../../pipelines/embeddings/text-embedder.js';
import { UseLiteEmbedder } from '../../pipelines/embeddings/use-lite-embedder.js';
import { QueryCoherence, type QueryCoherenceOptions } from '../../pipelines/retrieval/coherence.js';
import { answerQuestion, type AgenticOptions, type QuestionInput } from '../../pipelines/retrieval/agentic-query.js';
import { DEFAULT_TOPIC_BARS } from '../../pipelines/retrieval/relevance.js';
import { withFreshTurns } from '../../pipelines/retrieval/fresh-turns.js';
import { leftBrainStep } from '../../pipelines/retrieval/left-brain-job.js';
import { Retriever, type RetrieverOptions } from '../../pipelines/retrieval/retriever.js';
import { DeterministicJudge, type SchemaJudge } from '../../pipelines/retrieval/schema-judge.js';
import { createTurnRetrieval, type TurnRetrievalOptions } from '../../pipelines/retrieval/turn-retrieval.js';
import type { MemoryItem } from '../../graph/core/events.js';

/** Answers an explicit question from memory (WS `query`, `POST /v1/query`). */
export type MemoryQueryFn = (
  tenant: string,
  input: Pick<QuestionInput, 'question' | 'asker' | 'k' | 'sessionId' | 'speakerId' | 'addresseeId' | 'excludeIds' | 'now' | 'scope'>,
) => Promise<{ evidence: MemoryItem[]; answerable: boolean; rounds: number; timings: Record<string, number> }>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The left brain (schema–entity index). */
    entityIndex: EntityIndex;
    /** Staged left-brain + right-brain retrieval. */
    retriever: Retriever;
    /** Query coherence tracking and schema emergence. */
    queryCoherence: QueryCoherence;
    memoryQuery: MemoryQueryFn;
  }
}

/** Options for `retrievalPlugin`; all optional. */
export interface RetrievalPluginOptions {
  /** The text embedder shared with consolidation; else `app.models.textEmbedder` if decorated, else a private USE-lite. */
  embedder?: TextEmbedder;
  retriever?: RetrieverOptions;
  /** Weights and limits of the agentic loop for explicit questions (`memoryQuery`). */
  agentic?: AgenticOptions;
  turns?: Omit<TurnRetrievalOptions, 'onConfirmed' | 'onError'>;
  coherence?: QueryCoherenceOptions;
  /** Default: the deterministic judge (pass an LLM judge when one is configured). */
  judge?: SchemaJudge;
}

/**
 * Retrieval for live sessions and questions: decorates `app.entityIndex`, `app.retriever`,
 * `app.queryCoherence` and `app.memoryQuery`, and adds a turn listener to every live session that
 * sends `memory.context` (speculative on partials, confirmed at the end of turn). When the jobs plugin
 * is registered first, the left-brain update runs after every consolidation.
 */
export const retrievalPlugin = fp(async (app: FastifyInstance, opts: RetrievalPluginOptions) => {
  const shared = app.hasDecorator('models') ? app.models.textEmbedder : undefined;
  const own = (opts.embedder ?? shared) ? null : new UseLiteEmbedder();
  const embedder = opts.embedder ?? shared ?? (own as UseLiteEmbedder);
  const entityIndex = app.stores.entities;
  const metrics = app.hasDecorator('metrics') ? app.metrics : null;
  // Opt-in (`PARLEY_RETRIEVAL_FRESH_TURNS`): turns whose consolidation has not run yet are scored by meaning too, with
  // the retriever's question embedder.
  const fresh = app.config.retrievalFreshTurns;
  // Opt-in (`PARLEY_ANSWERABLE_TOPIC_GATE=on`): `answerable` also needs an item on the question's topic.
  const agentic: AgenticOptions = {
    ...(app.config.answerableTopicGate ? { topicGate: DEFAULT_TOPIC_BARS } : {}),
    ...opts.agentic,
  };
  const vectors = fresh > 0
    ? withFreshTurns(app.stores.vectors, app.stores.graph, (text) => retriever.embed(text), { recent: fresh, minAsrConfidence: app.config.memoryMinAsrConfidence })
    : app.stores.vectors;
  const retriever: Retriever = new Retriever({ ...app.stores, vectors }, entityIndex, embedder, {
    ...opts.retriever,
    onRetrieved: (timings) => {
      opts.retriever?.onRetrieved?.(timings);
      metrics?.searchDuration.observe({ kind: 'turn' }, timings.total_ms / 1000);
    },
  });
  const coherence = new QueryCoherence(entityIndex, opts.judge ?? new DeterministicJudge(), opts.coherence);
  const log = app.log.child({ component: 'retrieval' });
  const record = (tenant: string, text: string, items: MemoryItem[]): void => {
    coherence.record(tenant, text, items.map((i) => ({ id: i.id, text: i.text })))
      .then((schema) => schema && log.info({ tenant, schema: schema.id }, 'schema emerged from coherent queries'))
      .catch((err: Error) => log.warn({ err: err.message }, 'query coherence update failed'));
  };

  app.decorate('entityIndex', entityIndex);
  app.decorate('retriever', retriever);
  app.decorate('queryCoherence', coherence);
  app.decorate('memoryQuery', (async (tenant, input) => {
    const started = performance.now();
    // Asked as of the app's clock (`BuildOptions.now`; default the wall clock), the clock facts were told against: a fact's
    // own end ("for the next few days") holds or has passed by the same time as participant attributes. A question
    // given its own time (`POST /v1/query`'s `now`: a replay, imported history) is asked as of it.
    const answer = await answerQuestion(retriever, tenant, { ...input, now: input.now ?? new Date(app.clock()) }, agentic);
    metrics?.queryDuration.observe((performance.now() - started) / 1000);
    // Each retrieval round of the question (`round1_ms`…) is a search too, told apart from live turns.
    for (const [name, ms] of Object.entries(answer.timings)) {
      if (/^round\d+_ms$/.test(name)) metrics?.searchDuration.observe({ kind: 'query_round' }, ms / 1000);
    }
    record(tenant, input.question, answer.evidence);
    return answer;
  }) satisfies MemoryQueryFn);
  if (app.hasDecorator('afterConsolidation')) {
    app.afterConsolidation.push(leftBrainStep({
      graph: app.stores.graph, memory: app.stores.memory, vectors: app.stores.vectors, entities: entityIndex, embedder,
      schemaVectors: retriever.schemas,
    }));
  }
  // A person erased on any process: what this one keeps of the tenant's questions and schemas goes (`forgetCachedTraces`
  // does it at once where the erasure ran; the bus tells every other server).
  const stop = app.events.subscribe((event) => {
    if (event.type === 'participant.erased') forgetTenantCaches(app, event.tenant);
  });
  app.turnListeners.push((session) => createTurnRetrieval(retriever, session, {
    ...opts.turns,
    onConfirmed: record,
    onError: (err) => log.warn({ session: session.id, err: (err as Error).message }, 'turn retrieval failed'),
  }));
  app.addHook('onClose', async () => {
    stop();
    await own?.close();
  });
}, { name: 'parley-retrieval', dependencies: ['parley-stream', 'parley-stores', 'parley-event-bus'] });

/**
 * Erasure: forget the recent questions kept for schema emergence (with the memory texts they hit), the cached question
 * vectors, schema vectors and entity-name table of `tenant`, which may hold an erased person's words or name.
 */
export function forgetTenantCaches(app: FastifyInstance, tenant: string): void {
  app.queryCoherence.forget(tenant);
  app.retriever.forget(tenant);
}
