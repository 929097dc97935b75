import type { NameCorrection, SpottedName, TimedWord } from './name-spotting.js';
import type { KnownNameOptions } from './known-names.js';
import type { NameSpottingOptions } from './pocketsphinx-name-spotter.js';

/**
 * The one interface every speech recogniser backend implements: a recogniser loads its model once and
 * hands out per-turn streams that take 16 kHz mono Float32 audio, return partial texts while the user
 * speaks and a final text per turn.
 */

/** A turn's final recognition result. */
export interface AsrFinal {
  /** Recognised text, lower case, words separated by single spaces; may be empty. */
  text: string;
  /** Confidence in [0, 1]; backends without a score report 0.5. */
  confidence: number;
  /**
   * Pocketsphinx turns given names: the first-pass words with their frames, the names the spotting pass
   * detected, and what it changed (`text` is already corrected). For benches and diagnostics.
   */
  nameSpotting?: { firstPass: TimedWord[]; spotted: SpottedName[]; corrections: NameCorrection[] };
  /**
   * Moonshine turns given names (`MoonshineAsrConfig.knownNames`): the recogniser's own text (cased and
   * punctuated) and the known names written over it (`text` is already corrected). For benches and diagnostics.
   */
  knownNames?: { heard: string; corrections: NameCorrection[] };
}

/** One turn of streaming recognition. Calls must not overlap; after `finish` or `abort` the stream is spent. */
export interface AsrTurnStream {
  /**
   * Feed 16 kHz mono Float32 samples in [-1, 1].
   * @returns the partial text when it changed since the last returned partial, else `undefined`.
   */
  accept(samples: Float32Array): string | undefined;
  /**
   * Decode everything accepted so far now, not at the next partial interval (the pipeline calls it when
   * a pause starts and just before the end of turn, so retrieval sees the whole utterance early).
   * @returns the partial text when it changed since the last returned partial, else `undefined`.
   */
  flush(): string | undefined;
  /** End the turn and resolve to its final text. */
  finish(): Promise<AsrFinal>;
  /** Abandon the turn; frees its decoder without a result. */
  abort(): void;
  /**
   * Names that arrived while the turn is open (`AsrTurnOptions.names` replaced). Backends that favour
   * names once the turn ends (Moonshine's match, pocketsphinx's spotting pass) use them for this turn's
   * final; absent elsewhere, where new names count from the next turn.
   */
  setNames?(names: readonly string[]): void;
}

/** Per-turn hints to the recogniser. */
export interface AsrTurnOptions {
  /**
   * Names the tenant knows (participants' names and aliases, any case). Backends that can favour them
   * do (pocketsphinx: a name-spotting pass, see `PocketsphinxAsrConfig.nameSpotting`; Moonshine: a phonetic
   * match of its text, see `MoonshineAsrConfig.knownNames`); others ignore them.
   */
  names?: readonly string[];
  /**
   * The stream this turn belongs to: one object per audio stream (`{}`), the same for each of its turns.
   * Backends that adapt to a stream keep that state per stream, keyed (weakly) by it: pocketsphinx
   * normalises each stream's turns by that stream's own cepstral mean, whichever pooled decoder serves
   * them, and decodes each stream's first turn twice (`PocketsphinxAsrConfig.primeFirstTurn`). A turn
   * started while the stream's previous turn is still decoding keeps its audio until that turn is done and
   * starts from the state it left (if it is finished first, it starts at once from the stream's latest
   * state, and the older turn's state is then not saved over it). Absent: the turn is normalised by
   * whatever mean its decoder was left with by earlier turns, of any stream.
   */
  stream?: object;
}

/** Where a recogniser reports what does not stop it (pino's signature: fields first, static message). */
export interface AsrLog {
  warn(fields: Record<string, unknown>, msg: string): void;
}

/** A loaded speech recogniser. One instance serves many concurrent turns within one thread. */
export interface StreamingAsr {
  /** Backend name, e.g. `pocketsphinx`. */
  readonly name: string;
  /** Whether turns produce partial texts before their final. */
  readonly producesPartials: boolean;
  /** Begin a new turn. */
  startTurn(options?: AsrTurnOptions): AsrTurnStream;
  /**
   * Start, in the background, what the backend needs to favour these names in later turns (pocketsphinx:
   * letter-to-sound pronunciations for names its dictionary lacks); resolves when that is done. Turns
   * never wait for it. Absent when the backend needs nothing.
   */
  prepareNames?(names: readonly string[]): Promise<void>;
  /** Release native resources; turns in flight are aborted. */
  close(): Promise<void>;
}

