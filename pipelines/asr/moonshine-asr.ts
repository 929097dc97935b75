import path from 'node:path';
import { modelsDir } from '../models/repo-root.js';
import { favourKnownNames, KNOWN_NAME_DEFAULTS, type KnownNameOptions } from './known-names.js';
import { asrText } from './llama-vocabulary.js';
import { pronunciations } from '../speaker/phonetic.js';
import { MOONSHINE_MIN_SAMPLES, MoonshineModel, type MoonshineResult } from './moonshine-model.js';
import type { AsrFinal, AsrTurnOptions, AsrTurnStream, MoonshineAsrConfig, StreamingAsr } from './streaming-asr.js';

const RATE = 16000;
/** Token limit per second of audio (moonshine-js's bound on greedy decoding, which stops runaway repeats). */
const TOKENS_PER_SECOND = 6;
/** Token limit of the shortest pieces ("yes." is three tokens with its end token; 6/s gives a 0.3 s turn one). */
const MIN_TOKENS = 4;
/**
 * Longest piece of a turn decoded at once (Moonshine's authors recommend inputs below about 30 s); longer
 * turns are cut at the quietest 100 ms of the window's last {@link CUT_SEARCH_SAMPLES}.
 */
export const MOONSHINE_MAX_PIECE_SAMPLES = 25 * RATE;
const CUT_SEARCH_SAMPLES = 5 * RATE;
const CUT_FRAME = RATE / 10;

/** Silence appended to the audio decoded at a pause (500 ms). */
const PAUSE_PADDING_SAMPLES = RATE / 2;

/** Shortest turn decoded again when it gave no words (`MoonshineAsrConfig.retryEmpty`): 300 ms. */
const RETRY_MIN_SAMPLES = (3 * RATE) / 10;
/** Frames of the lead-in judged quiet (32 ms), their level against the loudest frame's, and what is kept before speech. */
const LEAD_FRAME = 512;
const LEAD_QUIET_DB = -30;
const LEAD_MARGIN_SAMPLES = RATE / 5;

/**
 * `audio` from 200 ms before its first 32 ms frame within 30 dB of its loudest one: the quiet lead-in dropped. The
 * same audio when nothing is dropped.
 */
export function trimQuietLead(audio: Float32Array): Float32Array {
  const levels: number[] = [];
  for (let i = 0; i + LEAD_FRAME <= audio.length; i += LEAD_FRAME) {
    let e = 0;
    for (let j = i; j < i + LEAD_FRAME; j++) e += audio[j]! * audio[j]!;
    levels.push(Math.sqrt(e / LEAD_FRAME));
  }
  const loudest = Math.max(0, ...levels);
  if (loudest === 0) return audio;
  const first = levels.findIndex((l) => l >= loudest * 10 ** (LEAD_QUIET_DB / 20));
  const from = Math.max(0, first * LEAD_FRAME - LEAD_MARGIN_SAMPLES);
  return from > 0 ? audio.subarray(from) : audio;
}

/** Default manifest name of the Moonshine model. */
export const MOONSHINE_DEFAULT_MODEL = 'moonshine-tiny';

/**
 * Moonshine (Useful Sensors) encoder-decoder recogniser on onnxruntime-node. A turn's audio is buffered and
 * decoded whole when it ends (pieces of at most 25 s, decoded as soon as they are complete); with
 * `partialIntervalMs` the audio so far is re-decoded in the background at most that often, and `accept` /
 * `flush` return the newest finished partial. Moonshine has no vocabulary hook: turn `names` are favoured
 * after decoding, in the final's text only (`favourKnownNames`, unless `knownNames` is false).
 */
export class MoonshineAsr implements StreamingAsr {
  readonly name = 'moonshine';
  readonly producesPartials: boolean;

  private constructor(private readonly model: MoonshineModel, private readonly partialIntervalSamples: number, private readonly pauseDecode: boolean,
    private readonly knownNames: KnownNameOptions | false, private readonly retryEmpty: boolean) {
    this.producesPartials = partialIntervalSamples > 0;
  }

