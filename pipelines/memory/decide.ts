import type { Fact } from '../../graph/memory-store.js';
import { isIntention } from './changes.js';
import type { ExtractedFact } from './extractor.js';

/** A consolidation decision for one extracted fact. */
export type Decision =
  | { op: 'ADD' }
  | { op: 'KEEP'; targetId: string }
  | { op: 'UPDATE'; targetId: string }
  | { op: 'DELETE'; targetIds: string[] };

/** An existing current fact near the new one, with its cosine similarity to it. */
export interface Candidate {
  fact: Fact;
  score: number;
}

/** What a decider sees for one extracted fact. */
export interface DecisionInput {
  fact: ExtractedFact;
  /** Current facts of the same subject, most similar first. */
  candidates: Candidate[];
  /** Current facts that came from the utterances a "cancel that" withdraws. */
  retractedFacts: Fact[];
}

/** Decides ADD / UPDATE / DELETE / KEEP. Implementations: deterministic rules, LLM. */
export interface Decider {
  decide(input: DecisionInput): Promise<Decision>;
}

/** Thresholds of the deterministic decider. */
export interface RuleDeciderOptions {
  /** Cosine at or above which an unslotted fact of the same kind is a near-duplicate; default 0.9. */
  duplicateCosine?: number;
  /** Cosine at or above which an unslotted retraction withdraws a fact of the same kind; default 0.55. */
  retractCosine?: number;
  /** Cosine at or above which an outcome settles an open plan or commitment; default 0.4. */
  settleCosine?: number;
}

/** Kinds an outcome can settle. */
const SETTLEABLE = new Set(['plan', 'commitment', 'request']);

function norm(v: string | null): string {
  return (v ?? '').toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
}

/**
 * Deterministic consolidation (embedded mode): an outcome settles the most similar open plan or
 * commitment (done / instead -> UPDATE, cancelled -> DELETE); retraction -> DELETE of the matching current facts;
 * same slot with the same value or a near-duplicate -> KEEP; same slot with another value -> UPDATE;
 * anything else -> ADD. A retraction that matches nothing is added, so nothing is lost.
 */
export class RuleDecider implements Decider {
  readonly #dup: number;
  readonly #retract: number;
  readonly #settle: number;

  constructor(options: RuleDeciderOptions = {}) {
    this.#dup = options.duplicateCosine ?? 0.9;
    this.#retract = options.retractCosine ?? 0.55;
    this.#settle = options.settleCosine ?? 0.4;
  }

  async decide({ fact, candidates, retractedFacts }: DecisionInput): Promise<Decision> {
    if (fact.settles && !fact.retractsUtteranceIds) {
      const open = candidates.find((c) => (SETTLEABLE.has(c.fact.kind) || isIntention(c.fact.content)) && c.score >= this.#settle);
      if (open) return fact.settles === 'cancelled' ? { op: 'DELETE', targetIds: [open.fact.id] } : { op: 'UPDATE', targetId: open.fact.id };
    }
    if (fact.retraction) {
      if (fact.retractsUtteranceIds) {
        return retractedFacts.length > 0 ? { op: 'DELETE', targetIds: retractedFacts.map((f) => f.id) } : { op: 'ADD' };
      }
      const bySlot = fact.slot ? candidates.filter((c) => c.fact.slot === fact.slot) : [];
      if (bySlot.length > 0) return { op: 'DELETE', targetIds: bySlot.map((c) => c.fact.id) };
      const near = candidates.find((c) => c.fact.kind === fact.kind && c.score >= this.#retract);
      return near ? { op: 'DELETE', targetIds: [near.fact.id] } : { op: 'ADD' };
    }
    if (fact.slot) {
      const same = candidates.find((c) => c.fact.slot === fact.slot);
      if (same) {
        return norm(same.fact.value) === norm(fact.value) ? { op: 'KEEP', targetId: same.fact.id }
          : { op: 'UPDATE', targetId: same.fact.id };
      }
    }
    const dup = candidates.find((c) => c.score >= this.#dup && c.fact.kind === fact.kind
      && (c.fact.slot === null || fact.slot === null || c.fact.slot === fact.slot));
    return dup ? { op: 'KEEP', targetId: dup.fact.id } : { op: 'ADD' };
  }
}
