import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';

/** Where Debian's `wordnet-base` package puts the WordNet 3.0 database. */
export const DEFAULT_WORDNET_DIR = '/usr/share/wordnet';

const POS = ['noun', 'verb', 'adj', 'adv'] as const;
type Pos = (typeof POS)[number];
/** Parts of speech as pointers name them (`s`: an adjective satellite). */
const POS_OF: Record<string, Pos> = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' };

/** WordNet's lexicographer files of nouns by number (lexnames(5WN)): what kind of thing a noun sense is. */
const LEX_FILES: Readonly<Record<number, string>> = Object.fromEntries(['Tops', 'act', 'animal', 'artifact', 'attribute', 'body',
  'cognition', 'communication', 'event', 'feeling', 'food', 'group', 'location', 'motive', 'object', 'person', 'phenomenon',
  'plant', 'possession', 'process', 'quantity', 'relation', 'shape', 'state', 'substance', 'time'].map((n, i) => [i + 3, `noun.${n}`]));

/** A pointer of a synset: lexical when `source` and `target` name word numbers (1-based), semantic when both are 0. */
interface Pointer { symbol: string; offset: number; pos: Pos; source: number; target: number }
/** A synset: its words, its pointers and its definition (the gloss before its first quoted example). */
interface Synset { words: string[]; pointers: Pointer[]; definition: string }
/**
 * A derivational (`+`) or pertainym (`\`) pointer of a sense of a lemma: the synset it reaches (`pos:offset`), the
 * single-word lemmas it names there, and whether it leaves from the lemma itself (or its whole synset), not a synonym.
 */
interface Link { symbol: string; pos: Pos; synset: string; words: string[]; own: boolean;
  /** The synset of the lemma's sense it leaves (`pos:offset`), and whether WordNet counts that sense (tagsense_cnt; every sense when it counts none). */
  from: string; counted: boolean }

/** Suffix rules of WordNet's morphology (morphy): inflected ending → base ending, per part of speech. */
const DETACH: Record<Pos, [string, string][]> = {
  noun: [['ses', 's'], ['xes', 'x'], ['zes', 'z'], ['ches', 'ch'], ['shes', 'sh'], ['men', 'man'], ['ies', 'y'], ['s', '']],
  verb: [['ies', 'y'], ['es', 'e'], ['es', ''], ['ed', 'e'], ['ed', ''], ['ing', 'e'], ['ing', ''], ['s', '']],
  adj: [['er', ''], ['est', ''], ['er', 'e'], ['est', 'e']],
  adv: [],
};

/**
 * Function words that `properNounForm` never capitalises, though WordNet lists some as capitalised nouns
 * ("who" → WHO, "can" → Can): pronouns, auxiliaries, articles, conjunctions and prepositions of 3+ letters.
 */
const FUNCTION_WORDS: ReadonlySet<string> = new Set(('you yours her hers him his its our ours their theirs them they she '
  + 'who whom whose what which this that these those mine myself yourself himself herself itself ourselves themselves '
  + 'are was were been being has have had does did can could may might must shall should will would '
  + 'the and but nor for yet not than then also '
  + 'about above across after against along among around before behind below beneath beside between beyond '
  + 'down during from into near off onto out over past since through till toward towards under until upon with within without').split(' '));

/** Options of `synonymsOf`. */
export interface SynonymOptions {
  /** Senses read per part of speech, most frequent first; default 1. */
  senses?: number;
  /** Most synonyms per word; default 3. */
  perWord?: number;
}

/** Options of `sharedHypernym`. */
export interface KinOptions {
  /** Senses of each word read, most frequent first; default 2. */
  senses?: number;
  /** Most hypernym steps from each word to the shared synset; default 3. */
  maxUp?: number;
  /** Fewest steps from the root ("entity") to the shared synset; default 6. */
  minDepth?: number;
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
  /** How many of a lemma's senses (the first ones) WordNet ranks by how often they were tagged in a corpus (tagsense_cnt), by part of speech. */
  readonly #tagged = new Map<Pos, Map<string, number>>();
  #fds = new Map<Pos, number>();
  readonly #cache = new Map<string, string[]>();
  readonly #records = new Map<string, Synset>();
  readonly #links = new Map<string, Link[]>();
  readonly #depths = new Map<string, number>();

