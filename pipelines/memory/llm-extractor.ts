import type { FactKind, PlanObject, ProfileUpdate } from '../../graph/memory-store.js';
import type { ExtractedFact, ExtractionInput, ExtractionResult, Extractor } from './extractor.js';
import { LlmJsonClient } from './llm-client.js';
import { FACTS_PROMPT_VERSION, FACTS_SCHEMA, FACTS_SYSTEM_PROMPT, SETTLES } from './llm-prompts.js';
import { UNNAMED } from './extractor.js';
import { stateEnd } from './state-end.js';
import { STAY_SLOT } from './stays.js';
import { staySpan } from './stay-span.js';
import { DEFAULT_ASSISTANT_NAMES } from '../interaction/non-person-labels.js';
import { withoutAssistant } from './assistant-names.js';
import { finishedExtraction } from './finished-facts.js';
import { DAY_MS } from '../../graph/core/time.js';
import { calendarDayStart } from './calendar-day.js';
import { spokenValue, withSpokenValues } from './spoken-values.js';
import { calledAddressee } from './called-addressee.js';

interface PlanObjectReply {
  verb?: unknown; objects?: unknown; complements?: unknown; people?: unknown; reported_by?: unknown; which?: unknown; past?: unknown;
}

interface FactsReply {
  facts: Array<{ content: string; kind: FactKind; subject: string; slot: string | null; value: string | null; retraction: boolean; confidence: number;
    valid_until?: unknown; valid_from?: unknown; settles?: unknown; plan_object?: PlanObjectReply | null }>;
  profile_updates: Array<{ participant: string; attribute: string; value: string }>;
}

const KINDS = new Set<FactKind>(['statement', 'preference', 'plan', 'commitment', 'request', 'relation', 'profile']);