/** In-process CMU pocketsphinx (the embedded default). */
export interface PocketsphinxAsrConfig {
  kind: 'pocketsphinx';
  /** Model folder holding `en-us/`, `en-us.lm.bin` and `cmudict-en-us.dict`. Default `/usr/share/pocketsphinx/model/en-us`. */
  modelDir?: string;
  /** Minimum audio between partial hypotheses, in milliseconds. Default 300. */
  partialIntervalMs?: number;
  /**
   * Most decoders alive at once per thread (each ~160 MB of native memory; creating one takes
   * 0.3–0.5 s). A turn that overlaps more turns than this keeps its audio until a decoder is free and
   * then catches up. Default 4.
   */
  maxDecoders?: number;
  /** Decoders kept loaded between turns per thread (at most `maxDecoders`, its default). */
  maxIdleDecoders?: number;
  /**
   * Decode each stream's first turn twice (default true). pocketsphinx normalises each turn's cepstra by
   * a running mean it updates only when a turn ends, so a stream's first turn is normalised by the
   * model's `-cmninit` prior, far from many voices and channels, and was often garbage. The second pass
   * uses the mean the first pass measured on that turn (about one turn's extra CPU, once per stream).
   * Each stream then keeps its own mean across pooled decoders (`AsrTurnOptions.stream`); turns given
   * no stream go by the decoder instead: only a decoder's first turn is decoded twice, and later ones
   * use the mean of whichever stream it served last. `false`: one pass, from the prior or that mean.
   * See docs/BENCHMARKS.md, "First-turn recognition" and "… of every stream".
   */
  primeFirstTurn?: boolean;
  /**
   * Decoder options passed to pocketsphinx as on its command line, overriding Parley's defaults
   * (`POCKETSPHINX_DEFAULT_OPTIONS`), e.g. `{ '-maxhmmpf': '-1' }` for no pruning.
   */
  options?: Record<string, string>;
  /**
   * The name-spotting pass run on turns given `names` (`AsrTurnOptions`): keyword spotting of those names
   * over the turn's audio, replacing first-pass words that sound like a spotted name. `false` never runs
   * it. Default on with `NAME_SPOTTING_DEFAULTS`; it only runs for turns given names.
   */
  nameSpotting?: NameSpottingOptions | false;
  /** `false`: the narrowband recogniser (`narrowbandAsrConfig`, 8 kHz streams) runs no name-spotting pass. */
  narrowbandNameSpotting?: false;
  /**
   * The recogniser of narrowband streams (8 kHz: Twilio, `sample_rate=8000`) when it is not pocketsphinx with
   * the narrowband options: Moonshine, far better on phone lines (docs/BENCHMARKS.md, "Moonshine … against
   * pocketsphinx"). Absent: pocketsphinx with {@link narrowbandAsrConfig}'s options.
   */
  narrowbandRecogniser?: MoonshineAsrConfig;
}

/** A sherpa-onnx streaming transducer, its files fetched by the `models` command. */
export interface SherpaOnnxAsrConfig {
  kind: 'sherpa-onnx';
  /** Manifest name of the model. Default `sherpa-zipformer-en`. */
  model?: string;
  /** Folder holding the model files; default `<MODELS_DIR>/<model>`. */
  modelDir?: string;
  /** Minimum audio between partial decodes, in milliseconds. Default 200. */
  partialIntervalMs?: number;
}

/** Any OpenAI-compatible `/audio/transcriptions` endpoint: one final per turn, no partials. */
export interface OpenAiAsrConfig {
  kind: 'openai';
  /** API base URL, e.g. `https://api.openai.com/v1`; default env `OPENAI_BASE_URL`. */
  baseURL?: string;
  /** API key; default env `OPENAI_API_KEY`. */
  apiKey?: string;
  /** Transcription model. Default `whisper-1`. */
  model?: string;
  /** Request timeout in milliseconds. Default 15000. */
  timeoutMs?: number;
}

/** Moonshine encoder-decoder ONNX models (Useful Sensors, MIT), fetched by the `models` command. */
export interface MoonshineAsrConfig {
  kind: 'moonshine';
  /** Manifest name of the model (`moonshine-tiny`, `moonshine-base`). Default `moonshine-tiny`. */
  model?: string;
  /** Folder holding `encoder_model.onnx` and `decoder_model_merged.onnx`; default `<MODELS_DIR>/<model>`. */
  modelDir?: string;
  /**
   * Minimum audio between background re-decodes of the turn so far (partials), in milliseconds; 0: no
   * partials, one decode per turn (and per 25 s piece of a long turn). Default 0.
   */
  partialIntervalMs?: number;
  /**
   * Without partials: start decoding the turn so far at each pause (`flush`); at `finish`, when the audio
   * after the last pause holds no words, that decode is the final (only the short tail is decoded after
   * the turn ends), else the whole turn is decoded again. Default false.
   */
  pauseDecode?: boolean;
  /**
   * A turn of under 25 s that decodes to no words is decoded once more without its quiet lead-in (`trimQuietLead`):
   * Moonshine often ends at its first step on audio that opens with near-digital silence (a phone line's quiet, the
   * VAD's 300 ms pre-padding), so the turn, which the VAD heard as speech, was lost. `false` keeps the empty result.
   * Default true.
   */
  retryEmpty?: boolean;
  /**
   * Turns given names: heard words that sound like one of them are rewritten as it where the recogniser
   * capitalised them or the sentence names or addresses someone there (`favourKnownNames`). `false` never
   * does. Default on with `KNOWN_NAME_DEFAULTS`.
   */
  knownNames?: KnownNameOptions | false;
}

/** Backend selection; plain data so it can be sent to worker threads. */
export type AsrBackendConfig = PocketsphinxAsrConfig | SherpaOnnxAsrConfig | OpenAiAsrConfig | MoonshineAsrConfig;
