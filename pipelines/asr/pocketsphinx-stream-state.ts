import koffi from 'koffi';
import type { Pointer, PocketsphinxApi } from './pocketsphinx-ffi.js';

/**
 * What a pocketsphinx decoder carries from one utterance to the next about the audio it heard, and so
 * what one stream's turns must not hand to another's: the live cepstral-mean normalisation (the mean the
 * next turn is normalised by, and the running sums its frames are added to) and the front end's noise
 * and signal statistics (its silence removal decides by them which frames are decoded at all). Saving it
 * per stream and writing it back before each turn gives every stream its own, whichever pooled decoder
 * serves the turn.
 *
 * The front end's silence removal also keeps a slow peak of each frame's log signal energy (the
 * installed build's `fe_track_snr`: it rises towards a louder frame by 0.1 of the gap, decays by 0.0005,
 * and a frame more than 8 below it is not speech). Until it was carried (issue #17 item 5), a stream's
 * later turns beside another stream passed a few frames differently from alone (718 frames in the
 * mean's sums instead of 721, and another word now and then). `fe_start_utt` resets the rest of the
 * front end's per-utterance state (overflow samples, pre-emphasis sample, VAD hangover and prespeech
 * buffer); dither is off and AGC `none` in the en-us model. Still per decoder: the acoustic model's
 * top-N Gaussian history (`ptm_mgau` starts each frame from the previous frame's codewords, across
 * utterances); with the slow peak carried no turn has differed from alone since (bench/asr-stream-beside.ts).
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
  /** Whether the noise statistics are still unset (the next frame initialises them, and zeroes `slowPeak`). */
  readonly noiseUnset: boolean;
  /** The silence removal's slow peak of log signal energy: a frame far below it is not speech. */
  readonly slowPeak: number;
}

// Layout of sphinxbase / pocketsphinx 5prealpha (Debian 0.8+5prealpha), read from the installed libraries'
// own code (`ps_get_feat`, `feat_update_stats`, `cmn_init`, `cmn_live_update`, `fe_start_stream`,
// `fe_init_noisestats`, `fe_track_snr`), used only when the loaded libraries are those builds (`LAYOUT_LIBRARIES`) and
// checked on each decoder by `streamStateAccess`:
// - feat_t: `int32 cepsize` at 16, `cmn_t *cmn_struct` at 88; cmn_t is { mfcc_t *cmn_mean; mfcc_t *cmn_var;
//   mfcc_t *sum; int32 nframe; int32 veclen } with float mfcc_t;
// - fe_t: `noise_stats_t *noise_stats` at 96; noise_stats_t starts { double *power, *noise, *floor, *peak;
//   uint8 undefined; int32 num_filters; double slow_peak_sum; double lambda_power, comp_lambda_power; … }
//   (older sphinxbase sources have no slow_peak_sum: lambda_power at 40; the constants at 48 and 56 tell
//   the two apart).
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
const NOISE_SLOW_PEAK = 40;
/** `lambda_power` and `comp_lambda_power`, the smoothing constants right after the slow peak (0.7, 0.3). */
const NOISE_LAMBDA_POWER = 48;
const LAMBDA_POWER = 0.7;
/** pocketsphinx models have 13 cepstra and some tens of filters; larger values mean the layout is not the one above. */
const MAX_CEPSTRA = 64;
const MAX_FILTERS = 256;
/**
 * The library builds the layout was read from: their sonames and Debian package versions. Another soname
 * (pocketsphinx 5.x merged sphinxbase in and renamed its structures) or another build of these sonames
 * (other compile options, a float or fixed-point `mfcc_t`) could pass the per-decoder check by chance.
 */
const LAYOUT_LIBRARIES = {
  pocketsphinx: { soname: 'libpocketsphinx.so.3', version: /^0\.8\+5prealpha\b/ },
  sphinxbase: { soname: 'libsphinxbase.so.3', version: /^0\.8\+5prealpha\b/ },
} as const;

/** Read and write one decoder's {@link StreamState}. */
export interface StreamStateAccess {
  read(): StreamState;
  /** Whether `state` has this decoder's numbers of cepstra and filters (one read from a decoder of the same front end). */
  fits(state: StreamState): boolean;
  /** @throws RangeError when the state does not {@link fits} this decoder. */
  write(state: StreamState): void;
}

/** A decoder's {@link StreamStateAccess}, or why it cannot be reached (logged once by the recogniser). */
export type StreamStateReach = { readonly access: StreamStateAccess } | { readonly unavailable: string };

/**
 * Why the loaded libraries are not the builds the layout above was read from; undefined when they are.
 * A library dpkg did not install has no known version and is refused too.
 */
