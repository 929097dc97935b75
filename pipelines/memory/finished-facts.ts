/**
 * What every extractor's facts go through before consolidation (llmpath), so the rules' extractor and an LLM's give facts
 * alike: text a person would write (no ISO day glued on, a statement at most 300 characters: rules 45–49) and the slots
 * the rules key (a liked thing without its possessive, each order number a slot of its own). Both `EmbeddedExtractor`
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

/** `update` with an identifier attribute keyed as its fact's slot ("order_number" = "45721" → `order_number:45721`). */
function finishedUpdate(update: ProfileUpdate, said: string): ProfileUpdate {
  const identifier = keyedIdentifier(update.attribute, update.value, said);
  return identifier ? { ...update, attribute: identifier.slot, value: identifier.value } : update;
}

/** `result` with every fact finished (`finishedFact`) and identifier attributes keyed as their facts. */
export function finishedExtraction(result: ExtractionResult, input: ExtractionInput): ExtractionResult {
  const { text, time } = input.current;
  return {
    facts: result.facts.flatMap((f) => finishedFact(f, text, time)),
    profileUpdates: result.profileUpdates.map((p) => finishedUpdate(p, text)),
  };
}
