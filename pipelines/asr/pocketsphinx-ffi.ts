import koffi from 'koffi';

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
  } as PocketsphinxApi;
  // The log is one FILE per process. Decoders must not be given `-logfn`: each ps_init would then
  // fclose the FILE that other threads' decoders are writing to (heap corruption under load).
  // Switching it off only stores NULL, so every thread doing it is harmless.
  api.errSetLogfp(null);
  return api;
}
