import type { EntityRecord } from '../../graph/entity-index.js';
import { contentWords } from './hydrate.js';

/** What a judge sees before a coherent subgraph is promoted to a schema. */
export interface JudgeInput {
  /** The recent queries that kept hitting the subgraph. */
  queries: string[];
  /** The subgraph's memories (id and text). */
  memories: { id: string; text: string }[];
  /** Entities the memories are about (those that would move to the new schema). */
  entities: EntityRecord[];
}

/** A judge's verdict, with the proposed schema's name and description when approved. */
export interface JudgeVerdict {
  approve: boolean;
  name: string;
  description: string;
  /** Each in [0, 1]. */
  scores: { relevance: number; importance: number; completeness: number };
}

/** Approves or rejects schema promotion. Implementations: deterministic (default), LLM. */
export interface SchemaJudge {
  judge(input: JudgeInput): Promise<JudgeVerdict>;
}

/** Options for `DeterministicJudge`. */
export interface DeterministicJudgeOptions {
  /** Queries needed for full importance; default 3. */
  minQueries?: number;
  /** Largest subgraph considered complete (bigger is a topic, not a spine); default 40 memories. */
  maxMemories?: number;
  /** Least relevance approved; default 0.5. */
  minRelevance?: number;
}

/**
 * A judge without an LLM. Relevance: share of the memories with a content word in common with some
 * query. Importance: how many queries came back to it (up to `minQueries`). Completeness: the memories
 * are about at least one entity and the subgraph is small enough to be one thing.
 */
export class DeterministicJudge implements SchemaJudge {
  readonly #o: Required<DeterministicJudgeOptions>;

  constructor(options: DeterministicJudgeOptions = {}) {
    this.#o = { minQueries: options.minQueries ?? 3, maxMemories: options.maxMemories ?? 40, minRelevance: options.minRelevance ?? 0.5 };
  }

  async judge(input: JudgeInput): Promise<JudgeVerdict> {
    const queryWords = new Set(input.queries.flatMap((q) => [...contentWords(q)]));
    const relevant = input.memories.filter((m) => [...contentWords(m.text)].some((w) => queryWords.has(w))).length;
    const relevance = input.memories.length > 0 ? relevant / input.memories.length : 0;
    const importance = Math.min(1, input.queries.length / this.#o.minQueries);
    const completeness = input.entities.length > 0 && input.memories.length <= this.#o.maxMemories ? 1 : 0;
    const top = [...input.entities].sort((a, b) => b.memoryCount - a.memoryCount || a.key.localeCompare(b.key)).slice(0, 2);
    const name = top.map((e) => e.name).join(' & ') || 'emergent topic';
    const description = `${name}: ${input.entities.map((e) => e.name).slice(0, 12).join(', ')}. Asked as: ${input.queries.slice(-3).join(' | ')}`;
    return {
      approve: relevance >= this.#o.minRelevance && importance >= 1 && completeness >= 1,
      name, description, scores: { relevance, importance, completeness },
    };
  }
}
