import koffi from 'koffi';
import type { Pointer, PocketsphinxApi } from './pocketsphinx-ffi.js';

/**
 * What a pocketsphinx decoder carries from one utterance to the next about the audio it heard, and so
 * what one stream's turns must not hand to another's: the live cepstral-mean normalisation (the mean the
 * next turn is normalised by, and the running sums its frames are added to) and the front end's noise
 * and signal statistics (its silence removal decides by them which frames are decoded at all). Saving it
 * per stream and writing it back before each turn gives every stream its own, whichever pooled decoder
 * serves the turn.
 */
export interface StreamState {
  /** Mean of each cepstral coefficient (c0 is the log energy). */
  readonly mean: Float32Array;
  /** Sum of each coefficient over `frames` frames (pocketsphinx decays it to a 500-frame window). */
  readonly sum: Float32Array;
  /** Frames in `sum`; 0 for a decoder that has heard nothing (its mean is then the model's `-cmninit`). */
  readonly frames: number;
  /** Per mel filter: smoothed power, noise floor estimate, floor and peak (4 × filters values). */
  readonly noise: Float64Array;
  /** Whether the noise statistics are still unset (the next frame initialises them). */
  readonly noiseUnset: boolean;
}

// Layout of sphinxbase / pocketsphinx 5prealpha (Debian 0.8+5prealpha), read from the installed libraries'
// own code (`ps_get_feat`, `feat_update_stats`, `cmn_init`, `cmn_live_update`, `fe_start_stream`,
// `fe_init_noisestats`) and checked on each decoder by `streamStateAccess`:
// - feat_t: `int32 cepsize` at 16, `cmn_t *cmn_struct` at 88; cmn_t is { mfcc_t *cmn_mean; mfcc_t *cmn_var;
//   mfcc_t *sum; int32 nframe; int32 veclen } with float mfcc_t;
// - fe_t: `noise_stats_t *noise_stats` at 96; noise_stats_t starts { double *power, *noise, *floor, *peak;
//   uint8 undefined; int32 num_filters }.
const FEAT_CEPSIZE = 16;
const FEAT_CMN_STRUCT = 88;
const CMN_MEAN = 0;
const CMN_SUM = 16;
const CMN_NFRAME = 24;
const CMN_VECLEN = 28;
const FE_NOISE_STATS = 96;
const NOISE_ARRAYS = [0, 8, 16, 24];
const NOISE_UNDEFINED = 32;
const NOISE_FILTERS = 36;
/** pocketsphinx models have 13 cepstra and some tens of filters; larger values mean the layout is not the one above. */
const MAX_CEPSTRA = 64;
const MAX_FILTERS = 256;

/** Read and write one decoder's {@link StreamState}. */
export interface StreamStateAccess {
  read(): StreamState;
  /** Whether `state` has this decoder's numbers of cepstra and filters (one read from a decoder of the same front end). */
  fits(state: StreamState): boolean;
  /** @throws RangeError when the state does not {@link fits} this decoder. */
  write(state: StreamState): void;
}

/**
 * Reach the stream state of decoder `ps`, or `undefined` when the library's structures do not look like
 * the layout above (another build): callers then fall back to what needs no such access.
 */
export function streamStateAccess(api: PocketsphinxApi, ps: Pointer): StreamStateAccess | undefined {
  const feat = api.psGetFeat(ps);
  const fe = api.psGetFe(ps);
  if (!feat || !fe) return undefined;
  const ptr = (at: Pointer, offset: number): Pointer => koffi.decode(at, offset, 'void *') as Pointer;
  const int = (at: Pointer, offset: number): number => koffi.decode(at, offset, 'int32_t') as number;
  // Values inside feat_t itself first: on a build of another layout, chasing its pointers could read anywhere.
  const cepsize = int(feat, FEAT_CEPSIZE);
  if (cepsize < 1 || cepsize > MAX_CEPSTRA) return undefined;
  const cmn = ptr(feat, FEAT_CMN_STRUCT);
  const stats = ptr(fe, FE_NOISE_STATS);
  if (!cmn || !stats) return undefined;
  const veclen = int(cmn, CMN_VECLEN);
  const filters = int(stats, NOISE_FILTERS);
  const meanAt = ptr(cmn, CMN_MEAN);
  const sumAt = ptr(cmn, CMN_SUM);
  const noiseAt = NOISE_ARRAYS.map((o) => ptr(stats, o));
  if (veclen !== cepsize || veclen < 1 || veclen > MAX_CEPSTRA || filters < 1 || filters > MAX_FILTERS
    || !meanAt || !sumAt || noiseAt.some((p) => !p)) return undefined;
  const floats = (at: Pointer): Float32Array => Float32Array.from(koffi.decode(at, 'float', veclen) as ArrayLike<number>);
  const access: StreamStateAccess = {
    read: () => {
      const noise = new Float64Array(4 * filters);
      noiseAt.forEach((p, k) => noise.set(koffi.decode(p, 'double', filters) as ArrayLike<number>, k * filters));
      return {
        mean: floats(meanAt), sum: floats(sumAt), frames: int(cmn, CMN_NFRAME),
        noise, noiseUnset: (koffi.decode(stats, NOISE_UNDEFINED, 'uint8_t') as number) !== 0,
      };
    },
    fits: (state) => state.mean.length === veclen && state.sum.length === veclen && state.noise.length === 4 * filters,
    write: (state) => {
      if (!access.fits(state)) {
        throw new RangeError(`stream state of ${state.mean.length} cepstra / ${state.noise.length / 4} filters for a decoder of ${veclen} / ${filters}`);
      }
      koffi.encode(meanAt, 'float', Array.from(state.mean), veclen);
      koffi.encode(sumAt, 'float', Array.from(state.sum), veclen);
      koffi.encode(cmn, CMN_NFRAME, 'int32_t', state.frames);
      noiseAt.forEach((p, k) => koffi.encode(p, 'double', Array.from(state.noise.subarray(k * filters, (k + 1) * filters)), filters));
      koffi.encode(stats, NOISE_UNDEFINED, 'uint8_t', state.noiseUnset ? 1 : 0);
    },
  };
  // A fresh decoder's mean is its `-cmninit` prior (c0 about 41 for en-us): finite and of log-energy size.
  const { mean, frames } = access.read();
  if (frames < 0 || !mean.every(Number.isFinite) || Math.abs(mean[0]!) > 1000) return undefined;
  return access;
}
