import { phoneDistance } from '../speaker/phonetic.js';

/**
 * Correcting names in a recognised turn with a keyword-spotting pass: pocketsphinx listens to the turn's
 * audio a second time for the tenant's known names only, and a spotted name replaces the first-pass
 * words at the same time when they sound like it ("rubber" → "robert", "great" → "grace"). The first
 * pass alone rarely writes a name that the language model finds unlikely; the spotter finds it, and the
 * phonetic check keeps a spotter false alarm from overwriting words that sound nothing like the name.
 *
 * Short function words are the exception: "an", "on", "and a" sound close to "anne" or "linda", and the
 * spotter fires on them often enough that the phone check alone lets false names through. So a run made
 * only of function words (the closed list {@link FUNCTION_WORDS}: articles, prepositions, pronouns,
 * auxiliaries, conjunctions, and optionally their contractions "we'll", "it's") is replaced only when the
 * detection also clears the stricter `functionWordThreshold`. The spotter's scores barely differ between
 * right and false detections, so Parley's default refuses such runs outright; the price is a name misheard
 * as a function word ("so" for sue, "we'll" for will), which stays as heard.
 */

/** A word of a hypothesis and its frames (10 ms each, from the start of the turn, end inclusive). */
export interface TimedWord {
  /** As the decoder wrote it, alternate-pronunciation marker included (`what(2)`): its dictionary key. */
  word: string;
  startFrame: number;
  endFrame: number;
}

/** A keyphrase the spotting pass detected. */
export interface SpottedName {
  /** The keyphrase, lower case. */
  name: string;
  startFrame: number;
  endFrame: number;
  /**
   * The detection's log score (`ps_seg_prob`, in the decoder's log base {@link LOG_BASE}): the margin of
   * the keyphrase over the spotter's garbage model, 0 or less; higher is more certain.
   */
  score: number;
}

/** Pocketsphinx's default `-logbase`: scores are log-likelihoods in this base. */
export const LOG_BASE = 1.0001;

/** Articles, prepositions, pronouns, auxiliaries and conjunctions (a closed list, lower case). */
export const FUNCTION_WORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'the',
  'about', 'above', 'after', 'at', 'before', 'by', 'down', 'for', 'from', 'in', 'into', 'of', 'off', 'on', 'onto',
  'out', 'over', 'through', 'to', 'under', 'up', 'upon', 'with', 'without',
  'i', 'me', 'my', 'mine', 'we', 'us', 'our', 'ours', 'you', 'your', 'yours', 'he', 'him', 'his', 'she', 'her', 'hers',
  'it', 'its', 'they', 'them', 'their', 'theirs', 'this', 'that', 'these', 'those', 'who', 'whom', 'whose', 'which', 'what',
  'am', 'is', 'are', 'was', 'were', 'be', 'been', 'being', 'have', 'has', 'had', 'do', 'does', 'did',
  'will', 'would', 'shall', 'should', 'can', 'could', 'may', 'might', 'must',
  'and', 'or', 'but', 'nor', 'so', 'if', 'as', 'than', 'because', 'yet',
]);

/**
 * Whether a (plain, lower-case) word is a function word: in {@link FUNCTION_WORDS}, or with `contractions`
 * a contraction whose first part is one ("we'll", "it's", "didn't").
 */
export function isFunctionWord(word: string, contractions: boolean): boolean {
  if (FUNCTION_WORDS.has(word)) return true;
  const apostrophe = word.indexOf("'");
  return contractions && apostrophe > 0 && FUNCTION_WORDS.has(word.slice(0, apostrophe));
}

/** Options of {@link correctNames}. */
export interface NameCorrectionOptions {
  /** Most phone distance (0–1, see `phoneDistance`) between the replaced words and the name. */
  maxPhoneDistance: number;
  /** Longest run of first-pass words one name may replace. Default 3. */
  maxWords?: number;
  /** Frames a detection may sit off the words it overlaps (the two passes' clocks differ slightly). Default 0. */
  toleranceFrames?: number;
  /**
   * The gate for runs of function words only: such a run is replaced only when the detection's score is
   * at least 10^-(functionWordThreshold × the name's phones), as a keyphrase threshold per phone (so a
   * value below the spotting `thresholdPerPhone` is the stricter bar; -Infinity refuses every such run).
   * Undefined: no gate.
   */
  functionWordThreshold?: number;
  /** Whether contractions of a function word ("we'll", "it's") count as function words for the gate. Default true. */
  functionWordContractions?: boolean;
}

/** One first-pass run of words rewritten as a name. */
export interface NameCorrection {
  /** The first-pass words (normalised). */
  from: string;
  to: string;
  distance: number;
}

/** Lower case, no alternate-pronunciation marker: how Parley writes a recognised word. */
export const plainWord = (w: string): string => w.replace(/\(\d+\)$/, '').toLowerCase();

/** Decoder words that are not speech: sentence marks, silence, noise. */
export const isFiller = (w: string): boolean => w.startsWith('<') || w.startsWith('[') || w.startsWith('+');

