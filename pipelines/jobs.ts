import path from 'node:path';
import type { Logger } from 'pino';
import type { Stores } from '../graph/stores.js';
import type { TenantId } from '../graph/types.js';
import type { ServerEventPayloads, ServerEventType } from '../graph/core/events.js';
import { analyseTurnAffect } from './affect/affect-turn.js';
import { DEFAULT_MIN_ASR_CONFIDENCE, doubtfulSpeech, type MinAsrConfidence } from './memory/doubtful-speech.js';
import { createPersonaConsolidator } from './affect/persona.js';
import { TextAffectClassifier } from './affect/text-affect.js';
import { readWav } from './audio/wav.js';
import type { TextEmbedder } from './embeddings/text-embedder.js';
import { RecentEmbeddings } from './embeddings/recent-embeddings.js';
import type { EventBus } from '../graph/event-bus.js';
import { reembedIfNeeded } from './embeddings/reembed.js';
import { redactStoredSecrets } from './interaction/redact-stored-secrets.js';
import { OnnxTextEmbedder } from './embeddings/onnx-text-embedder.js';
import { UseLiteEmbedder } from './embeddings/use-lite-embedder.js';
import { SESSION_END_JOB, type SessionEndJobData } from './interaction/session-end.js';
import { requeuePendingMoves } from './interaction/move-utterance.js';
import { AFTER_CONSOLIDATION_JOB, afterConsolidationJobId, type AfterConsolidationJob } from './memory/after-consolidation.js';
import { recordStateSteps } from './memory/temporary-states.js';
import { CONSOLIDATION_JOB, createConsolidationHandler, type ConsolidationJob } from './memory/consolidate.js';
import { EmbeddedExtractor } from './memory/embedded-extractor.js';
import type { Extractor } from './memory/extractor.js';
import { LlmJsonClient } from './memory/llm-client.js';
import { LlmDecider } from './memory/llm-decider.js';
import { RuleDecider, type Decider } from './memory/decide.js';
import { changeModelFor, LearnedChangeDecider } from './memory/learned-change.js';
import { LlmExtractor } from './memory/llm-extractor.js';
import { dropRetiredJobs } from './retired-jobs.js';

/** Delivers an event to a session's client, wherever it is connected. */
export type Publish = <T extends ServerEventType>(tenant: TenantId, sessionId: string, type: T, payload: ServerEventPayloads[T]) => void;

/**
 * Runs after a consolidation job stored its facts (e.g. the left-brain index update): inline, at the
 * end of the consolidation job, and in a `memory.after-consolidation` job when that fails; must be
 * idempotent (it may run again after a crash, or after a later step failed).
 */
export type AfterConsolidation = (job: ConsolidationJob, factIds: string[]) => Promise<void>;

/** The settings the job handlers read (the server's `Config` satisfies it). */
export interface JobsConfig {
  dataDir: string;
  apiKeys: readonly { tenant: TenantId }[];
  extractor: 'embedded' | 'llm';
  llmModel: string;
  openaiApiKey: string | null;
  openaiBaseUrl: string;
  /** Names the assistant is called by (`PARLEY_ASSISTANT_NAMES`), for either extractor; default its own. */
  assistantNames?: readonly string[];
  /** Days an extraction kept for the re-run of an unfinished consolidation stays (`PARLEY_KEPT_EXTRACTION_DAYS`); default 7. */
  keptExtractionDays?: number;
  /** Lowest ASR confidence of a turn that feeds memory (`PARLEY_MEMORY_MIN_ASR_CONFIDENCE`); default `DEFAULT_MIN_ASR_CONFIDENCE`. */
  memoryMinAsrConfidence?: MinAsrConfidence;
  /** The learned change model after the rules (`PARLEY_CHANGE_CLASSIFIER`); default off. Embedded extractor only. */
  changeClassifier?: boolean;
}

export interface JobDeps {
  config: JobsConfig;
  stores: Stores;
  embedder: TextEmbedder;
  /**
   * The embedder text affect classifies on; default `embedder` when it is a model run here (USE-lite, an ONNX encoder),
   * else none (a remote one as OpenAI's, a test double). When it is not `embedder`, it classifies the turn's text (the turn's vector is of
   * another model).
   */
  affectEmbedder?: TextEmbedder | null;
  logger: Logger;
  publish: Publish;
  /**
   * Further work after each consolidation, run in order at the end of the consolidation job once its
   * facts are stored. When a step fails (a store outage, an error), the steps are handed to a
   * `memory.after-consolidation` job of their own, which the queue retries like any other: waiting out
   * the outage without holding a consolidation slot. A crash during the steps runs the unfinished
   * consolidation job again (its facts are stored once), and so the steps. One job per utterance in
   * the usual case: the second job's enqueue, claim and completion cost three commits.
   */
  afterConsolidation?: AfterConsolidation[];
  /**
   * The event bus between processes: on `participant.erased` (any tenant) the handlers forget the turn texts and
   * vectors they keep for the jobs running now (`RecentEmbeddings`), which may be the erased person's words.
   */
  events?: Pick<EventBus, 'subscribe'>;
  /** Called with the vectors kept for the jobs running now, once created (tests read what erasure left there). */
  onTurnEmbeddings?: (kept: RecentEmbeddings) => void;
}

