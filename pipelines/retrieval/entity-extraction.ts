import { wink } from '../wink.js';
import { MONTH_NAME } from '../memory/months.js';

/** An entity mention found in a text. */
export interface EntityMention {
  /** The name as written ("Acme Corp", "project draft"). */
  name: string;
  /** True for proper-noun runs (names of people, places, organisations). */
  proper: boolean;
}

/** Nouns too generic to be a spine of memory. */
const GENERIC = new Set(
  ('thing things time times way ways lot lots day days year years week weeks month months bit kind sort ' +
    'stuff something anything everything nothing someone anyone everyone people person guy guys one ones ' +
    'hey hi hello yeah yes ok okay lol wow thanks thank idea part fact point today tomorrow yesterday morning night ' +
    'monday tuesday wednesday thursday friday saturday sunday').split(' ').concat(MONTH_NAME.split('|')),
);

const MAX_WORDS = 3;

/**
 * Entity mentions without an LLM: runs of proper nouns, and runs of common nouns (at most three
 * words, generic nouns dropped), using wink-nlp's part-of-speech tags. Deterministic.
 */
export class EntityExtractor {
  readonly #nlp = wink();

  /** Mentions in order of first appearance, de-duplicated case-insensitively. */
  extract(text: string): EntityMention[] {
    const its = this.#nlp.its;
    const doc = this.#nlp.readDoc(text);
    const words = doc.tokens().out();
    const pos = doc.tokens().out(its.pos);
    const out: EntityMention[] = [];
    const seen = new Set<string>();
    const push = (run: string[], proper: boolean): void => {
      const kept = run.filter((w) => !GENERIC.has(w.toLowerCase())).slice(-MAX_WORDS);
      if (kept.length === 0) return;
      const name = kept.join(' ');
      const key = name.toLowerCase();
      if (key.length < 2 || seen.has(key) || !/\p{L}/u.test(key)) return;
      seen.add(key);
      out.push({ name, proper });
    };
    let run: string[] = [];
    let runTag: 'PROPN' | 'NOUN' | null = null;
    const flush = (): void => {
      if (runTag) push(run, runTag === 'PROPN');
      run = [];
      runTag = null;
    };
    for (let i = 0; i < words.length; i++) {
      const tag = pos[i];
      const word = words[i] ?? '';
      const kind = tag === 'PROPN' ? 'PROPN' : tag === 'NOUN' ? 'NOUN' : null;
      if (!kind || !/^[\p{L}\p{N}'’-]+$/u.test(word)) {
        flush();
        continue;
      }
      if (runTag !== kind) flush();
      runTag = kind;
      run.push(word);
    }
    flush();
    return out;
  }
}