  /**
   * Load the model from `modelDir` (default `<MODELS_DIR>/<model>`).
   * @throws ParleyError `PARLEY_ERR_MODEL_MISSING` naming the `models fetch` command when files are missing.
   */
  static async load(config: MoonshineAsrConfig): Promise<MoonshineAsr> {
    const model = config.model ?? MOONSHINE_DEFAULT_MODEL;
    const dir = config.modelDir ?? path.join(modelsDir(), model);
    const hint = `; run \`npm run models -- fetch ${model}\` (or \`node dist/scripts/models.js fetch ${model}\`) ` +
      'on a machine that can reach registry.npmjs.org, or set MODELS_DIR';
    const interval = config.partialIntervalMs ?? 0;
    if (!Number.isFinite(interval) || interval < 0) throw new RangeError(`partialIntervalMs must be 0 or more, got ${interval}`);
    return new MoonshineAsr(await MoonshineModel.load(dir, hint), Math.round((interval * RATE) / 1000), config.pauseDecode ?? false,
      config.knownNames === false ? false : { ...KNOWN_NAME_DEFAULTS, ...config.knownNames }, config.retryEmpty ?? true);
  }

  startTurn(options: AsrTurnOptions = {}): AsrTurnStream {
    return new MoonshineTurn(this.model, this.partialIntervalSamples, this.pauseDecode, this.knownNames, options.names ?? [], this.retryEmpty);
  }

  async close(): Promise<void> {
    await this.model.close();
  }
}

/** Greedy decoding's token limit for `samples` of audio. */
export function moonshineTokenLimit(samples: number): number {
  return Math.max(MIN_TOKENS, Math.ceil((samples / RATE) * TOKENS_PER_SECOND));
}

class MoonshineTurn implements AsrTurnStream {
  private chunks: Float32Array[] = [];
  private length = 0;
  /** Decodes of the pieces cut from the turn so far, in order. */
  private readonly pieces: Promise<MoonshineResult>[] = [];
  /** This turn's decodes run one after another. */
  private work: Promise<unknown> = Promise.resolve();
  private sincePartial = 0;
  private partialBusy = false;
  private latest = '';
  private returned = '';
  private done = false;
  /** Without partials: the decode started at the latest pause, and how many buffered samples it covers. */
  private atPause: { samples: number; result: Promise<MoonshineResult> } | undefined;

  constructor(private readonly model: MoonshineModel, private readonly interval: number, private readonly pauseDecode: boolean,
    private readonly knownNames: KnownNameOptions | false, private names: readonly string[], private readonly retryEmpty = true) {}

  /** Names are matched when the turn ends, so names read while it was spoken count for it too. */
  setNames(names: readonly string[]): void {
    this.names = names;
  }

  accept(samples: Float32Array): string | undefined {
    if (this.done || samples.length === 0) return undefined;
    this.chunks.push(samples.slice());
    this.length += samples.length;
    while (this.length >= MOONSHINE_MAX_PIECE_SAMPLES) this.cutPiece();
    if (this.interval === 0) return undefined;
    this.sincePartial += samples.length;
    if (this.sincePartial >= this.interval) {
      this.sincePartial = 0;
      this.startPartial();
    }
    return this.takePartial();
  }

  flush(): string | undefined {
    if (this.done) return undefined;
    if (this.interval === 0) {
      if (this.pauseDecode) this.startPauseDecode();
      return undefined;
    }
    this.sincePartial = 0;
    this.startPartial();
    return this.takePartial();
  }

  async finish(): Promise<AsrFinal> {
    if (this.done) return { text: '', confidence: 0 };
    this.done = true;
    // A turn never cut into pieces: all of it, for a second decode if the first hears nothing.
    const whole = this.pieces.length === 0 ? this.take(this.length, false) : undefined;
    let rest = this.take(this.length);
    if (this.atPause) {
      // The audio up to the last pause is being decoded already. When what came after it holds no words
      // (the silence that ended the turn) that decode is the final; otherwise the whole is decoded again,
      // as without pauseDecode.
      const tail = rest.subarray(this.atPause.samples);
      const after = tail.length >= MOONSHINE_MIN_SAMPLES ? await this.decode(tail) : undefined;
      if (!after || asrText(after.text) === '') {
        this.pieces.push(this.atPause.result);
        rest = new Float32Array(0);
      }
    }
    // A remainder under 100 ms after a cut is silence or a word's tail; a short turn of its own is padded.
    if (rest.length >= MOONSHINE_MIN_SAMPLES || (this.pieces.length === 0 && rest.length > 0)) this.pieces.push(this.decode(rest));
    let results = await Promise.all(this.pieces);
    if (this.retryEmpty && whole && whole.length >= RETRY_MIN_SAMPLES && results.every((r) => asrText(r.text) === '')) {
      const trimmed = trimQuietLead(whole);
      if (trimmed.length < whole.length) results = [await this.decode(trimmed)];
    }
    const heard = results.map((r) => r.text).join(' ');
    const tokens = results.reduce((n, r) => n + r.tokens.length + (r.cut ? 0 : 1), 0);
    const logProb = results.reduce((s, r) => s + r.logProb, 0);
    const matched = this.knownNames && this.names.length > 0 ? favourKnownNames(heard, this.names, pronunciations, this.knownNames) : undefined;
    const text = matched?.text ?? asrText(heard);
    return {
      text, confidence: text === '' || tokens === 0 ? 0 : Math.exp(logProb / tokens),
      ...(matched ? { knownNames: { heard, corrections: matched.corrections } } : {}),
    };
  }

