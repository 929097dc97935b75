import type { Decider, Decision, DecisionInput } from './decide.js';
import { LlmJsonClient } from './llm-client.js';
import { DECIDE_SCHEMA, DECIDE_SYSTEM_PROMPT } from './llm-prompts.js';

/**
 * ADD / UPDATE / DELETE / KEEP decided by an LLM. Ids the model invents are ignored; an unusable
 * answer falls back to ADD so nothing is lost.
 */
export class LlmDecider implements Decider {
  constructor(private readonly llm: LlmJsonClient) {}

  async decide(input: DecisionInput): Promise<Decision> {
    const existing = [...input.retractedFacts.map((f) => ({ fact: f, score: 1 })), ...input.candidates];
    if (existing.length === 0) return { op: 'ADD' };
    const user = [
      `NEW (${input.fact.retraction ? 'withdraws something' : 'statement'}): ${input.fact.content}`,
      'EXISTING:', ...existing.map((c) => `${c.fact.id}: ${c.fact.content}`),
    ].join('\n');
    const reply = await this.llm.complete<{ op: Decision['op']; ids: string[] }>('memory_decision', DECIDE_SYSTEM_PROMPT, user, DECIDE_SCHEMA);
    const valid = new Set(existing.map((c) => c.fact.id));
    const ids = (reply.ids ?? []).filter((id) => valid.has(id));
    const first = ids[0];
    if (reply.op === 'DELETE' && ids.length > 0) return { op: 'DELETE', targetIds: ids };
    if (reply.op === 'UPDATE' && first) return { op: 'UPDATE', targetId: first };
    if (reply.op === 'KEEP' && first) return { op: 'KEEP', targetId: first };
    return { op: 'ADD' };
  }
}
