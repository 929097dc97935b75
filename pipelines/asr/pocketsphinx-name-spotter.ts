import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ParleyError } from '../../graph/core/errors.js';
import type { FestivalG2p } from './festival-g2p.js';
import { correctNames, isFiller, keyphraseFile, normaliseName, type NameCorrection, type SpottedName, type TimedWord } from './name-spotting.js';
import { streamStateAccess, type StreamState, type StreamStateAccess } from './pocketsphinx-stream-state.js';
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
  /**
   * The stricter bar for a name to replace first-pass words that are all function words ("an", "and a"):
   * a keyphrase threshold per phone (see `thresholdPerPhone`) the detection must also clear;
   * -Infinity refuses such runs, Infinity turns the gate off (`correctNames`' `functionWordThreshold`).
   */
  functionWordThreshold?: number;
  /** Whether contractions such as "we'll" count as function words for that gate. */
  functionWordContractions?: boolean;
  /** Most names listened for in one turn (the first ones given). Default 100. */
  maxNames?: number;
  /**
   * Pronunciations for names the dictionary lacks, from festival's letter-to-sound (`festival` on PATH,
   * Debian package `festival`), or `false` to skip such names. Default on, `{}`.
   */
  letterToSound?: { command?: string } | false;
}

/**
 * Chosen on the development half of bench/asr-names.ts (docs/BENCHMARKS.md, "Names the recogniser can hear";
 * the function-word gate in "Name spotting that does not write names over function words", on the
 * development lines at 16 kHz and 8 kHz: the detections' scores all sit within 10^-0.03 per phone of the
 * garbage model, so no score bar separates right from false corrections, and runs of function words are refused).
 */
export const NAME_SPOTTING_DEFAULTS: Required<NameSpottingOptions> = {
  thresholdPerPhone: 2, maxPhoneDistance: 0.3, functionWordThreshold: -Infinity, functionWordContractions: true, maxNames: 100, letterToSound: {},
};

/** The search the spotting decoder uses for the tenant's names. */
const SEARCH = 'parley_names';
/** Letter-to-sound words added to one spotting decoder before it is made afresh (a dictionary only grows). */
export const MAX_ADDED_WORDS = 5000;
/** Detections may sit this many frames (10 ms) off the first-pass words they overlap: the two passes run on different decoders. */
export const TOLERANCE_FRAMES = 25;

/**
 * The second pass of a pocketsphinx turn: keyword spotting of the tenant's names over the turn's audio,
 * then {@link correctNames} on the first-pass words. It runs on a decoder of its own (acoustic model and
 * dictionary, no language model: ~30 MB, made on first use), so the first pass is exactly what it is
 * without spotting: the first-pass decoders' cepstral-mean and noise statistics never see the audio twice.
 * One spotting decoder per thread suffices: a pass runs to its end synchronously. Keyphrase files live
 * in a private temporary folder (pocketsphinx reads them by path), one per name list, removed on `close`.
 * Pronunciations come from the decoder's own dictionary; with `letterToSound`, names it lacks are looked
 * up in the background and added to the SPOTTING decoder's dictionary only (`ps_add_word`): it has no
 * language model, so nothing else changes, and the first-pass decoders (their own dictionaries and
 * language model) never see the word. A word in the spotting dictionary is searched only in turns whose
 * name list holds it, so other tenants' turns on the same thread are unaffected.
 */
export class PocketsphinxNameSpotter {
  private readonly options: Required<NameSpottingOptions>;
  private decoder: { config: Pointer; ps: Pointer; keyphrases?: string; state?: StreamStateAccess } | undefined;
  private dir: string | undefined;
  private readonly files = new Map<string, string>();
  private readonly phoneCache = new Map<string, string[][]>();
  /** Words given to the spotting decoder by letter-to-sound (part of the keyphrase files' key). */
  private added = 0;

  /**
   * @param modelDir the first pass's model folder (its `en-us/` acoustic model and `cmudict-en-us.dict`).
   * @param decoderOptions the first pass's decoder options (`-ds` and the like), reused for the same front end.
   */
  constructor(private readonly api: PocketsphinxApi, private readonly modelDir: string,
    private readonly decoderOptions: Record<string, string>, options: NameSpottingOptions = {},
    private readonly letterToSound?: FestivalG2p) {
    this.options = { ...NAME_SPOTTING_DEFAULTS, ...options };
  }

  private ps(): Pointer {
    if (this.decoder) return this.decoder.ps;
    const s = (v: string | null): unknown[] => ['str', v];
    // Pruning options of the n-gram search mean nothing to keyword spotting; front-end ones (-ds) are kept.
    const options = Object.entries(this.decoderOptions).filter(([k]) => !/^-(maxhmmpf|maxwpf|lw|wip|pip|beam|wbeam|pbeam|lpbeam|lponlybeam|fwdflat|bestpath)/.test(k));
    const config = this.api.cmdLnInit(null, this.api.psArgs(), 1,
      ...s('-hmm'), ...s(path.join(this.modelDir, 'en-us')),
      ...s('-dict'), ...s(path.join(this.modelDir, 'cmudict-en-us.dict')),
      ...s('-keyphrase'), ...s('hello'),
      ...options.flatMap(([k, v]) => [...s(k), ...s(v)]),
      ...s(null));
    const ps = config ? this.api.psInit(config) : null;
    if (!ps) {
      if (config) this.api.cmdLnFree(config);
      throw new ParleyError('PARLEY_ERR_MODEL_MISSING', `pocketsphinx could not load a name-spotting decoder from ${this.modelDir}`);
    }
    // Unreachable (the recogniser logged why): the spotting pass keeps the mean of the last turn it heard.
    const reach = streamStateAccess(this.api, ps);
    this.decoder = { config, ps, ...('access' in reach ? { state: reach.access } : {}) };
    return ps;
  }