export function layoutMismatch(libraries: PocketsphinxApi['libraries']): string | undefined {
  for (const name of ['pocketsphinx', 'sphinxbase'] as const) {
    const lib = libraries[name];
    const want = LAYOUT_LIBRARIES[name];
    const file = lib.file ?? `lib${name}`;
    if (lib.soname !== want.soname) return `${file} has soname ${lib.soname ?? 'unknown'}, the layout is ${want.soname}'s`;
    if (lib.version === undefined) return `${file} was not installed by a Debian package, so its version is unknown`;
    if (!want.version.test(lib.version)) return `${file} is version ${lib.version}, the layout is 0.8+5prealpha's`;
  }
  return undefined;
}

/**
 * Reach the stream state of decoder `ps`, or say why not: the loaded libraries are not the builds the
 * layout above was read from, or their structures do not look like it. Callers then fall back to what
 * needs no such access.
 */
export function streamStateAccess(api: PocketsphinxApi, ps: Pointer): StreamStateReach {
  const mismatch = layoutMismatch(api.libraries);
  if (mismatch) return { unavailable: mismatch };
  const feat = api.psGetFeat(ps);
  const fe = api.psGetFe(ps);
  if (!feat || !fe) return { unavailable: 'the decoder has no feat_t or fe_t' };
  const ptr = (at: Pointer, offset: number): Pointer => koffi.decode(at, offset, 'void *') as Pointer;
  const int = (at: Pointer, offset: number): number => koffi.decode(at, offset, 'int32_t') as number;
  // Values inside feat_t itself first: on a build of another layout, chasing its pointers could read anywhere.
  const cepsize = int(feat, FEAT_CEPSIZE);
  if (cepsize < 1 || cepsize > MAX_CEPSTRA) return { unavailable: `feat_t cepstrum size ${cepsize} is not 1…${MAX_CEPSTRA}` };
  const cmn = ptr(feat, FEAT_CMN_STRUCT);
  const stats = ptr(fe, FE_NOISE_STATS);
  if (!cmn || !stats) return { unavailable: 'feat_t has no cmn_t or fe_t no noise statistics' };
  const veclen = int(cmn, CMN_VECLEN);
  const filters = int(stats, NOISE_FILTERS);
  const meanAt = ptr(cmn, CMN_MEAN);
  const sumAt = ptr(cmn, CMN_SUM);
  const noiseAt = NOISE_ARRAYS.map((o) => ptr(stats, o));
  if (veclen !== cepsize || veclen < 1 || veclen > MAX_CEPSTRA || filters < 1 || filters > MAX_FILTERS
    || !meanAt || !sumAt || noiseAt.some((p) => !p)) return { unavailable: `cmn_t / noise_stats_t do not match the layout (${veclen} cepstra, ${filters} filters)` };
  const double = (offset: number): number => koffi.decode(stats, offset, 'double') as number;
  const lambdas = [double(NOISE_LAMBDA_POWER), double(NOISE_LAMBDA_POWER + 8)];
  if (Math.abs(lambdas[0]! - LAMBDA_POWER) > 1e-12 || Math.abs(lambdas[1]! - (1 - LAMBDA_POWER)) > 1e-12) {
    return { unavailable: `noise_stats_t has no slow peak before its smoothing constants (read ${lambdas.join(', ')} where 0.7, 0.3 were expected)` };
  }
  const floats = (at: Pointer): Float32Array => Float32Array.from(koffi.decode(at, 'float', veclen) as ArrayLike<number>);
  const access: StreamStateAccess = {
    read: () => {
      const noise = new Float64Array(4 * filters);
      noiseAt.forEach((p, k) => noise.set(koffi.decode(p, 'double', filters) as ArrayLike<number>, k * filters));
      return {
        mean: floats(meanAt), sum: floats(sumAt), frames: int(cmn, CMN_NFRAME),
        noise, noiseUnset: (koffi.decode(stats, NOISE_UNDEFINED, 'uint8_t') as number) !== 0,
        slowPeak: double(NOISE_SLOW_PEAK),
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
      koffi.encode(stats, NOISE_SLOW_PEAK, 'double', state.slowPeak);
    },
  };
  // A fresh decoder's mean is its `-cmninit` prior (c0 about 41 for en-us): finite and of log-energy size.
  const { mean, frames } = access.read();
  if (frames < 0 || !mean.every(Number.isFinite) || Math.abs(mean[0]!) > 1000) return { unavailable: 'the cepstral mean read is not a log-energy mean' };
  return { access };
}