/**
 * Rewrite the first-pass words where a spotted name overlaps words that sound like it. Detections are
 * taken best score first; one overlapping an already taken detection is dropped. For each, the run of
 * at most `maxWords` words overlapping it in time whose phones are closest to the name's is replaced
 * when within `maxPhoneDistance`; a run that already reads as the name is left as it is.
 * @param phones pronunciations (phone lists) of a decoder word or keyphrase word; empty when unknown.
 */
export function correctNames(words: readonly TimedWord[], spotted: readonly SpottedName[],
  phones: (word: string) => string[][], options: NameCorrectionOptions): { words: string[]; corrections: NameCorrection[] } {
  const out: (string | null)[] = words.map((w) => plainWord(w.word));
  const used = new Set<number>();
  const taken: SpottedName[] = [];
  const corrections: NameCorrection[] = [];
  const maxWords = options.maxWords ?? 3;
  for (const d of [...spotted].sort((a, b) => b.score - a.score)) {
    if (taken.some((t) => t.startFrame <= d.endFrame && d.startFrame <= t.endFrame)) continue;
    taken.push(d);
    const tol = options.toleranceFrames ?? 0;
    const near = words.map((_, i) => i).filter((i) => !used.has(i) && overlaps(words[i]!, d, tol));
    const namePhones = spokenPhones(d.name.split(' '), phones);
    let best: { from: number; to: number; distance: number } | null = null;
    for (let a = 0; a < near.length; a++) {
      for (let b = a; b < near.length && b - a < maxWords; b++) {
        if (near[b]! - near[a]! !== b - a) break; // not contiguous
        const run = words.slice(near[a]!, near[b]! + 1).map((w) => w.word);
        const distance = closest(spokenPhones(run, phones), namePhones);
        if (!best || distance < best.distance) best = { from: near[a]!, to: near[b]!, distance };
      }
    }
    if (!best || best.distance > options.maxPhoneDistance) continue;
    const from = out.slice(best.from, best.to + 1).join(' ');
    if (options.functionWordThreshold !== undefined && from !== d.name &&
      from.split(' ').every((w) => isFunctionWord(w, options.functionWordContractions ?? true)) &&
      !clears(d.score, namePhones[0]?.length ?? 0, options.functionWordThreshold)) continue;
    for (let i = best.from; i <= best.to; i++) used.add(i);
    if (from === d.name) continue;
    out.fill(null, best.from, best.to + 1);
    out[best.from] = d.name;
    corrections.push({ from, to: d.name, distance: best.distance });
  }
  return { words: out.filter((w): w is string => w !== null), corrections };
}

/** Whether a detection's score clears a keyphrase threshold of 10^-(perPhone × phones) (false for perPhone -Infinity). */
export function clears(score: number, phones: number, perPhone: number): boolean {
  return score * Math.log10(LOG_BASE) >= -perPhone * phones;
}

const overlaps = (w: TimedWord, d: SpottedName, tol: number): boolean => w.startFrame <= d.endFrame + tol && d.startFrame - tol <= w.endFrame;

/** Every pronunciation of words said in a row (their pronunciations' combinations, at most 16); empty when a word has none. */
export function spokenPhones(words: readonly string[], phones: (word: string) => string[][]): string[][] {
  let acc: string[][] = [[]];
  for (const w of words) {
    const ps = phones(w);
    if (ps.length === 0) return [];
    acc = acc.flatMap((head) => ps.map((p) => [...head, ...p])).slice(0, 16);
  }
  return acc;
}

function closest(as: string[][], bs: string[][]): number {
  let best = 1;
  for (const a of as) for (const b of bs) best = Math.min(best, phoneDistance(a, b));
  return best;
}

/** A name as a keyphrase: lower case, letters, apostrophes and single spaces only ('' when nothing is left). */
export const normaliseName = (raw: string): string => raw.toLowerCase().replace(/[^a-z' ]+/g, ' ').trim().replace(/\s+/g, ' ');

/**
 * The keyphrase file of a name list for `ps_set_kws`: one line per distinct lower-case name whose
 * words the decoder's dictionary holds, with a detection threshold of `10^-(perPhone × phones)` (longer
 * names need a lower threshold to be found at all). Names the dictionary lacks are left out (the
 * spotting decoder is given letter-to-sound pronunciations for them beforehand, see `PocketsphinxNameSpotter`).
 * @returns the file's text, empty when no name can be spotted.
 */
export function keyphraseFile(names: Iterable<string>, phones: (word: string) => string[][], perPhone: number, maxNames: number): string {
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const raw of names) {
    const name = normaliseName(raw);
    if (!name || seen.has(name)) continue;
    seen.add(name);
    const pron = name.split(' ').map((w) => phones(w)[0]);
    if (pron.some((p) => !p || p.length === 0)) continue;
    const n = pron.reduce((s, p) => s + p!.length, 0);
    lines.push(`${name} /1e-${Math.round(perPhone * n)}/`);
    if (lines.length >= maxNames) break;
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}
