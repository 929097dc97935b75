import { existsSync, readFileSync } from 'node:fs';

/** The recogniser's pronunciation dictionary (Debian pocketsphinx-en-us); env `PARLEY_CMUDICT` overrides. */
export const DEFAULT_CMUDICT = '/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict';

let dict: Map<string, string[][]> | null = null;

/**
 * Pronunciations of a word in the recogniser's dictionary (ARPAbet phones), loaded once (~135,000
 * entries). Empty when the word is unknown or the dictionary is not installed: phonetic matching then
 * finds nothing, so names are only ever matched by spelling.
 */
export function pronunciations(word: string): string[][] {
  if (!dict) {
    dict = new Map();
    const file = process.env.PARLEY_CMUDICT ?? DEFAULT_CMUDICT;
    if (existsSync(file)) {
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        const [head, ...phones] = line.trim().split(/\s+/);
        if (!head || phones.length === 0) continue;
        const w = head.replace(/\(\d+\)$/, '');
        const list = dict.get(w) ?? [];
        list.push(phones.map((p) => p.replace(/\d$/, '')));
        dict.set(w, list);
      }
    }
  }
  return dict.get(word.toLowerCase()) ?? [];
}

const VOWELS = new Set(['AA', 'AE', 'AH', 'AO', 'AW', 'AY', 'EH', 'ER', 'EY', 'IH', 'IY', 'OW', 'OY', 'UH', 'UW']);
/** Consonant pairs a recogniser confuses easily: voicing pairs, nasals, liquids. */
const NEAR = new Set(['P B', 'T D', 'K G', 'F V', 'S Z', 'CH JH', 'TH DH', 'SH ZH', 'M N', 'N NG', 'L R', 'TH F', 'DH V']
  .flatMap((p) => { const [a, b] = p.split(' '); return [`${a} ${b}`, `${b} ${a}`]; }));

/** Cost of substituting phone `a` by `b`: 0 same, 0.5 vowel for vowel or a near consonant, else 1. */
function substitution(a: string, b: string): number {
  if (a === b) return 0;
  if (VOWELS.has(a) && VOWELS.has(b)) return 0.5;
  return NEAR.has(`${a} ${b}`) ? 0.5 : 1;
}

/** Weighted edit distance between two phone sequences divided by the longer length, in [0, 1]. */
export function phoneDistance(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return a.length === b.length ? 0 : 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row.push(Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + substitution(a[i - 1]!, b[j - 1]!)));
    }
    prev = row;
  }
  return prev[b.length]! / Math.max(a.length, b.length);
}

/** Pronunciations of words said in a row: every combination of each word's pronunciations. */
function spoken(words: readonly string[]): string[][] {
  return words.reduce<string[][]>((acc, w) => acc.flatMap((head) => pronunciations(w).map((p) => [...head, ...p])), [[]]);
}

/**
 * Smallest phone distance between any pronunciations of `a` (a word, or words said in a row) and of the
 * word `b`; 1 when a word is not in the dictionary.
 */
export function wordDistance(a: string | readonly string[], b: string): number {
  let best = 1;
  const as = spoken(typeof a === 'string' ? [a] : a);
  for (const pa of as) for (const pb of pronunciations(b)) if (pa.length > 0) best = Math.min(best, phoneDistance(pa, pb));
  return best;
}

/**
 * The one name of `known` (lower-case) that `word` (or words said in a row) sounds like, as the recogniser
 * may have misheard it ("rubber" for "robert", "sue sand" for "susan"): the closest within `maxDistance`,
 * and only when no other known name is as close.
 */
export function soundsLikeKnown(word: string | readonly string[], known: Iterable<string>, maxDistance = 0.4): string | null {
  let best: string | null = null;
  let bestD = Infinity;
  let tie = false;
  for (const name of known) {
    const d = name === word ? 0 : wordDistance(word, name);
    if (d < bestD) [best, bestD, tie] = [name, d, false];
    else if (d === bestD) tie = true;
  }
  return best !== null && bestD <= maxDistance && !tie ? best : null;
}
