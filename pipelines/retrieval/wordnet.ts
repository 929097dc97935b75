import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';

/** Where Debian's `wordnet-base` package puts the WordNet 3.0 database. */
export const DEFAULT_WORDNET_DIR = '/usr/share/wordnet';

const POS = ['noun', 'verb', 'adj', 'adv'] as const;
type Pos = (typeof POS)[number];

/** Suffix rules of WordNet's morphology (morphy): inflected ending → base ending, per part of speech. */
const DETACH: Record<Pos, [string, string][]> = {
  noun: [['ses', 's'], ['xes', 'x'], ['zes', 'z'], ['ches', 'ch'], ['shes', 'sh'], ['men', 'man'], ['ies', 'y'], ['s', '']],
  verb: [['ies', 'y'], ['es', 'e'], ['es', ''], ['ed', 'e'], ['ed', ''], ['ing', 'e'], ['ing', ''], ['s', '']],
  adj: [['er', ''], ['est', ''], ['er', 'e'], ['est', 'e']],
  adv: [],
};

/** Options of `synonymsOf`. */
export interface SynonymOptions {
  /** Senses read per part of speech, most frequent first; default 1. */
  senses?: number;
  /** Most synonyms per word; default 3. */
  perWord?: number;
}

/**
 * Synonyms from a local WordNet database (the `index.*`, `data.*` and `*.exc` files). The index is
 * read lazily on first use; synset lines are read from the data files by their byte offset. When the
 * directory holds no WordNet, `available` is false and every lookup returns no synonyms.
 */
export class WordNet {
  readonly available: boolean;
  #index: Map<Pos, Map<string, number[]>> | null = null;
  #exceptions: Map<Pos, Map<string, string[]>> | null = null;
  #fds = new Map<Pos, number>();
  readonly #cache = new Map<string, string[]>();

  constructor(readonly dir: string = DEFAULT_WORDNET_DIR) {
    this.available = POS.some((p) => existsSync(path.join(dir, `index.${p}`)) && existsSync(path.join(dir, `data.${p}`)));
  }

  #load(): void {
    if (this.#index) return;
    this.#index = new Map();
    this.#exceptions = new Map();
    for (const pos of POS) {
      const byLemma = new Map<string, number[]>();
      const file = path.join(this.dir, `index.${pos}`);
      if (existsSync(file) && existsSync(path.join(this.dir, `data.${pos}`))) {
        for (const line of readFileSync(file, 'utf8').split('\n')) {
          if (line === '' || line.startsWith(' ')) continue; // the licence header starts with spaces
          // lemma pos synset_cnt p_cnt [ptr_symbol…] sense_cnt tagsense_cnt synset_offset…
          const f = line.trim().split(' ');
          const synsets = Number(f[2]);
          const pointers = Number(f[3]);
          const offsets = f.slice(4 + pointers + 2, 4 + pointers + 2 + synsets).map(Number).filter(Number.isFinite);
          if (offsets.length > 0) byLemma.set(f[0] as string, offsets);
        }
      }
      this.#index.set(pos, byLemma);
      const exc = new Map<string, string[]>();
      const excFile = path.join(this.dir, `${pos}.exc`);
      if (existsSync(excFile)) {
        for (const line of readFileSync(excFile, 'utf8').split('\n')) {
          const [inflected, ...bases] = line.trim().split(' ');
          if (inflected && bases.length > 0) exc.set(inflected, bases);
        }
      }
      this.#exceptions.set(pos, exc);
    }
  }

  /** Base forms of `word` that WordNet lists for `pos` (the word itself first when listed). */
  baseForms(word: string, pos: Pos): string[] {
    this.#load();
    const index = this.#index!.get(pos)!;
    const out = new Set<string>();
    if (index.has(word)) out.add(word);
    for (const b of this.#exceptions!.get(pos)!.get(word) ?? []) if (index.has(b)) out.add(b);
    for (const [from, to] of DETACH[pos]) {
      if (word.length > from.length + 1 && word.endsWith(from)) {
        const b = word.slice(0, word.length - from.length) + to;
        if (index.has(b)) out.add(b);
      }
    }
    return [...out];
  }

  /** The words of the synset at `offset` in `data.<pos>` (multi-word lemmas with spaces). */
  #synset(pos: Pos, offset: number): string[] {
    let fd = this.#fds.get(pos);
    if (fd === undefined) {
      fd = openSync(path.join(this.dir, `data.${pos}`), 'r');
      this.#fds.set(pos, fd);
    }
    const buf = Buffer.alloc(4096);
    const n = readSync(fd, buf, 0, buf.length, offset);
    const line = buf.subarray(0, n).toString('utf8').split('\n')[0] ?? '';
    // synset_offset lex_filenum ss_type w_cnt(hex) word lex_id [word lex_id…] …
    const f = line.split(' ');
    if (Number(f[0]) !== offset) return [];
    const count = Number.parseInt(f[3] ?? '0', 16);
    const words: string[] = [];
    for (let i = 0; i < count; i++) {
      const w = f[4 + 2 * i];
      if (w) words.push(w.replace(/\(.*\)$/, '').replace(/_/g, ' ').toLowerCase());
    }
    return words;
  }

  /**
   * Single-word synonyms of `word` (lower-case): the other words of its most frequent senses, noun
   * and verb senses first, then adjective and adverb; never `word` or one of its base forms.
   */
  synonymsOf(word: string, options: SynonymOptions = {}): string[] {
    if (!this.available) return [];
    const w = word.toLowerCase();
    const senses = options.senses ?? 1;
    const perWord = options.perWord ?? 3;
    const key = `${w}|${senses}|${perWord}`;
    const hit = this.#cache.get(key);
    if (hit) return hit;
    const own = new Set([w]);
    const found: string[] = [];
    for (const pos of POS) {
      for (const base of this.baseForms(w, pos)) {
        own.add(base);
        for (const offset of (this.#index!.get(pos)!.get(base) ?? []).slice(0, senses)) {
          for (const s of this.#synset(pos, offset)) if (!s.includes(' ') && !s.includes('-') && !found.includes(s)) found.push(s);
        }
      }
    }
    const out = found.filter((s) => !own.has(s)).slice(0, perWord);
    this.#cache.set(key, out);
    if (this.#cache.size > 5000) this.#cache.delete(this.#cache.keys().next().value as string);
    return out;
  }

  close(): void {
    for (const fd of this.#fds.values()) closeSync(fd);
    this.#fds.clear();
  }
}

let shared: WordNet | null = null;

/** The process's WordNet at `DEFAULT_WORDNET_DIR` (absent: `available` false, no synonyms). */
export function defaultWordNet(): WordNet {
  shared ??= new WordNet();
  return shared;
}
