import type { TenantId } from '../../graph/types.js';
import type { MemoryItem } from '../../server/protocol/server-events.js';
import type { Retriever } from './retriever.js';

/** An explicit question to answer from memory. */
export interface QuestionInput {
  question: string;
  asker?: string | null;
  /** Evidence items returned; default 5. */
  k?: number;
  sessionId?: string;
  speakerId?: string;
  addresseeId?: string;
  signal?: AbortSignal;
}

/** Evidence with the number of rounds and per-stage timings (ms). */
export interface QuestionAnswer {
  evidence: MemoryItem[];
  rounds: number;
  timings: Record<string, number>;
}

/** Answer a question with one round of staged retrieval (the multi-round policy comes later). */
export async function answerQuestion(retriever: Retriever, tenant: TenantId, input: QuestionInput): Promise<QuestionAnswer> {
  const r = await retriever.retrieve({
    tenant, text: input.question, k: input.k ?? 5, askerId: input.asker ?? null,
    ...(input.sessionId ? { sessionId: input.sessionId } : {}),
    ...(input.speakerId ? { speakerId: input.speakerId } : {}),
    ...(input.addresseeId ? { addresseeId: input.addresseeId } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
  });
  return { evidence: r.items, rounds: 1, timings: { ...r.timings, pool_size: r.poolSize } };
}