  abort(): void {
    this.done = true;
    this.chunks = [];
    this.length = 0;
  }

  /** Queue a decode of `audio` behind this turn's earlier ones. */
  private decode(audio: Float32Array): Promise<MoonshineResult> {
    const p = this.work.then(() => this.model.transcribe(audio, moonshineTokenLimit(audio.length)));
    this.work = p.catch(() => undefined);
    return p;
  }

  /** Cut the buffered window at its quietest 100 ms near the end and queue that piece's decode. */
  private cutPiece(): void {
    const window = this.take(MOONSHINE_MAX_PIECE_SAMPLES, false);
    let best = window.length;
    let bestEnergy = Infinity;
    for (let end = window.length; end >= window.length - CUT_SEARCH_SAMPLES; end -= CUT_FRAME) {
      let e = 0;
      for (let i = end - CUT_FRAME; i < end; i++) e += window[i]! * window[i]!;
      if (e < bestEnergy) { bestEnergy = e; best = end - CUT_FRAME / 2; }
    }
    const piece = this.take(best);
    this.pieces.push(this.decode(piece));
    this.atPause = undefined;
  }

  /** The first `n` buffered samples as one array; removed from the buffer unless `remove` is false. */
  private take(n: number, remove = true): Float32Array {
    if (this.chunks.length > 1) {
      const all = new Float32Array(this.length);
      let at = 0;
      for (const c of this.chunks) { all.set(c, at); at += c.length; }
      this.chunks = [all];
    }
    const all = this.chunks[0] ?? new Float32Array(0);
    const out = all.slice(0, n);
    if (remove) {
      this.chunks = out.length < all.length ? [all.subarray(out.length)] : [];
      this.length -= out.length;
    }
    return out;
  }

  /** Decode the audio buffered so far in the background: at a pause it may be all the turn's speech. */
  private startPauseDecode(): void {
    if (this.length < MOONSHINE_MIN_SAMPLES || this.atPause?.samples === this.length) return;
    const audio = this.take(this.length, false);
    // Followed by silence, as the turn's own audio will be if the pause ends it: cut off bare at the pause,
    // the last word was often lost on the development voices.
    const padded = new Float32Array(audio.length + PAUSE_PADDING_SAMPLES);
    padded.set(audio);
    this.atPause = { samples: audio.length, result: this.decode(padded) };
  }

  /** Re-decode the turn so far in the background unless a partial decode is already running. */
  private startPartial(): void {
    if (this.partialBusy || this.length + this.pieces.length === 0) return;
    this.partialBusy = true;
    const head = [...this.pieces];
    const tail = this.length > 0 ? this.take(this.length, false) : undefined;
    const task = this.work.then(async () => {
      if (this.done) return;
      const texts = (await Promise.all(head)).map((r) => r.text);
      if (tail && tail.length >= MOONSHINE_MIN_SAMPLES) texts.push((await this.model.transcribe(tail, moonshineTokenLimit(tail.length))).text);
      this.latest = asrText(texts.join(' '));
    });
    this.work = task.catch(() => undefined).finally(() => { this.partialBusy = false; });
  }

  /** The newest finished partial when it differs from the last one returned. */
  private takePartial(): string | undefined {
    if (this.latest === '' || this.latest === this.returned) return undefined;
    this.returned = this.latest;
    return this.latest;
  }
}