/** Whether `e` is a text model that runs in this process (its vectors cost no call elsewhere). */
function isLocalEncoder(e: TextEmbedder): boolean {
  return e instanceof UseLiteEmbedder || e instanceof OnnxTextEmbedder;
}

/** How often kept extractions past their bound are looked for, ms. */
const KEPT_SWEEP_EVERY_MS = 3_600_000;

/** Every job name the handlers take (queues for metrics and `/readyz`). */
export const JOB_NAMES: readonly string[] = [CONSOLIDATION_JOB, AFTER_CONSOLIDATION_JOB, SESSION_END_JOB];

/** The tenants this deployment knows up front: its API keys' tenants, or `default`. */
export function knownTenants(config: JobsConfig): TenantId[] {
  return config.apiKeys.length > 0 ? [...new Set(config.apiKeys.map((k) => k.tenant))] : ['default'];
}

/**
 * The decider consolidation runs: the LLM's with an LLM; the rules followed by the learned change model when
 * `changeClassifier` is on and a model was trained for `embedder`'s space; else the rules (null: consolidation's default).
 */
function deciderFor(config: JobsConfig, llm: LlmJsonClient | null, embedder: TextEmbedder, log: Logger): Decider | null {
  if (llm) {
    if (config.changeClassifier) log.warn('PARLEY_CHANGE_CLASSIFIER=on is ignored with PARLEY_EXTRACTOR=llm: the LLM decides changes of mind');
    return new LlmDecider(llm, log);
  }
  if (!config.changeClassifier) return null;
  const model = changeModelFor(embedder.space);
  if (!model) {
    log.warn({ embedder: embedder.space.model }, 'PARLEY_CHANGE_CLASSIFIER=on: no change model was trained for this text embedder; the rules decide alone');
    return null;
  }
  log.info({ embedder: model.embedder, cut: model.cut, floor: model.floor }, 'changes of mind: rules, then the learned change model');
  return new LearnedChangeDecider(new RuleDecider(), model, embedder, log);
}

function extractorFor(config: JobsConfig): { extractor: Extractor; llm: LlmJsonClient | null } {
  if (config.extractor !== 'llm') return { extractor: new EmbeddedExtractor({ assistantNames: config.assistantNames }), llm: null };
  const llm = new LlmJsonClient({ baseURL: config.openaiBaseUrl, apiKey: config.openaiApiKey ?? '', model: config.llmModel });
  return { extractor: new LlmExtractor(llm, { assistantNames: config.assistantNames }), llm };
}

/**
 * Register every background job handler on the queue: per-utterance consolidation (facts, profiles,
 * indexes, affect), the steps after it (`afterConsolidation`) and end-of-session consolidation
 * (long-horizon persona). The server calls this in
 * embedded mode; `npm run worker` calls it against the Redis queues.
 */