  /** The word's pronunciations in the dictionary (alternates `word(2)`… included); empty when unknown. */
  phones(word: string): string[][] {
    const cached = this.phoneCache.get(word);
    if (cached) return cached;
    const ps = this.ps();
    const out: string[][] = [];
    const keys = /\(\d+\)$/.test(word) ? [word] : [word, ...[2, 3, 4].map((k) => `${word}(${k})`)];
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

  /** Word segments of a first-pass decoder's last hypothesis, fillers left out, frames from the first segment. */
  segments(ps: Pointer): TimedWord[] {
    const out: TimedWord[] = [];
    const sf = new Int32Array(1);
    const ef = new Int32Array(1);
    let origin: number | undefined;
    for (let seg = this.api.psSegIter(ps); seg; seg = this.api.psSegNext(seg)) {
      this.api.psSegFrames(seg, sf, ef);
      origin ??= sf[0]!;
      const word = this.api.psSegWord(seg);
      if (!isFiller(word)) out.push({ word, startFrame: sf[0]! - origin, endFrame: ef[0]! - origin });
    }
    return out;
  }

  /**
   * Listen to `audio` (the whole turn, as fed to the first pass) for the names of `file` (from
   * {@link keyphraseFile}) and correct `words`. `state`: the cepstral mean and noise statistics the first
   * pass's final decode started from, so this pass hears the turn normalised as it did (else the spotting
   * decoder's own: the model's prior at first, then whichever stream it heard last). Returns null when
   * pocketsphinx refused the keyphrase list.
   */
  spot(file: string, audio: readonly Int16Array[], words: readonly TimedWord[], state?: StreamState):
    { words: string[]; corrections: NameCorrection[]; spotted: SpottedName[] } | null {
    const ps = this.ps();
    const decoder = this.decoder!;
    if (decoder.keyphrases !== file) {
      if (this.api.psSetKws(ps, SEARCH, file) !== 0 || this.api.psSetSearch(ps, SEARCH) !== 0) return null;
      decoder.keyphrases = file;
    }
    this.api.psStartStream(ps); // detections' frames count from the turn's start
    if (state && decoder.state?.fits(state)) decoder.state.write(state);
    this.api.psStartUtt(ps);
    for (const chunk of audio) this.api.psProcessRaw(ps, chunk, chunk.length, 0, 0);
    this.api.psEndUtt(ps);
    const spotted: SpottedName[] = [];
    const sf = new Int32Array(1);
    const ef = new Int32Array(1);
    for (let seg = this.api.psSegIter(ps); seg; seg = this.api.psSegNext(seg)) {
      this.api.psSegFrames(seg, sf, ef);
      spotted.push({ name: this.api.psSegWord(seg).trim(), startFrame: sf[0]!, endFrame: ef[0]!, score: this.api.psSegProb(seg, null, null, null) });
    }
    const fixed = correctNames(words, spotted, (w) => this.phones(w),
      { maxPhoneDistance: this.options.maxPhoneDistance, toleranceFrames: TOLERANCE_FRAMES,
        functionWordThreshold: this.options.functionWordThreshold, functionWordContractions: this.options.functionWordContractions });
    return { ...fixed, spotted };
  }

  /** Words of `names` the spotting decoder's dictionary lacks. */
  private missingWords(names: readonly string[]): Set<string> {
    const missing = new Set<string>();
    for (const name of names.slice(0, this.options.maxNames)) {
      for (const w of normaliseName(name).split(' ')) if (w && this.phones(w).length === 0) missing.add(w);
    }
    return missing;
  }

  /** Look up, in the background, the words of `names` the dictionary lacks; resolves when the lookup is done. */
  prepare(names: readonly string[]): Promise<void> {
    if (!this.letterToSound?.available) return Promise.resolve();
    return this.letterToSound.request(this.missingWords(names));
  }

  /**
   * Give the spotting decoder the letter-to-sound pronunciations ready for words of `names` its dictionary
   * lacks, and queue the others for lookup (never waited for: later turns get them).
   */
  private addPronunciations(names: readonly string[]): void {
    const g2p = this.letterToSound;
    if (!g2p?.available) return;
    const ready: [string, string[]][] = [];
    const wait: string[] = [];
    for (const w of this.missingWords(names)) {
      const phones = g2p.get(w);
      if (phones === undefined) wait.push(w);
      else if (phones) ready.push([w, phones]);
    }
    if (wait.length > 0) void g2p.request(wait);
    if (ready.length === 0) return;
    if (this.added + ready.length > MAX_ADDED_WORDS) this.close();
    const ps = this.ps();
    for (const [w, phones] of ready) {
      if (this.api.psAddWord(ps, w, phones.join(' '), 1) < 0) continue;
      this.phoneCache.delete(w);
      this.added += 1;
    }
  }

  /** Path of the keyphrase file for this name list (written once), or null when none can be spotted. */
  keyphraseFile(names: readonly string[]): string | null {
    this.addPronunciations(names);
    const key = createHash('sha256').update(JSON.stringify([this.added, names])).digest('hex').slice(0, 24);
    const known = this.files.get(key);
    if (known !== undefined) return known || null;
    const text = keyphraseFile(names, (w) => this.phones(w), this.options.thresholdPerPhone, this.options.maxNames);
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

  /** Free the spotting decoder and remove the keyphrase files (made again on the next use). */
  close(): void {
    if (this.decoder) {
      this.api.psFree(this.decoder.ps);
      this.api.cmdLnFree(this.decoder.config);
      this.decoder = undefined;
    }
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
    this.files.clear();
    this.phoneCache.clear();
    this.added = 0;
  }
}