/** One word of a plan object as the rules write it: lower-case, trimmed, no article or possessive; null when it is not a word. */
function word(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const w = v.trim().toLowerCase().replace(/^(?:the|a|an|my|our|your|his|her|their)\s+/, '').replace(/['’]s$/, '').replace(/\s+/g, '_');
  return /^[\p{L}\p{N}][\p{L}\p{N}_'’-]{0,39}$/u.test(w) ? w : null;
}

function words(v: unknown): string[] {
  return Array.isArray(v) ? [...new Set(v.map(word).filter((w): w is string => w !== null))].slice(0, 8) : [];
}

/**
 * The reply's `plan_object` as a `PlanObject`, or null when absent, not an object, or naming nothing
 * (no verb, object or complement): consolidation then matches the outcome by shared words, as for a
 * fact stored before plan objects. Words the model wrote in another shape are dropped, not guessed at.
 */
export function parsePlanObject(raw: unknown): PlanObject | null {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const r = raw as PlanObjectReply;
  const verb = word(r.verb);
  const out: PlanObject = { verb, objects: words(r.objects), complements: words(r.complements) };
  if (out.verb === null && out.objects.length === 0 && out.complements.length === 0) return null;
  // "give_back": the verb and its particle, for WordNet's phrasal verbs, as the rules write them.
  if (verb?.includes('_')) { out.verb = verb.split('_')[0]!; out.phrasal = verb; }
  const people = words(r.people);
  if (people.length > 0) out.people = people;
  // "the kitchen tap" / "the tap in the kitchen": which one of its kind (`PlanObject.which`); absent when not said.
  const which = words(r.which);
  if (which.length > 0) out.which = which;
  const by = word(r.reported_by);
  if (by !== null) out.reportedBy = by;
  if (r.past === true) { out.past = true; if (out.verb !== null) out.actionNamed = true; }
  return out;
}

/**
 * The reply's `valid_until` (the last day a state holds, `YYYY-MM-DD`) as the fact's exclusive end (`validUntil`: the
 * start of the day after, UTC), or undefined when absent, not a date, or not after the turn's `time`: consolidation
 * then reads the end from the fact's text (`stateEnd`), as for a reply without the field.
 */
export function parseValidUntil(raw: unknown, time: string): string | undefined {
  const day = typeof raw === 'string' ? calendarDayStart(raw.trim()) : null;
  if (day === null) return undefined;
  const end = day + DAY_MS;
  return end > Date.parse(time) ? new Date(end).toISOString() : undefined;
}

/**
 * The reply's `valid_from` (the first day a state said ahead holds, `YYYY-MM-DD`) as the fact's start (`validFrom`:
 * midnight UTC of that day), or undefined when absent, not a day, or not after `time` (a state that holds already
 * holds from when it was said).
 */
export function parseValidFrom(raw: unknown, time: string): string | undefined {
  const day = typeof raw === 'string' ? calendarDayStart(raw.trim()) : null;
  return day !== null && day > Date.parse(time) ? new Date(day).toISOString() : undefined;
}

function settlesOf(v: unknown): ExtractedFact['settles'] | undefined {
  return (SETTLES as readonly unknown[]).includes(v) ? (v as ExtractedFact['settles']) : undefined;
}

/** Options of {@link LlmExtractor}. */
export interface LlmExtractorOptions {
  /**
   * The names the assistant listening is called by (`PARLEY_ASSISTANT_NAMES`; default `DEFAULT_ASSISTANT_NAMES`), as for
   * the embedded extractor: taken out of the turn (`withoutAssistant`) and told to the model. Empty: none.
   */
  assistantNames?: readonly string[];
}

/**
 * Joint fact / profile extraction by an LLM behind any OpenAI-compatible endpoint. The turn is prepared as the rules'
 * extractor prepares it (the assistant called by name taken out) and the reply's facts finished as the rules' are
 * (`finishedExtraction`).
 */
export class LlmExtractor implements Extractor {
  readonly source = `llm/${FACTS_PROMPT_VERSION}`;
  readonly #assistants: readonly string[];

  constructor(private readonly llm: LlmJsonClient, options: LlmExtractorOptions = {}) {
    this.#assistants = options.assistantNames ?? DEFAULT_ASSISTANT_NAMES;
  }

  async extract(said: ExtractionInput): Promise<ExtractionResult> {
    // "Robot, we are going to grandma's": the assistant called is no listener and no one's "we" (fix9), as for the rules.
    const input = withoutAssistant(said, this.#assistants);
    return finishedExtraction(await this.#extract(input), input);
  }

  async #extract(input: ExtractionInput): Promise<ExtractionResult> {
    const u = input.current;
    // The id is there for the reply's `subject` field; the text uses the name (consolidation also
    // replaces any id that slips into a fact's text).
    const label = (id: string): string => `${input.names[id] ?? input.unnamed?.[id] ?? UNNAMED} (${id})`;
    const line = (x: typeof u): string =>
      `[${x.time}] ${label(x.speakerId)} -> ${x.addresseeIds.map(label).join(', ') || 'everyone'}: ${x.text}`;
    const user = [
      ...(this.#assistants.length > 0 ? [`ASSISTANT NAMES: ${this.#assistants.join(', ')}`, ''] : []),
      'EARLIER TURNS:', ...input.previous.map(line), '', 'CURRENT TURN:', line(u),
    ].join('\n');
    const reply = await this.llm.complete<FactsReply>('memory_facts', FACTS_SYSTEM_PROMPT, user, FACTS_SCHEMA);
    const known = new Set([u.speakerId, ...u.addresseeIds, ...input.previous.map((p) => p.speakerId)]);
    // "Tom, I changed your order to size 56", said to Maria and Tom: the facts are said to Tom, as the rules read it (rules
    // 63), so a change told to him looks for his facts alone; the model is shown everyone addressed, for "we".
    const called = calledAddressee(input);
    const addresseeIds = called ? [called] : u.addresseeIds;
    // "Ben's phone number is five five five oh one four two": a value said in words kept in digits, as the rules keep it (rules 55).
    const facts: ExtractedFact[] = (reply.facts ?? []).filter((f) => f.content && KINDS.has(f.kind)).map((f) => ({
      ...f, content: withSpokenValues(f.content), value: typeof f.value === 'string' ? spokenValue(f.value) : f.value,
    })).map((f) => {
      const settles = settlesOf(f.settles);
      const validUntil = parseValidUntil(f.valid_until, u.time);
      // A stay said ahead holds from its start: the reply's, else read from the turn as the rules read it (rules 31).
      const validFrom = parseValidFrom(f.valid_from, u.time) ?? (f.slot === STAY_SLOT ? staySpan(u.text, u.time)?.start ?? undefined : undefined);
      // A stay with no end, by the reply or its text, is no stay beside a home: it would never end (as the rules 27 read it).
      // A liked thing is keyed as the rules key it by `finishedExtraction` ("preference:Video Games" -> "preference:video game").
      const slot = f.slot === STAY_SLOT && (validUntil ?? stateEnd(f.content, u.time)) === null ? null : f.slot ?? null;
      return {
        content: f.content, kind: f.kind,
        subjectId: known.has(f.subject) || f.subject.startsWith('entity:') ? f.subject : u.speakerId,
        speakerId: u.speakerId, addresseeIds, slot, value: slot === null && f.slot === STAY_SLOT ? null : f.value ?? null,
        ...(validUntil !== undefined ? { validUntil } : {}),
        ...(validFrom !== undefined && validFrom > u.time ? { validFrom } : {}),
        retraction: f.retraction === true, confidence: Math.min(1, Math.max(0, Number(f.confidence) || 0.5)),
        referIds: [u.id], planObject: parsePlanObject(f.plan_object),
        // An outcome settles only an open plan: a slotted fact (a move, a new job) changes its slot instead.
        ...(settles && !slot ? { settles } : {}),
      };
    });
    // A state said ahead does not hold yet: no attribute now (its derived attribute reads it from its start).
    const ahead = new Set(facts.filter((f) => f.validFrom !== undefined && f.slot !== null).map((f) => `${f.subjectId}\u0000${f.slot}`));
    const profileUpdates: ProfileUpdate[] = (reply.profile_updates ?? [])
      .filter((p) => known.has(p.participant) && p.attribute && p.value && !ahead.has(`${p.participant}\u0000${p.attribute}`))
      .map((p) => ({ participantId: p.participant, attribute: p.attribute, value: typeof p.value === 'string' ? spokenValue(p.value) : p.value, referIds: [u.id], confidence: 0.8 }));
    return { facts, profileUpdates };
  }
}