export async function registerJobHandlers(deps: JobDeps): Promise<void> {
  const { config, stores, embedder, logger } = deps;
  const log = logger.child({ component: 'jobs' });
  const minAsrConfidence = config.memoryMinAsrConfidence ?? DEFAULT_MIN_ASR_CONFIDENCE;
  await reembedIfNeeded({ vectors: stores.vectors, embedder, memory: stores.memory, graph: stores.graph, entities: stores.entities, logger: log },
    knownTenants(config));
  // Attributes stored by a build that left ended states to a sweep job record their steps from now on (`shownAttributes`); once per store.
  for (const tenant of knownTenants(config)) {
    const changed = await recordStateSteps(stores, tenant);
    if (changed !== null && changed > 0) log.info({ tenant, participants: changed }, 'temporary states: steps recorded in derived attributes');
    // Turns stored before their secrets' values were redacted at ingest (rules 56, 63); once per store. A failure (a store
    // outage) must not keep the handlers from starting: the migration is not recorded and runs again at the next start.
    try {
      await redactStoredSecrets({ stores, embedder, minAsrConfidence, logger: log }, tenant);
    } catch (err) {
      log.error({ err, tenant }, 'stored turns: secrets not redacted; tried again at the next start');
    }
    // Turns a speaker revision moved whose re-indexing was never queued (a crash or a queue failure in between).
    // A queue failing now must not keep the handlers from starting: the moves stay pending for the next start.
    try {
      const requeued = await requeuePendingMoves(stores, tenant);
      if (requeued > 0) log.info({ tenant, utterances: requeued }, 'revised turns queued for re-indexing after an interrupted move');
    } catch (err) {
      log.error({ err, tenant }, 'revised turns could not be queued for re-indexing; they stay pending until the next start');
    }
  }
  const { extractor, llm } = extractorFor(config);
  const affectEmbedder = deps.affectEmbedder !== undefined ? deps.affectEmbedder : isLocalEncoder(embedder) ? embedder : null;
  const affect = affectEmbedder ? new TextAffectClassifier(affectEmbedder) : null;
  const affectOnVectors = affectEmbedder === embedder;
  // Consolidation embeds the turn; affect then classifies that vector instead of embedding the text again.
  const turnEmbeddings = new RecentEmbeddings(embedder);
  deps.onTurnEmbeddings?.(turnEmbeddings);
  deps.events?.subscribe((event) => {
    if (event.type === 'participant.erased') turnEmbeddings.forget();
  });

  const afterSteps = deps.afterConsolidation ?? [];
  const decider = deciderFor(config, llm, turnEmbeddings, log);
  const sweepKept = keptExtractionSweep(stores, (config.keptExtractionDays ?? 7) * 86_400_000, log);
  sweepKept();
  const consolidate = createConsolidationHandler({
    graph: stores.graph, memory: stores.memory, vectors: stores.vectors, lexical: stores.lexical,
    embedder: turnEmbeddings, extractor, ...(decider ? { decider } : {}), locks: stores.locks,
    onOps: (tenant, sessionId, ops) => deps.publish(tenant, sessionId, 'memory.updated', { ops }),
    logger: log, minAsrConfidence,
  });
  stores.queue.process<ConsolidationJob>(CONSOLIDATION_JOB, async (job, signal) => {
    sweepKept();
    await consolidate(job, signal);
    const utterance = await stores.graph.getUtterance(job.data.tenant, job.data.utteranceId);
    if (affect && utterance && !doubtfulSpeech(utterance, minAsrConfidence)) {
      const audio = utterance.audioRef ? readSpan(config.dataDir, utterance.audioRef, log) : undefined;
      await (affectOnVectors ? turnEmbeddings.embed([utterance.text]) : Promise.resolve([undefined]))
        .then(([vector]) => analyseTurnAffect({ classifier: affect, memory: stores.memory }, job.data.tenant, utterance, audio, vector))
        .catch((err: Error) => log.warn({ err: err.message }, 'affect attribution failed'));
    }
    if (afterSteps.length === 0) return;
    try {
      const facts = await stores.memory.processedFacts(job.data.tenant, job.data.utteranceId);
      if (facts !== null) for (const step of afterSteps) await step(job.data, facts);
    } catch (err) {
      // Shutting down: the job fails and runs again, steps included.
      signal.throwIfAborted();
      log.warn({ err: (err as Error).message, utteranceId: job.data.utteranceId }, 'a step after consolidation failed; it is retried in a job of its own');
      // Committed before this job completes: a crash before this line runs this job again, steps included.
      await stores.queue.enqueue<AfterConsolidationJob>(AFTER_CONSOLIDATION_JOB, job.data, { jobId: afterConsolidationJobId(job.id) });
    }
  }, { concurrency: 2 });

  stores.queue.process<AfterConsolidationJob>(AFTER_CONSOLIDATION_JOB, async (job) => {
    const { tenant, utteranceId } = job.data;
    // Never consolidated, or its speaker was erased since: nothing to file.
    const facts = await stores.memory.processedFacts(tenant, utteranceId);
    if (facts === null) return;
    for (const step of afterSteps) await step(job.data, facts);
  }, { concurrency: 2 });

  const consolidatePersona = createPersonaConsolidator(stores.memory);
  stores.queue.process<SessionEndJobData>(SESSION_END_JOB, async (job) => {
    const { tenant, sessionId } = job.data;
    const transcript = await stores.graph.getTranscript(tenant, sessionId);
    for (const speakerId of new Set(transcript.map((u) => u.speakerId))) await consolidatePersona(tenant, speakerId);
  });

  // Jobs an older build queued of a kind no handler takes any more: dropped, not left waiting for ever.
  await dropRetiredJobs(stores.queue, log);
}

/**
 * Starts a sweep of the extractions kept longer than `ttlMs` (`MemoryStore.dropKeptExtractions`): at
 * start-up, then at most hourly when a consolidation job starts (no timer outlives the stores). It
 * runs beside the job, never failing or delaying it; a failed sweep is logged and tried an hour later.
 */
function keptExtractionSweep(stores: Stores, ttlMs: number, log: Logger): () => void {
  let last = -Infinity;
  return () => {
    if (Date.now() - last < KEPT_SWEEP_EVERY_MS) return;
    last = Date.now();
    stores.memory.dropKeptExtractions(new Date(last - ttlMs).toISOString()).then(
      (dropped) => { if (dropped > 0) log.info({ dropped, ttlMs }, 'dropped extractions kept for consolidation jobs that never finished'); },
      (err: Error) => log.warn({ err: err.message }, 'sweep of kept extractions failed'),
    );
  };
}

/** The 16 kHz audio of a stored span, or undefined when it is gone (retention) or unreadable. */
function readSpan(dataDir: string, audioRef: string, log: Logger): Float32Array | undefined {
  try {
    return readWav(path.join(dataDir, audioRef)).samples;
  } catch (err) {
    log.debug({ err: (err as Error).message }, 'audio span not readable');
    return undefined;
  }
}
