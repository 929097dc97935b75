import koffi from 'koffi';
import { loadedLibrary, type NativeLibrary } from './native-library.js';

/** Opaque native pointer. */
export type Pointer = unknown;

/** The slice of the pocketsphinx 5prealpha C API that Parley uses, bound with koffi. */
export interface PocketsphinxApi {
  psArgs(): Pointer;
  /** Variadic: `(null, defn, strict, 'str', key, 'str', value, …, 'str', null)`. */
  cmdLnInit(...args: unknown[]): Pointer;
  cmdLnFree(config: Pointer): number;
  psInit(config: Pointer): Pointer;
  psFree(ps: Pointer): number;
  psStartUtt(ps: Pointer): number;
  psProcessRaw(ps: Pointer, data: Int16Array, samples: number, noSearch: number, fullUtt: number): number;
  psGetHyp(ps: Pointer, score: Int32Array | null): string | null;
  psEndUtt(ps: Pointer): number;
  psGetProb(ps: Pointer): number;
  psGetLogmath(ps: Pointer): Pointer;
  logmathExp(lmath: Pointer, logValue: number): number;
  /** `err_set_logfp`: NULL turns sphinxbase's process-wide log off. */
  errSetLogfp(fp: Pointer): void;
  /** Restart frame counting: segment frames of the next utterance start at 0 (also resets noise statistics). */
  psStartStream(ps: Pointer): number;
  /** Add (or replace) a keyword-spotting search `name` reading keyphrases from `keyfile` ("phrase /threshold/" lines). */
  psSetKws(ps: Pointer, name: string, keyfile: string): number;
  /** Make search `name` (`_default` is the n-gram search) the active one; 0 on success. */
  psSetSearch(ps: Pointer, name: string): number;
  /** Word segments of the last hypothesis; `null` when there is none. Iterate to the end (frees itself) or call `psSegFree`. */
  psSegIter(ps: Pointer): Pointer;
  psSegNext(seg: Pointer): Pointer;
  psSegWord(seg: Pointer): string;
  psSegFrames(seg: Pointer, sf: Int32Array, ef: Int32Array): void;
  psSegProb(seg: Pointer, ascr: Int32Array | null, lscr: Int32Array | null, lback: Int32Array | null): number;
  psSegFree(seg: Pointer): void;
  /** The word's phones as the decoder's dictionary has them (a malloc'd string: read with {@link cString}, free with `ckdFree`); null when unknown. */
  psLookupWord(ps: Pointer, word: string): Pointer;
  ckdFree(p: Pointer): void;
  /**
   * Add `word` with `phones` (CMU phones, space-separated) to this decoder's dictionary, and to the model
   * of each of its n-gram searches; `update` 1 rebuilds its searches. The word id, or -1.
   */
  psAddWord(ps: Pointer, word: string, phones: string, update: number): number;
  /** The language model of search `name`; null when that search is not an n-gram search (or absent). */
  psGetLm(ps: Pointer, name: string): Pointer;
  /** The decoder's feature computation (`feat_t`, owned by the decoder): where its cepstral-mean state lives. */
  psGetFeat(ps: Pointer): Pointer;
  /** The decoder's signal front end (`fe_t`, owned by the decoder): where its noise statistics live. */
  psGetFe(ps: Pointer): Pointer;
  /** The library files actually loaded (soname and package version), which code reading their structures checks. */
  readonly libraries: { readonly pocketsphinx: NativeLibrary; readonly sphinxbase: NativeLibrary };
}

/** Read a NUL-terminated C string at a native pointer. */
export function cString(p: Pointer): string {
  return koffi.decode(p, 'char', -1) as string;
}

let api: PocketsphinxApi | undefined;

/**
 * Load `libpocketsphinx.so.3` and `libsphinxbase.so.3` once per thread.
 * @throws Error when the libraries are not installed (Debian package `pocketsphinx`).
 */
export function pocketsphinxApi(): PocketsphinxApi {
  if (api) return api;
  const sb = koffi.load('libsphinxbase.so.3');
  const ps = koffi.load('libpocketsphinx.so.3');
  api = {
    psArgs: ps.func('void *ps_args()'),
    cmdLnInit: sb.func('void *cmd_ln_init(void *inout, void *defn, int strict, ...)'),
    cmdLnFree: sb.func('int cmd_ln_free_r(void *cmdln)'),
    psInit: ps.func('void *ps_init(void *config)'),
    psFree: ps.func('int ps_free(void *ps)'),
    psStartUtt: ps.func('int ps_start_utt(void *ps)'),
    psProcessRaw: ps.func('int ps_process_raw(void *ps, const int16_t *data, size_t n, int no_search, int full_utt)'),
    psGetHyp: ps.func('const char *ps_get_hyp(void *ps, _Out_ int32_t *score)'),
    psEndUtt: ps.func('int ps_end_utt(void *ps)'),
    psGetProb: ps.func('int32_t ps_get_prob(void *ps)'),
    psGetLogmath: ps.func('void *ps_get_logmath(void *ps)'),
    logmathExp: sb.func('double logmath_exp(void *lmath, int logb_p)'),
    errSetLogfp: sb.func('void err_set_logfp(void *fp)'),
    psStartStream: ps.func('int ps_start_stream(void *ps)'),
    psSetKws: ps.func('int ps_set_kws(void *ps, const char *name, const char *keyfile)'),
    psSetSearch: ps.func('int ps_set_search(void *ps, const char *name)'),
    psSegIter: ps.func('void *ps_seg_iter(void *ps)'),
    psSegNext: ps.func('void *ps_seg_next(void *seg)'),
    psSegWord: ps.func('const char *ps_seg_word(void *seg)'),
    psSegFrames: ps.func('void ps_seg_frames(void *seg, _Out_ int *sf, _Out_ int *ef)'),
    psSegProb: ps.func('int32_t ps_seg_prob(void *seg, _Out_ int32_t *ascr, _Out_ int32_t *lscr, _Out_ int32_t *lback)'),
    psSegFree: ps.func('void ps_seg_free(void *seg)'),
    psLookupWord: ps.func('void *ps_lookup_word(void *ps, const char *word)'),
    ckdFree: sb.func('void ckd_free(void *p)'),
    psAddWord: ps.func('int ps_add_word(void *ps, const char *word, const char *phones, int update)'),
    psGetLm: ps.func('void *ps_get_lm(void *ps, const char *name)'),
    psGetFeat: ps.func('void *ps_get_feat(void *ps)'),
    psGetFe: ps.func('void *ps_get_fe(void *ps)'),
    libraries: { pocketsphinx: loadedLibrary('libpocketsphinx'), sphinxbase: loadedLibrary('libsphinxbase') },
  } as PocketsphinxApi;
  // The log is one FILE per process. Decoders must not be given `-logfn`: each ps_init would then
  // fclose the FILE that other threads' decoders are writing to (heap corruption under load).
  // Switching it off only stores NULL, so every thread doing it is harmless.
  api.errSetLogfp(null);
  return api;
}
