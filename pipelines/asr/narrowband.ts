import { isDeepStrictEqual } from 'node:util';
import type { AsrBackendConfig } from './streaming-asr.js';

/**
 * pocketsphinx options for narrowband streams (8 kHz input upsampled to 16 kHz: Twilio, `sample_rate=8000`):
 * acoustic scores on every frame and up to 10000 active HMMs, where wideband streams skip every second
 * frame with 3000. Chosen on bench/asr-narrowband.ts's development voices (docs/BENCHMARKS.md, "8 kHz
 * μ-law recognition"); front-end settings such as `-upperf` cannot be set here: the model's own
 * feat.params overrides them.
 */
export const NARROWBAND_OPTIONS: Readonly<Record<string, string>> = { '-ds': '1', '-maxhmmpf': '10000' };

/**
 * The recogniser configuration for narrowband streams: the pocketsphinx config's `narrowbandRecogniser`
 * (Moonshine) when it names one, else pocketsphinx with {@link NARROWBAND_OPTIONS}
 * under the operator's own options, without name spotting when `narrowbandNameSpotting` is false; null when
 * the backend needs nothing different (the wideband recogniser then serves those streams too).
 */
export function narrowbandAsrConfig(config: AsrBackendConfig): AsrBackendConfig | null {
  if (config.kind !== 'pocketsphinx') return null;
  if (config.narrowbandRecogniser) return config.narrowbandRecogniser;
  if (Object.keys(NARROWBAND_OPTIONS).length === 0) return null;
  return { ...config, options: { ...NARROWBAND_OPTIONS, ...config.options }, ...(config.narrowbandNameSpotting === false ? { nameSpotting: false } : {}) };
}

/**
 * The recogniser a worker loads for narrowband streams beside `config`'s own: {@link narrowbandAsrConfig}, or null
 * when that is none or the very configuration of the wideband recogniser (operator options that equal the narrowband
 * ones, say): the wideband recogniser, already loaded, serves those streams and nothing extra is loaded.
 */
export function narrowbandToLoad(config: AsrBackendConfig): AsrBackendConfig | null {
  const narrow = narrowbandAsrConfig(config);
  return narrow === null || isDeepStrictEqual(narrow, config) ? null : narrow;
}
