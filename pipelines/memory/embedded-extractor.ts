import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import type { ProfileUpdate } from '../../graph/memory-store.js';
import { applyRules, type RuleContext, type RuleFact } from './embedded-rules.js';
import type { ExtractedFact, ExtractionInput, ExtractionResult, Extractor } from './extractor.js';
import { resolvePronouns, type Perspective } from './pronouns.js';
import { annotateDates } from './relative-date.js';

/** Prompt-free rule set version, recorded on every fact as `embedded-rules/<n>`. */
export const EMBEDDED_RULES_VERSION = 1;

const RETRACT_ALL = /^(?:(?:oh|ah|sorry|wait|actually|no),?\s+)*(?:please\s+)?(?:cancel|forget|scratch|ignore|disregard)\s+(?:that|it|what i said|the last thing)\b|^(?:oh,?\s+)?never ?mind\b/i;
const NEGATION_MARKER = /\b(?:anymore|any more|no longer|after all)\b/i;

/** Turn a withdrawn statement into its positive form so the rules find the slot it withdraws. */
function positiveForm(s: string): string {
  return s
    .replace(/\bno longer\s+/i, '')
    .replace(/\b(?:don['’]t|do not|doesn['’]t|does not|didn['’]t|won['’]t)\s+/i, '')
    .replace(/\b(am|['’]m|is|are)\s+not\b/i, '$1')
    .replace(/\s*,?\s*\b(?:anymore|any more|after all)\b/i, '');
}

/**
 * Joint fact / profile extraction without an LLM: wink-nlp sentence splitting and POS tags, plus
 * hand-written rules for introductions, preferences, plans and dates, commitments and requests,
 * relations between people, and background. Relative dates are resolved against the utterance time.
 */
export class EmbeddedExtractor implements Extractor {
  readonly source = `embedded-rules/${EMBEDDED_RULES_VERSION}`;
  readonly #nlp = winkNLP(model);

  async extract(input: ExtractionInput): Promise<ExtractionResult> {
    const u = input.current;
    const names = { ...input.names };
    const display = (id: string): string => names[id] ?? id;
    const facts: ExtractedFact[] = [];
    const profileUpdates: ProfileUpdate[] = [];
    const sentences = this.#sentences(u.text);

    // Names first, so every other fact of this turn can use the name just introduced.
    for (const sentence of sentences) {
      for (const f of applyRules(this.#ctx(sentence, u.speakerId, u.addresseeIds, display), [])) {
        if (f.slot === 'name' && f.value) names[u.speakerId] = f.value;
      }
    }
    const who = (): Perspective => ({ speaker: display(u.speakerId), addressees: u.addresseeIds.map(display) });

    for (const raw of sentences) {
      if (RETRACT_ALL.test(raw)) {
        const earlier = [...input.previous].reverse().find((p) => p.speakerId === u.speakerId);
        if (earlier) {
          facts.push(this.#fact(u, { content: `${display(u.speakerId)} withdrew: ${resolvePronouns(earlier.text, who())}`,
            kind: 'statement', subject: 'speaker', slot: null, value: null, confidence: 0.7 }, true, [earlier.id]));
        }
        continue;
      }
      const { text, dates } = annotateDates(raw, u.time);
      const retraction = NEGATION_MARKER.test(text);
      const ruleText = retraction ? positiveForm(text) : text;
      const found = applyRules(this.#ctx(ruleText, u.speakerId, u.addresseeIds, display), dates);
      for (const f of found) {
        if (retraction && f.slot === 'name') continue;
        const rf = retraction ? { ...f, content: resolvePronouns(text.replace(/[.!]+$/, ''), who()) } : f;
        facts.push(this.#fact(u, rf, retraction));
        if (!retraction && f.profile) {
          profileUpdates.push({ participantId: this.#subjectId(u, f), attribute: f.profile.attribute,
            value: f.profile.value, referIds: [u.id], confidence: f.confidence });
        }
      }
    }
    return { facts, profileUpdates };
  }

  #sentences(text: string): string[] {
    return this.#nlp.readDoc(text).sentences().out().map((s) => s.trim()).filter((s) => s.length > 0);
  }

  #ctx(sentence: string, speakerId: string, addresseeIds: string[], display: (id: string) => string): RuleContext {
    return {
      sentence, speakerId, addresseeIds,
      who: { speaker: display(speakerId), addressees: addresseeIds.map(display) },
      isNounPhrase: (phrase) => {
        const pos = this.#nlp.readDoc(phrase).tokens().out(this.#nlp.its.pos);
        return pos.length > 0 && ['NOUN', 'PROPN'].includes(pos[pos.length - 1] ?? '');
      },
    };
  }

  #subjectId(u: ExtractionInput['current'], f: RuleFact): string {
    if (f.subject === 'speaker') return u.speakerId;
    if (f.subject === 'addressee') return u.addresseeIds[0] ?? u.speakerId;
    return f.subject;
  }

  #fact(u: ExtractionInput['current'], f: RuleFact, retraction: boolean, retracts?: string[]): ExtractedFact {
    return {
      content: f.content, kind: f.kind, subjectId: this.#subjectId(u, f), speakerId: u.speakerId,
      addresseeIds: u.addresseeIds, slot: f.slot, value: f.value, retraction, confidence: f.confidence,
      referIds: [u.id], ...(retracts ? { retractsUtteranceIds: retracts } : {}),
    };
  }
}
