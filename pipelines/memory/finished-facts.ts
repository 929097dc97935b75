/**
 * What every extractor's facts go through before consolidation (llmpath), so the rules' extractor and an LLM's give facts
 * alike: text a person would write (no ISO day glued on, a statement at most 300 characters: rules 45–49) and the slots
 * the rules key (a liked thing without its possessive, each order number a slot of its own, a self-introduction `name`). Both `EmbeddedExtractor`
 * and `LlmExtractor` end with `finishedExtraction`; what the rules already wrote so it passes unchanged.
 */
import type { ProfileUpdate } from '../../graph/memory-store.js';
import { clauseCapped } from './clause-cap.js';
import type { ExtractedFact, ExtractionInput, ExtractionResult } from './extractor.js';
import { withoutGluedDates } from './glued-dates.js';
import { keyedIdentifier } from './identifiers.js';
import { canonicalSlot } from './thing-keys.js';

/**
 * `fact` as a person would write it and keyed as the rules key it; none when it is a statement too long to record
 * (`clauseCapped`: no clause bound within 300 characters). `said` is the turn's text, `time` its ISO time.
 */
export function finishedFact(fact: ExtractedFact, said: string, time: string): ExtractedFact[] {
  const { text, days } = withoutGluedDates(fact.content, time);
  const content = fact.kind === 'statement' ? clauseCapped(text) : text;
  if (content === null) return [];
  const out: ExtractedFact = { ...fact, content };
  // The day the LLM resolved is the fact's date, as the rules give it (a field, not text).
  if (days.length === 1 && (fact.eventTime === undefined || fact.eventTime === null)) out.eventTime = days[0]!;
  const identifier = keyedIdentifier(fact.slot, fact.value, said);
  if (identifier) {
    out.slot = identifier.slot;
    out.value = identifier.value;
    if (identifier.replaces && fact.endsSlot === undefined) out.endsSlot = identifier.replaces;
  } else out.slot = canonicalSlot(fact.slot);
  return [out];
}

/** Words that tell a self-introduction ("Sarah introduced herself", "Sarah's name is Sarah", "Sarah goes by Sal"). */
const INTRODUCED = /\bintroduc(?:ed|es|ing)\b|\bname\s+is\b|\bis\s+called\b|\bgoes\s+by\b/i;

/** A fact that only tells a self-introduction, in a model's words ("Sarah introduced herself", "Sarah's name is Sarah."). */
const ONLY_INTRODUCED = /^[\p{L}\p{M}'’. -]+?(?:\s+introduced\s+(?:themself|themselves|himself|herself)|['’]s\s+name\s+is\s+[\p{L}\p{M}'’. -]+?)\s*\.?$/u;

/**
 * `fact` as the self-introduction it tells, slot `name` and value the name, as the rules write one, when the turn's
 * profile updates name its subject (`named`: participant id → name) and it fills no slot: a self-introduction answers
 * only a question about names and takes no place in `memory.context` (fix9, self-introduction.ts), found by its slot.
 * A fact that tells nothing else is written as the rules write it, "The speaker's name is Sarah" (rules 69, facts-v13).
 */
function asIntroduction(fact: ExtractedFact, named: ReadonlyMap<string, string>): ExtractedFact {
  const name = named.get(fact.subjectId);
  if (name === undefined || fact.slot !== null || fact.retraction || !INTRODUCED.test(fact.content)) return fact;
  const content = ONLY_INTRODUCED.test(fact.content.trim()) ? `The speaker's name is ${name}` : fact.content;
  return { ...fact, content, kind: 'profile', slot: 'name', value: name };
}

/** `update` with an identifier attribute keyed as its fact's slot ("order_number" = "45721" → `order_number:45721`). */
function finishedUpdate(update: ProfileUpdate, said: string): ProfileUpdate {
  const identifier = keyedIdentifier(update.attribute, update.value, said);
  return identifier ? { ...update, attribute: identifier.slot, value: identifier.value } : update;
}

/**
 * `result` with every fact finished (`finishedFact`), a self-introduction given its slot (`asIntroduction`) and
 * identifier attributes keyed as their facts.
 */
export function finishedExtraction(result: ExtractionResult, input: ExtractionInput): ExtractionResult {
  const { text, time } = input.current;
  const named = new Map(result.profileUpdates.filter((p) => p.attribute === 'name').map((p) => [p.participantId, p.value]));
  return {
    facts: result.facts.flatMap((f) => finishedFact(asIntroduction(f, named), text, time)),
    profileUpdates: result.profileUpdates.map((p) => finishedUpdate(p, text)),
  };
}