  constructor(readonly dir: string = DEFAULT_WORDNET_DIR) {
    this.available = POS.some((p) => existsSync(path.join(dir, `index.${p}`)) && existsSync(path.join(dir, `data.${p}`)));
  }

  /**
   * Read the index now (once; a no-op after): the first look-up otherwise reads it synchronously, which on a live
   * turn (an address or introduction check) would stall the event loop for seconds. Called at server start.
   */
  preload(): void {
    if (this.available) this.#load();
  }

  /** Whether the index has been read (`preload`, or a first look-up). */
  get loaded(): boolean {
    return this.#index !== null;
  }

  #load(): void {
    if (this.#index) return;
    this.#index = new Map();
    this.#exceptions = new Map();
    for (const pos of POS) {
      const byLemma = new Map<string, number[]>();
      const tagged = new Map<string, number>();
      this.#tagged.set(pos, tagged);
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
          tagged.set(f[0] as string, Number(f[4 + pointers + 1]) || 0);
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

  /** The line of the synset at `offset` in `data.<pos>` (read until its end: a line can run past 4 KiB). */
  #line(pos: Pos, offset: number): string {
    let fd = this.#fds.get(pos);
    if (fd === undefined) {
      fd = openSync(path.join(this.dir, `data.${pos}`), 'r');
      this.#fds.set(pos, fd);
    }
    const chunks: Buffer[] = [];
    for (let at = offset; chunks.length < 64; at += 4096) {
      const buf = Buffer.alloc(4096);
      const n = readSync(fd, buf, 0, buf.length, at);
      const end = buf.subarray(0, n).indexOf(10);
      chunks.push(buf.subarray(0, end >= 0 ? end : n));
      if (end >= 0 || n < buf.length) break;
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  /** The synset at `offset` in `data.<pos>`: its words (multi-word lemmas with spaces) and pointers. */
  #record(pos: Pos, offset: number): Synset {
    const key = `${pos}:${offset}`;
    const hit = this.#records.get(key);
    if (hit) return hit;
    // synset_offset lex_filenum ss_type w_cnt(hex) word lex_id [word lex_id…] p_cnt [symbol offset pos source/target…] …
    const line = this.#line(pos, offset);
    const f = line.split(' ');
    const gloss = line.includes(' | ') ? line.slice(line.indexOf(' | ') + 3) : '';
    const record: Synset = { words: [], pointers: [], definition: gloss.split('"')[0]!.trim().replace(/;$/, '') };
    if (Number(f[0]) === offset) {
      const count = Number.parseInt(f[3] ?? '0', 16);
      for (let i = 0; i < count; i++) {
        const w = f[4 + 2 * i];
        if (w) record.words.push(w.replace(/\(.*\)$/, '').replace(/_/g, ' ').toLowerCase());
      }
      const at = 4 + 2 * count;
      const pointers = Number(f[at]);
      for (let i = 0; i < pointers; i++) {
        const [symbol, off, p, st] = f.slice(at + 1 + 4 * i, at + 5 + 4 * i);
        const to = POS_OF[p ?? ''];
        if (!symbol || !to || !st) continue;
        record.pointers.push({ symbol, offset: Number(off), pos: to,
          source: Number.parseInt(st.slice(0, 2), 16), target: Number.parseInt(st.slice(2), 16) });
      }
    }
    this.#records.set(key, record);
    if (this.#records.size > 20000) this.#records.delete(this.#records.keys().next().value as string);
    return record;
  }

  /**
   * The title-case form WordNet gives `word` when it lists the word only as a capitalised noun ("lisbon" →
   * "Lisbon", "porto" → "Porto"), else null. Never capitalised: a word with a lower-case sense ("grace", "may")
   * or any verb, adjective or adverb sense; a word of under 3 letters; a function word ("who", "the");
   * an inflected form in WordNet's exception lists ("sat", "ate"); a word WordNet spells as an acronym ("it" → IT).
   */
  properNounForm(word: string): string | null {
    const lower = word.toLowerCase();
    if (!this.available || !/^[a-z]{3,}$/.test(lower) || FUNCTION_WORDS.has(lower)) return null;
    this.#load();
    const offsets = this.#index!.get('noun')!.get(lower);
    if (!offsets || POS.some((p) => (p !== 'noun' && this.#index!.get(p)!.has(lower)) || this.#exceptions!.get(p)!.has(lower))) return null;
    let form: string | null = null;
    for (const offset of offsets) {
      const f = this.#line('noun', offset).split(' ');
      const count = Number.parseInt(f[3] ?? '0', 16);
      const words = Array.from({ length: count }, (_, i) => (f[4 + 2 * i] ?? '').replace(/\(.*\)$/, ''));
      const here = words.find((w) => w.toLowerCase() === lower);
      if (!here || !/^[A-Z][a-z]+$/.test(here)) return null;
      form ??= here;
    }
    return form;
  }

  /**
   * How WordNet lists `word` (lower-cased, base forms counted): `notNoun` when it has a verb, adjective or adverb
   * sense ("will", "frank"); `ordinary` when it has one of those or a noun sense spelt lower case ("done", "list");
   * `proper` when it has a noun sense spelt capitalised ("Eve", "Lisbon"). All false for a word WordNet does not
   * list ("ahmed") or when WordNet is absent.
   */
  senses(word: string): { ordinary: boolean; proper: boolean; notNoun: boolean } {
    const lower = word.toLowerCase();
    if (!this.available) return { ordinary: false, proper: false, notNoun: false };
    this.#load();
    const notNoun = POS.some((p) => p !== 'noun' && this.baseForms(lower, p).length > 0);
    let ordinary = notNoun;
    let proper = false;
    for (const base of this.baseForms(lower, 'noun')) {
      for (const offset of this.#index!.get('noun')!.get(base) ?? []) {
        const f = this.#line('noun', offset).split(' ');
        const count = Number.parseInt(f[3] ?? '0', 16);
        for (let i = 0; i < count; i++) {
          const w = (f[4 + 2 * i] ?? '').replace(/\(.*\)$/, '');
          if (w.toLowerCase() !== base) continue;
          if (/^\p{Lu}/u.test(w)) proper = true;
          else ordinary = true;
        }
      }
    }
    return { ordinary, proper, notNoun };
  }

  /** The words of the synset at `offset` in `data.<pos>` (multi-word lemmas with spaces). */
  #synset(pos: Pos, offset: number): string[] {
    return this.#record(pos, offset).words;
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

  /**
   * Single-word lemmas of the other part of speech that WordNet links to `word` by a derivational
   * pointer (`+`), over all its senses: "apply" (verb) → application, applicant…; "renewal" (noun) →
   * renew. Only pointers from `word` itself count, not from its synonyms. None without WordNet.
   */
  derivedForms(word: string, pos: 'noun' | 'verb'): string[] {
    if (!this.available) return [];
    const w = word.toLowerCase();
    const key = `+${pos}|${w}`;
    const hit = this.#cache.get(key);
    if (hit) return hit;
    const other: Pos = pos === 'noun' ? 'verb' : 'noun';
    const out = [...new Set(this.baseForms(w, pos).flatMap((base) => this.#linksOf(`${pos}:${base}`)
      .filter((l) => l.own && l.symbol === '+' && l.pos === other).flatMap((l) => l.words)))];
    this.#cache.set(key, out);
    return out;
  }

  /** True when the noun and the verb are one word or derivational relatives ("application" / "apply", "booking" / "book"). */
  derivedFrom(noun: string, verb: string): boolean {
    const n = noun.toLowerCase();
    const v = verb.toLowerCase();
    return n === v || this.derivedForms(v, 'verb').includes(n) || this.derivedForms(n, 'noun').includes(v);
  }

  /**
   * Whether two lowercase words are one word in WordNet's eyes, by its graph, never by their letters: they share a base
   * form in some part of speech (cancelled / cancels → cancel, married / marry), or a derivational pointer of any parts
   * of speech (`+`, or the pertainym `\`) joins a base form of one to a base form of the other, from either side
   * (cancellation / cancel, allergic / allergy, pianist / piano, programmer / programming → program). Failing those
   * (issue #16 item 6), also when WordNet defines one by the other: a sense it counts (tagsense_cnt; every sense when it
   * counts none) of a noun, adjective or adverb has a definition naming the other word, a base form of it or a word it
   * derives to, though not a word the defined one derives to itself (gymnast "skilled in gymnastics", natural "relating
   * to nature", bakery "where baked goods are sold" → bake ← baker; not clerk "performs clerical work" → clerical ←
   * clergy); or counted senses of both meet in one synset (`#meet`: manager / management → manage, comedian as comic /
   * comedy → comicality, economy / economics ← economic). These last two read the word's noun and verb base forms, and
   * its own spelling as adjective or adverb, not a comparative (matter is no matt + er). False for words that only look
   * alike (organization / organ, university / universe, college / colleague, organ / organism, sign / significant,
   * commitment / committee, clerk / clergy, phone / phonetics). Null when WordNet lists either word in no part of
   * speech, or is absent: it cannot tell.
   */
  related(a: string, b: string): boolean | null {
    if (a === b) return true;
    if (!this.available) return null;
    const x = this.#lemmas(a);
    const y = this.#lemmas(b);
    if (x.size === 0 || y.size === 0) return null;
    const ofX = new Set([...x].map((k) => k.slice(k.indexOf(':') + 1)));
    const ofY = new Set([...y].map((k) => k.slice(k.indexOf(':') + 1)));
    if ([...ofX].some((w) => ofY.has(w))) return true;
    const fromX = new Set([...x].flatMap((k) => this.#derivations(k)));
    const fromY = new Set([...y].flatMap((k) => this.#derivations(k)));
    if ([...fromX].some((w) => ofY.has(w)) || [...fromY].some((w) => ofX.has(w))) return true;
    const ownX = [...this.#ownLemmas(a)];
    const ownY = [...this.#ownLemmas(b)];
    const near = (own: string[]): Set<string> => new Set(own.flatMap((k) => [k.slice(k.indexOf(':') + 1), ...this.#derivations(k)]));
    const nearX = near(ownX);
    const nearY = near(ownY);
    // A word of the definition that the defined word derives to itself is no sign of the other (clerk: "performs clerical
    // work"; clergy → clerical too).
    const names = (own: string[], mine: Set<string>, theirs: Set<string>): boolean => own.some((k) => this.#definedBy(k).some((w) => theirs.has(w) && !mine.has(w)));
    if (names(ownX, nearX, nearY) || names(ownY, nearY, nearX)) return true;
    return this.#meet(ownX, ownY);
  }

  /**
   * Whether counted senses of two words (as `#ownLemmas` keys) meet in one word of one synset: each has a `+` / `\` pointer to it
   * (a synonym's too: comedian as comic and comedy → comicality), or it points to them (economics points to nothing;
   * economic, "of or relating to the science of economics", points to it and to economy). Derivations of two senses of
   * one lemma do not meet (commitment → commit "give entirely", committee → commit "confer a trust"), nor do senses
   * WordNet does not count (phone as a speech sound → phonetic ← phonetics). An adjective met is no base of theirs
   * (organic ← organ, organism) unless one is its pertainym ("of or relating to"); a verb met joins derivations of one
   * part of speech (manager, management → manage), not a noun and an adjective (sign → signify ← significant). Two
   * words of the synset do not meet (organize → organization, organisation → organ).
   */
  #meet(ownX: string[], ownY: string[]): boolean {
    /** A pointer between a counted sense (of part of speech `pos`) and the synset met, and the synset's words it joins. */
    type End = { pos: string; symbol: string; words: string[] };
    const posOf = (synset: string): string => synset.slice(0, synset.indexOf(':'));
    const side = (own: string[]): { ends: Map<string, End[]>; senses: Set<string> } => {
      const ends = new Map<string, End[]>();
      const senses = new Set<string>();
      for (const k of own) {
        const pos = posOf(k) as Pos;
        const base = k.slice(k.indexOf(':') + 1);
        const offsets = this.#index!.get(pos)!.get(base) ?? [];
        for (const o of offsets.slice(0, this.#tagged.get(pos)!.get(base) || offsets.length)) senses.add(`${pos}:${o}`);
        for (const l of this.#linksOf(k)) if (l.counted) ends.set(l.synset, [...ends.get(l.synset) ?? [], { pos, symbol: l.symbol, words: l.words }]);
      }
      return { ends, senses };
    };
    const x = side(ownX);
    const y = side(ownY);
    for (const synset of new Set([...x.ends.keys(), ...y.ends.keys()])) {
      const xs = [...x.ends.get(synset) ?? []];
      const ys = [...y.ends.get(synset) ?? []];
      // The synset's own pointers to a counted sense (economics points to nothing; economic points to it).
      const pos = posOf(synset) as Pos;
      for (const w of new Set(this.#record(pos, Number(synset.slice(synset.indexOf(':') + 1))).words)) {
        if (w.includes(' ')) continue;
        for (const l of this.#linksOf(`${pos}:${w}`)) {
          if (l.from !== synset || !l.own) continue;
          if (x.senses.has(l.synset)) xs.push({ pos: posOf(l.synset), symbol: l.symbol, words: [w] });
          if (y.senses.has(l.synset)) ys.push({ pos: posOf(l.synset), symbol: l.symbol, words: [w] });
        }
      }
      if (xs.some((ex) => ys.some((ey) => ex.words.some((w) => ey.words.includes(w)) && (pos !== 'verb' || ex.pos === ey.pos) && (pos !== 'adj' || ex.symbol === '\\' || ey.symbol === '\\')))) return true;
    }
    return false;
  }

  /** `#lemmas` less the adjective and adverb base forms that differ from the word (comparatives: matter → matt). */
  #ownLemmas(word: string): Set<string> {
    return new Set([...this.#lemmas(word)].filter((k) => k.startsWith('noun:') || k.startsWith('verb:') || k.endsWith(`:${word}`)));
  }

  /**
   * Base forms, in every part of speech, of the words of the definitions of the counted senses of the `pos:base` lemma
   * `key` (cached): none for a verb, which WordNet defines by another verb, its kind ("prove: provide evidence for"), and
   * none from a word that is a form of the lemma itself ("hope: … our hopes" names no hop).
   */
  #definedBy(key: string): string[] {
    const hit = this.#cache.get(`=${key}`);
    if (hit) return hit;
    const pos = key.slice(0, key.indexOf(':')) as Pos;
    const base = key.slice(key.indexOf(':') + 1);
    const offsets = pos === 'verb' ? [] : this.#index!.get(pos)!.get(base) ?? [];
    const found = new Set<string>();
    for (const offset of offsets.slice(0, this.#tagged.get(pos)!.get(base) || offsets.length)) {
      for (const w of this.#record(pos, offset).definition.toLowerCase().match(/[a-z]+/g) ?? []) {
        const bases = POS.flatMap((p) => this.baseForms(w, p));
        if (!bases.includes(base)) for (const b of bases) found.add(b);
      }
    }
    const out = [...found];
    this.#cache.set(`=${key}`, out);
    if (this.#cache.size > 5000) this.#cache.delete(this.#cache.keys().next().value as string);
    return out;
  }

  /** The base forms of `word` in every part of speech, as `pos:base`. */
  #lemmas(word: string): Set<string> {
    return new Set(POS.flatMap((pos) => this.baseForms(word, pos).map((b) => `${pos}:${b}`)));
  }

  /** Single-word lemmas that a derivational pointer (`+`, `\`) of any sense of the `pos:base` lemma `key` points to (cached). */
  #derivations(key: string): string[] {
    const hit = this.#cache.get(`~${key}`);
    if (hit) return hit;
    const out = [...new Set(this.#linksOf(key).filter((l) => l.own).flatMap((l) => l.words))];
    this.#cache.set(`~${key}`, out);
    if (this.#cache.size > 5000) this.#cache.delete(this.#cache.keys().next().value as string);
    return out;
  }

  /**
   * The one pointer walk of `derivedForms`, `#derivations` and `related`: every `+` and `\` pointer of every sense of
   * the `pos:base` lemma `key`, in the order of its senses and their pointers (cached).
   */
  #linksOf(key: string): Link[] {
    const hit = this.#links.get(key);
    if (hit) return hit;
    const pos = key.slice(0, key.indexOf(':')) as Pos;
    const base = key.slice(key.indexOf(':') + 1);
    const out: Link[] = [];
    const offsets = this.#index!.get(pos)!.get(base) ?? [];
    const counted = this.#tagged.get(pos)!.get(base) || offsets.length;
    for (const [sense, offset] of offsets.entries()) {
      const record = this.#record(pos, offset);
      const own = record.words.indexOf(base.replace(/_/g, ' ')) + 1;
      for (const p of record.pointers) {
        if (p.symbol !== '+' && p.symbol !== '\\') continue;
        const words = this.#record(p.pos, p.offset).words;
        out.push({ symbol: p.symbol, pos: p.pos, synset: `${p.pos}:${p.offset}`, own: p.source === 0 || p.source === own,
          from: `${pos}:${offset}`, counted: sense < counted,
          words: (p.target === 0 ? words : [words[p.target - 1]]).filter((t): t is string => t !== undefined && !t.includes(' ')) });
      }
    }
    this.#links.set(key, out);
    if (this.#links.size > 5000) this.#links.delete(this.#links.keys().next().value as string);
    return out;
  }

  /**
   * True when a phrasal verb, written with an underscore ("give_back"), is listed in one synset with
   * `verb` ("return"): one of its senses is a sense of the verb. Phrasal verbs have few senses, so all
   * of both words' verb senses are read. False for a phrasal verb WordNet does not list, and without WordNet.
   */
  phrasalSense(phrasal: string, verb: string): boolean {
    if (!this.available) return false;
    this.#load();
    const index = this.#index!.get('verb')!;
    const mine = new Set(index.get(phrasal.toLowerCase()) ?? []);
    if (mine.size === 0) return false;
    return this.baseForms(verb.toLowerCase(), 'verb').some((b) => (index.get(b) ?? []).some((o) => mine.has(o)));
  }

  /** Steps from the synset up to a root of its hierarchy by the shortest hypernym path (cached). */
  #depth(pos: Pos, offset: number, guard = 0): number {
    const key = `${pos}:${offset}`;
    const hit = this.#depths.get(key);
    if (hit !== undefined) return hit;
    // WordNet's hierarchies have no cycles; the guard only stops a damaged file from recursing forever.
    const up = guard > 40 ? [] : this.#record(pos, offset).pointers.filter((p) => (p.symbol === '@' || p.symbol === '@i') && p.pos === pos);
    const depth = up.length === 0 ? 0 : 1 + Math.min(...up.map((p) => this.#depth(pos, p.offset, guard + 1)));
    this.#depths.set(key, depth);
    return depth;
  }

  /** Synsets reachable from the first `senses` senses of `word` in at most `maxUp` hypernym steps, with their fewest steps. */
  #ancestors(word: string, pos: Pos, senses: number, maxUp: number): Map<number, number> {
    const out = new Map<number, number>();
    let frontier: number[] = [];
    for (const base of this.baseForms(word, pos)) frontier.push(...(this.#index!.get(pos)!.get(base) ?? []).slice(0, senses));
    for (let step = 0; step <= maxUp && frontier.length > 0; step++) {
      const next: number[] = [];
      for (const o of frontier) {
        if (out.has(o)) continue;
        out.set(o, step);
        for (const p of this.#record(pos, o).pointers) if ((p.symbol === '@' || p.symbol === '@i') && p.pos === pos) next.push(p.offset);
      }
      frontier = next;
    }
    return out;
  }

  /**
   * The closest hypernym two nouns share, as its first word, or null: co-hyponyms ("dog" / "cat" →
   * carnivore) or one under the other ("van" / "truck" → truck). Each word climbs at most `maxUp`
   * steps from its first `senses` senses, and the shared synset must lie at least `minDepth` steps
   * below the root of the hierarchy, so that "entity", "object" or "artifact" never count. Null for
   * one and the same word and without WordNet.
   */
  sharedHypernym(a: string, b: string, options: KinOptions = {}): string | null {
    if (!this.available) return null;
    const x = a.toLowerCase();
    const y = b.toLowerCase();
    if (x === y) return null;
    const senses = options.senses ?? 2;
    const maxUp = options.maxUp ?? 3;
    const minDepth = options.minDepth ?? 6;
    const key = `@${x}|${y}|${senses}|${maxUp}|${minDepth}`;
    const hit = this.#cache.get(key);
    if (hit) return hit[0] ?? null;
    const left = this.#ancestors(x, 'noun', senses, maxUp);
    let best: { offset: number; steps: number } | null = null;
    for (const [offset, steps] of this.#ancestors(y, 'noun', senses, maxUp)) {
      const other = left.get(offset);
      if (other === undefined || this.#depth('noun', offset) < minDepth) continue;
      if (!best || steps + other < best.steps) best = { offset, steps: steps + other };
    }
    const out = best ? (this.#record('noun', best.offset).words[0] ?? null) : null;
    this.#cache.set(key, out ? [out] : []);
    return out;
  }

  /**
   * True when WordNet's counted uses (the senses it ranks by frequency) of `word` are adjectives only: "great",
   * "natural" (a noun sense of each, "a natural for the job", is never counted), not "boss" or "friend". False without
   * WordNet.
   */
  adjectiveOnlyInUse(word: string): boolean {
    if (!this.available) return false;
    this.#load();
    const w = word.toLowerCase();
    const counted = (pos: 'noun' | 'adj', tagged: Map<string, number>): boolean => this.baseForms(w, pos).some((b) => (tagged.get(b) ?? 0) > 0);
    return counted('adj', this.#tagged.get('adj')!) && !counted('noun', this.#tagged.get('noun')!);
  }

  /**
   * What `word`'s most common noun sense is (every sense when WordNet ranks none of them by frequency, as for "jazz" or
   * "chess"): each sense's lexicographer file ("noun.food", "noun.person") and the first word of every synset above it
   * by hypernym pointers, nearest first ("coffee" → beverage, food, liquid…). A phrase is looked up with underscores
   * ("red wine"). `every`: every sense, ranked or not ("model" as an idea and as a person who poses); `seen`: every
   * sense WordNet ranks by frequency (all when it ranks none), so not a rare one ("meeting" as where rivers meet). None
   * for a word WordNet does not list as a noun, and without WordNet.
   */
  nounKinds(word: string, every: boolean | 'seen' = false): Array<{ lexFile: string; ancestors: string[] }> {
    if (!this.available) return [];
    const base = this.baseForms(word.toLowerCase().replace(/\s+/g, '_'), 'noun')[0];
    const offsets = base === undefined ? [] : this.#index!.get('noun')!.get(base) ?? [];
    const tagged = base === undefined ? 0 : this.#tagged.get('noun')!.get(base) ?? 0;
    const count = tagged === 0 || every === true ? offsets.length : every === 'seen' ? tagged : 1;
    return offsets.slice(0, count).map((offset) => {
      const seen = new Set<number>();
      const ancestors: string[] = [];
      for (let frontier = [offset]; frontier.length > 0 && seen.size < 200;) {
        const next: number[] = [];
        for (const o of frontier) {
          for (const p of this.#record('noun', o).pointers) {
            if ((p.symbol !== '@' && p.symbol !== '@i') || p.pos !== 'noun' || seen.has(p.offset)) continue;
            seen.add(p.offset);
            next.push(p.offset);
            const first = this.#record('noun', p.offset).words[0];
            if (first) ancestors.push(first);
          }
        }
        frontier = next;
      }
      return { lexFile: LEX_FILES[Number(this.#line('noun', offset).split(' ')[1])] ?? 'noun.unknown', ancestors };
    });
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
