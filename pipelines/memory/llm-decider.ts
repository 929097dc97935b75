import type { Logger } from 'pino';
import { identifierDecision, type Candidate, type Decider, type Decision, type DecisionInput } from './decide.js';
import type { ExtractedFact } from './extractor.js';
import { LlmJsonClient } from './llm-client.js';
import { DECIDE_SCHEMA, DECIDE_SYSTEM_PROMPT } from './llm-prompts.js';
import { FOR_NOW_PREFERENCE } from './temporary-slots.js';

/** The decision as the model writes it (`DECIDE_SCHEMA`); every field may be missing from a bad reply. */
interface DecisionReply {
  op?: Decision['op'];
  ids?: unknown;
  also_replaces?: unknown;
}

/** The strings of a reply's id list; anything else (a number, an object, no list) is none. */
function idList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
}

/**
 * The ids of `alsoReplaces` a replacement may close with its target, as `RuleDecider` closes them (rules 35, 37): current
 * facts among the candidates, of the new fact's subject, whose slot is the new fact's ("I'm back on coffee" replaces
 * each stored copy of the liking), and the one value held for now when the target is not it. Another value held for
 * now, or a fact only of the target's slot, is refused, as is any other id; each refused id is named in `refused`.
 */
export function validAlsoReplaces(fact: ExtractedFact, target: Candidate['fact'], candidates: Candidate[], ids: string[]): { kept: string[]; refused: string[] } {
  const current = candidates.map((c) => c.fact).filter((f) => f.id !== target.id && f.validTo === null && f.subjectId === fact.subjectId);
  const forNow = target.slot === FOR_NOW_PREFERENCE ? [] : current.filter((f) => f.slot === FOR_NOW_PREFERENCE);
  const ok = new Set([...current.filter((f) => fact.slot !== null && f.slot === fact.slot), ...(forNow.length === 1 ? forNow : [])].map((f) => f.id));
  const kept = [...new Set(ids.filter((id) => ok.has(id)))];
  return { kept, refused: ids.filter((id) => !ok.has(id)) };
}

/** True for a withdrawal that names a value of a slot ("Ana is not a photographer anymore", "Ana left tesco"). */
function namesValue(fact: ExtractedFact): boolean {
  return fact.retraction && fact.slot !== null && fact.value !== null;
}

/**
 * ADD / UPDATE / DELETE / KEEP / NOOP decided by an LLM. NOOP (store and end nothing) is taken only for a withdrawal
 * that names a value (`namesValue`), as `RuleDecider` gives it; for anything else it is refused and the fact added. Ids the model invents are ignored; an unusable answer falls back to ADD
 * so nothing is lost. An UPDATE may name further facts it replaces (`also_replaces`, a liking said again): only current
 * facts of the same subject and slot, and the value held for now, are kept (`validAlsoReplaces`), the rest refused with a log line.
 */
export class LlmDecider implements Decider {
  constructor(private readonly llm: LlmJsonClient, private readonly logger?: Logger) {}

  async decide(input: DecisionInput): Promise<Decision> {
    const existing = [...input.retractedFacts.map((f) => ({ fact: f, score: 1 })), ...input.candidates];
    if (existing.length === 0) return { op: 'ADD' };
    // Order numbers accumulate, and one said as new replaces them, as the rules decide (rules 49): no model asked.
    const identified = identifierDecision(input.fact, input.candidates);
    if (identified) return identified;
    const user = [
      `NEW (${input.fact.retraction ? 'withdraws something' : 'statement'}; slot ${input.fact.slot ?? 'none'}): ${input.fact.content}`,
      'EXISTING:', ...existing.map((c) => `${c.fact.id}: ${c.fact.content} [slot ${c.fact.slot ?? 'none'}]`),
    ].join('\n');
    const answer = await this.llm.complete<DecisionReply | null>('memory_decision', DECIDE_SYSTEM_PROMPT, user, DECIDE_SCHEMA);
    // A reply that is no object (`null`, a list, a string) decides nothing: ADD below.
    const reply: DecisionReply = answer !== null && typeof answer === 'object' && !Array.isArray(answer) ? answer : {};
    const valid = new Set(existing.map((c) => c.fact.id));
    const ids = [...new Set(idList(reply.ids).filter((id) => valid.has(id)))];
    const first = ids[0];
    if (reply.op === 'DELETE' && ids.length > 0) return { op: 'DELETE', targetIds: ids };
    if (reply.op === 'UPDATE' && first) {
      const target = existing.find((c) => c.fact.id === first)!.fact;
      const { kept, refused } = validAlsoReplaces(input.fact, target, input.candidates, idList(reply.also_replaces));
      if (refused.length > 0) {
        this.logger?.warn({ targetId: first, refused, slot: input.fact.slot }, 'LLM decision: also_replaces ids that are no current fact of the same subject and slot refused');
      }
      return kept.length > 0 ? { op: 'UPDATE', targetId: first, alsoReplaces: kept } : { op: 'UPDATE', targetId: first };
    }
    if (reply.op === 'KEEP' && first) return { op: 'KEEP', targetId: first };
    // "Store nothing" (decide-v5): only for a withdrawal of a named value, which no EXISTING fact holds (the model said
    // so); anything else told is added, so a bad reply never drops what was said.
    if (reply.op === 'NOOP') {
      if (namesValue(input.fact)) return { op: 'NOOP', reason: 'value_not_held' };
      this.logger?.warn({ slot: input.fact.slot, retraction: input.fact.retraction }, 'LLM decision: NOOP for a fact that withdraws no named value refused, added');
    }
    return { op: 'ADD' };
  }
}
