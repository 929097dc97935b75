import type { FactKind, ProfileUpdate } from '../../graph/memory-store.js';
import type { ExtractedFact, ExtractionInput, ExtractionResult, Extractor } from './extractor.js';
import { LlmJsonClient } from './llm-client.js';
import { FACTS_PROMPT_VERSION, FACTS_SCHEMA, FACTS_SYSTEM_PROMPT } from './llm-prompts.js';
import { UNNAMED } from './extractor.js';

interface FactsReply {
  facts: Array<{ content: string; kind: FactKind; subject: string; slot: string | null; value: string | null; retraction: boolean; confidence: number }>;
  profile_updates: Array<{ participant: string; attribute: string; value: string }>;
}

const KINDS = new Set<FactKind>(['statement', 'preference', 'plan', 'commitment', 'request', 'relation', 'profile']);

/** Joint fact / profile extraction by an LLM behind any OpenAI-compatible endpoint. */
export class LlmExtractor implements Extractor {
  readonly source = `llm/${FACTS_PROMPT_VERSION}`;

  constructor(private readonly llm: LlmJsonClient) {}

  async extract(input: ExtractionInput): Promise<ExtractionResult> {
    const u = input.current;
    // The id is there for the reply's `subject` field; the text uses the name (consolidation also
    // replaces any id that slips into a fact's text).
    const label = (id: string): string => `${input.names[id] ?? input.unnamed?.[id] ?? UNNAMED} (${id})`;
    const line = (x: typeof u): string =>
      `[${x.time}] ${label(x.speakerId)} -> ${x.addresseeIds.map(label).join(', ') || 'everyone'}: ${x.text}`;
    const user = [
      'EARLIER TURNS:', ...input.previous.map(line), '', 'CURRENT TURN:', line(u),
    ].join('\n');
    const reply = await this.llm.complete<FactsReply>('memory_facts', FACTS_SYSTEM_PROMPT, user, FACTS_SCHEMA);
    const known = new Set([u.speakerId, ...u.addresseeIds, ...input.previous.map((p) => p.speakerId)]);
    const facts: ExtractedFact[] = (reply.facts ?? []).filter((f) => f.content && KINDS.has(f.kind)).map((f) => ({
      content: f.content, kind: f.kind,
      subjectId: known.has(f.subject) || f.subject.startsWith('entity:') ? f.subject : u.speakerId,
      speakerId: u.speakerId, addresseeIds: u.addresseeIds, slot: f.slot ?? null, value: f.value ?? null,
      retraction: f.retraction === true, confidence: Math.min(1, Math.max(0, Number(f.confidence) || 0.5)),
      referIds: [u.id],
    }));
    const profileUpdates: ProfileUpdate[] = (reply.profile_updates ?? [])
      .filter((p) => known.has(p.participant) && p.attribute && p.value)
      .map((p) => ({ participantId: p.participant, attribute: p.attribute, value: p.value, referIds: [u.id], confidence: 0.8 }));
    return { facts, profileUpdates };
  }
}
