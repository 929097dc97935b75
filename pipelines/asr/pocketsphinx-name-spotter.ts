import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { correctNames, isFiller, keyphraseFile, type NameCorrection, type SpottedName, type TimedWord } from './name-spotting.js';
import { cString, type Pointer, type PocketsphinxApi } from './pocketsphinx-ffi.js';

/** Settings of the name-spotting pass (`PocketsphinxAsrConfig.nameSpotting`). */
export interface NameSpottingOptions {
  /**
   * Detection threshold per phone of a name, as a power of ten: a name of n phones is spotted when
   * its score beats the garbage model's by 10^-(perPhone × n). Higher finds more names and more false
   * alarms. Default {@link NAME_SPOTTING_DEFAULTS}.
   */
  thresholdPerPhone?: number;
  /** Most phone distance (0–1) between first-pass words and a spotted name for the name to replace them. */
  maxPhoneDistance?: number;
  /** Most names listened for in one turn (the first ones given). Default 100. */
  maxNames?: number;
}

/** Chosen on the development half of bench/asr-names.ts (docs/BENCHMARKS.md, "Names the recogniser can hear"). */
export const NAME_SPOTTING_DEFAULTS: Required<NameSpottingOptions> = { thresholdPerPhone: 5, maxPhoneDistance: 0.5, maxNames: 100 };

/** The search name the spotting pass uses on each decoder (`_default` is the n-gram search). */
const SEARCH = 'parley_names';
const NGRAM_SEARCH = '_default';

/** What a decoder needs to remember for the spotting pass: which keyphrase list its search holds. */
export interface SpottingDecoder { ps: Pointer; keyphrases?: string }

/**
 * The second pass of a pocketsphinx turn: keyword spotting of the tenant's names over the turn's audio
 * on the same decoder (its `parley_names` search), then {@link correctNames} on the first-pass words.
 * Keyphrase files live in a private temporary folder (pocketsphinx reads them by path), one per name
 * list, removed on `close`. Pronunciations come from the decoder's own dictionary.
 */
export class PocketsphinxNameSpotter {
  private readonly options: Required<NameSpottingOptions>;
  private dir: string | undefined;
  private readonly files = new Map<string, string>();
  private readonly phoneCache = new Map<string, string[][]>();

  constructor(private readonly api: PocketsphinxApi, options: NameSpottingOptions = {}) {
    this.options = { ...NAME_SPOTTING_DEFAULTS, ...options };
  }

  /** The word's pronunciations in the decoder's dictionary (alternates `word(2)`… included); empty when unknown. */
  phones(ps: Pointer, word: string): string[][] {
    const cached = this.phoneCache.get(word);
    if (cached) return cached;
    const out: string[][] = [];
    const base = word.replace(/\(\d+\)$/, '');
    const keys = base === word ? [word, ...[2, 3, 4].map((k) => `${word}(${k})`)] : [word];
    for (const key of keys) {
      const p = this.api.psLookupWord(ps, key);
      if (!p) break;
      out.push(cString(p).trim().split(/\s+/));
      this.api.ckdFree(p);
    }
    if (this.phoneCache.size > 20000) this.phoneCache.clear();
    this.phoneCache.set(word, out);
    return out;
  }

  /**
   * Word segments of the decoder's last hypothesis, fillers left out.
   */
  segments(ps: Pointer): TimedWord[] {
    const out: TimedWord[] = [];
    const sf = new Int32Array(1);
    const ef = new Int32Array(1);
    for (let seg = this.api.psSegIter(ps); seg; seg = this.api.psSegNext(seg)) {
      const word = this.api.psSegWord(seg);
      if (isFiller(word)) continue;
      this.api.psSegFrames(seg, sf, ef);
      out.push({ word, startFrame: sf[0]!, endFrame: ef[0]! });
    }
    return out;
  }

  /**
   * Listen to `audio` (the whole turn, as fed to the first pass) for `names` and correct `words`. Leaves
   * the decoder on its n-gram search. Returns null when no name can be spotted (none in the dictionary).
   */
  spot(decoder: SpottingDecoder, audio: readonly Int16Array[], words: readonly TimedWord[], names: readonly string[]):
    { words: string[]; corrections: NameCorrection[]; spotted: SpottedName[] } | null {
    const { ps } = decoder;
    const file = this.keyphraseFile(ps, names);
    if (!file) return null;
    if (decoder.keyphrases !== file) {
      if (this.api.psSetKws(ps, SEARCH, file) !== 0) return null;
      decoder.keyphrases = file;
    }
    if (this.api.psSetSearch(ps, SEARCH) !== 0) return null;
    const spotted: SpottedName[] = [];
    try {
      this.api.psStartStream(ps);
      this.api.psStartUtt(ps);
      for (const chunk of audio) this.api.psProcessRaw(ps, chunk, chunk.length, 0, 0);
      this.api.psEndUtt(ps);
      const sf = new Int32Array(1);
      const ef = new Int32Array(1);
      for (let seg = this.api.psSegIter(ps); seg; seg = this.api.psSegNext(seg)) {
        this.api.psSegFrames(seg, sf, ef);
        const score = this.api.psSegProb(seg, null, null, null);
        spotted.push({ name: this.api.psSegWord(seg).trim(), startFrame: sf[0]!, endFrame: ef[0]!, score });
      }
    } finally {
      this.api.psSetSearch(ps, NGRAM_SEARCH);
    }
    const fixed = correctNames(words, spotted, (w) => this.phones(ps, w), { maxPhoneDistance: this.options.maxPhoneDistance });
    return { ...fixed, spotted };
  }

  /** Path of the keyphrase file for this name list (written once), or null when none is in the dictionary. */
  private keyphraseFile(ps: Pointer, names: readonly string[]): string | null {
    const key = createHash('sha256').update(JSON.stringify(names)).digest('hex').slice(0, 24);
    const known = this.files.get(key);
    if (known !== undefined) return known || null;
    const text = keyphraseFile(names, (w) => this.phones(ps, w), this.options.thresholdPerPhone, this.options.maxNames);
    let file = '';
    if (text) {
      this.dir ??= mkdtempSync(path.join(tmpdir(), 'parley-names-'));
      file = path.join(this.dir, `${key}.kws`);
      writeFileSync(file, text);
    }
    if (this.files.size > 256) this.files.clear();
    this.files.set(key, file);
    return file || null;
  }

  /** Remove the keyphrase files. */
  close(): void {
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
    this.files.clear();
  }
}
