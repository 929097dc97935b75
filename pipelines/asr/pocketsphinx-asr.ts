import { existsSync } from 'node:fs';
import path from 'node:path';
import { ParleyError } from '../../graph/core/errors.js';
import { FestivalG2p } from './festival-g2p.js';
import { streamStateAccess, type StreamState, type StreamStateAccess } from './pocketsphinx-stream-state.js';
import { pocketsphinxApi, type Pointer, type PocketsphinxApi } from './pocketsphinx-ffi.js';
import { PocketsphinxNameSpotter } from './pocketsphinx-name-spotter.js';
import { DecoderPool } from './pocketsphinx-pool.js';
import type { AsrFinal, AsrLog, AsrTurnOptions, AsrTurnStream, PocketsphinxAsrConfig, StreamingAsr } from './streaming-asr.js';

const DEFAULT_MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';

/**
 * `primed`: the decoder has finished a turn, so its cepstral mean comes from speech, not the model's prior
 * (what turns without a stream go by). `state`: its cepstral-mean and noise statistics, when this library
 * build exposes them; `prior`: those as loaded (the model's `-cmninit` mean, nothing heard), where each
 * stream starts.
 */
interface Decoder { config: Pointer; ps: Pointer; primed: boolean; state?: StreamStateAccess; prior?: StreamState }

/**
 * One stream's turns (`AsrTurnOptions.stream`), numbered in the order they start. A turn starts decoding
 * once the stream's previous turn is done (or when it is itself finished first), so it starts from the
 * state that turn left; a state is saved only over an older turn's, so a turn finishing late never
 * replaces what a newer turn left.
 */
interface StreamTurns {
  /** The state after turn `savedTurn`; undefined before any turn finished, or when not reachable. */
  state: StreamState | undefined;
  /** Number of the turn whose end `state` is; 0 before any turn finished. */
  savedTurn: number;
  /** Turns started so far: the number of the latest. */
  started: number;
  /** The latest turn started, until it is done: the next turn of the stream waits for it. */
  latest: PocketsphinxTurn | undefined;
}

/** A turn's place in its stream. */
interface TurnOfStream { turns: StreamTurns; number: number; prime: boolean }

/**
 * Decoder options Parley sets over pocketsphinx's own defaults (see `PocketsphinxAsrConfig.options`):
 * acoustic scores every second frame (`-ds 2`) and at most 3000 active HMMs per frame (library default
 * 30000) take about a third less CPU per stream at the same word error rate on the fixtures and
 * SpeechBrain clips (docs/BENCHMARKS.md, `bench/asr-wer.ts`), so more live sessions fit on each core.
 */
export const POCKETSPHINX_DEFAULT_OPTIONS: Readonly<Record<string, string>> = { '-ds': '2', '-maxhmmpf': '3000' };

/** pocketsphinx's own values for the options above, for comparison. */
export const POCKETSPHINX_LIBRARY_OPTIONS: Readonly<Record<string, string>> = { '-ds': '1', '-maxhmmpf': '30000' };

/**
 * CMU pocketsphinx in-process over FFI. A decoder serves one turn at a time, so concurrent turns in one
 * thread each take a decoder from a bounded pool (created on demand, 0.3–0.5 s and ~160 MB each, kept
 * loaded for later turns). Past the cap (`maxDecoders`) a turn keeps its audio until a decoder is free
 * and then catches up, so native memory stays bounded however many turns overlap.
 */
export class PocketsphinxAsr implements StreamingAsr {
  readonly name = 'pocketsphinx';
  readonly producesPartials = true;
  /** @internal The thread's decoders (its `size` and `peakSize` are what tests and benches read). */
  readonly pool: DecoderPool<Decoder>;
  private readonly partialIntervalSamples: number;
  private readonly options: Record<string, string>;
  private readonly primeFirstTurn: boolean;
  private readonly streams = new WeakMap<object, StreamTurns>();
  /** Whether the recogniser already logged why decoders' stream state is not reachable (once is enough). */
  private stateFallbackLogged = false;
  /** The second pass that hears the tenant's names; undefined when `nameSpotting` is false. */
  private readonly spotter: PocketsphinxNameSpotter | undefined;
  /** Letter-to-sound for the spotter's names the dictionary lacks; undefined when spotting or it is off. */
  private readonly g2p: FestivalG2p | undefined;
  private closed = false;

  private constructor(private readonly api: PocketsphinxApi, private readonly modelDir: string, config: PocketsphinxAsrConfig,
    private readonly log?: AsrLog) {
    this.partialIntervalSamples = Math.round(((config.partialIntervalMs ?? 300) * 16000) / 1000);
    this.options = { ...POCKETSPHINX_DEFAULT_OPTIONS, ...config.options };
    this.primeFirstTurn = config.primeFirstTurn ?? true;
    const spotting = config.nameSpotting;
    const lts = spotting === false ? false : spotting?.letterToSound ?? {};
    this.g2p = lts === false ? undefined : new FestivalG2p({
      ...(lts.command ? { command: lts.command } : {}),
      onUnavailable: (reason) => log?.warn({ reason }, 'festival cannot run: names the pronouncing dictionary lacks are not spotted'),
    });
    this.spotter = spotting === false ? undefined : new PocketsphinxNameSpotter(api, modelDir, this.options, spotting, this.g2p);
    const max = config.maxDecoders ?? 4;
    this.pool = new DecoderPool(() => this.createDecoder(), (d) => this.freeDecoder(d), max,
      Math.min(max, config.maxIdleDecoders ?? max));
  }

  /**
   * Bind the library and load one decoder. `log` receives warnings that do not stop recognition.
   * `bind` (@internal, for tests): how the library's API is bound.
   * @throws ParleyError `PARLEY_ERR_MODEL_MISSING` when the library or model is not installed.
   */
  static load(config: PocketsphinxAsrConfig, log?: AsrLog, bind: () => PocketsphinxApi = pocketsphinxApi): PocketsphinxAsr {
    const modelDir = config.modelDir ?? DEFAULT_MODEL_DIR;
    const fix = 'install the Debian packages `pocketsphinx` and `pocketsphinx-en-us` (apt-get install pocketsphinx pocketsphinx-en-us)';
    for (const f of ['en-us', 'en-us.lm.bin', 'cmudict-en-us.dict']) {
      if (!existsSync(path.join(modelDir, f))) {
        throw new ParleyError('PARLEY_ERR_MODEL_MISSING', `pocketsphinx model file ${path.join(modelDir, f)} is missing; ${fix}`);
      }
    }
    let api: PocketsphinxApi;
    try {
      api = bind();
    } catch (err) {
      throw new ParleyError('PARLEY_ERR_MODEL_MISSING', `libpocketsphinx.so.3 cannot be loaded; ${fix}`, { cause: err });
    }
    const asr = new PocketsphinxAsr(api, modelDir, config, log);
    asr.pool.warm();
    return asr;
  }

  private createDecoder(): Decoder {
    const s = (v: string | null): unknown[] => ['str', v];
    const config = this.api.cmdLnInit(null, this.api.psArgs(), 1,
      ...s('-hmm'), ...s(path.join(this.modelDir, 'en-us')),
      ...s('-lm'), ...s(path.join(this.modelDir, 'en-us.lm.bin')),
      ...s('-dict'), ...s(path.join(this.modelDir, 'cmudict-en-us.dict')),
      ...Object.entries(this.options).flatMap(([k, v]) => [...s(k), ...s(v)]),
      ...s(null));
    if (!config) {
      throw new ParleyError('PARLEY_ERR_MODEL_MISSING',
        `pocketsphinx rejected its options ${JSON.stringify(this.options)} (PARLEY_POCKETSPHINX_OPTIONS)`);
    }
    const ps = this.api.psInit(config);
    if (!ps) throw new ParleyError('PARLEY_ERR_MODEL_MISSING', `pocketsphinx could not load the model in ${this.modelDir}`);
    const reach = streamStateAccess(this.api, ps);
    if ('unavailable' in reach && !this.stateFallbackLogged) {
      this.stateFallbackLogged = true;
      this.log?.warn({ reason: reach.unavailable },
        'pocketsphinx stream state not reachable: streams share pooled decoders\' cepstral mean; each stream\'s first turn is decoded twice');
    }
    const state = 'access' in reach ? reach.access : undefined;
    return { config, ps, primed: !this.primeFirstTurn, ...(state ? { state, prior: state.read() } : {}) };
  }

  private freeDecoder(d: Decoder): void {
    this.api.psFree(d.ps);
    this.api.cmdLnFree(d.config);
  }

  /**
   * Begin a turn. With `options.names` (and name spotting on), the final text is corrected by a
   * keyword-spotting pass for those names over the turn's audio; partials come from the first pass only.
   * With `options.stream`, the turn is normalised by that stream's own cepstral mean whichever pooled
   * decoder it gets, and the stream's first turn starts from the model's prior and is decoded twice
   * (`primeFirstTurn`); without it, by whatever mean the decoder was left with.
   */
  startTurn(options: AsrTurnOptions = {}): AsrTurnStream {
    if (this.closed) throw new ParleyError('PARLEY_ERR_SHUTTING_DOWN', 'speech recogniser is closed');
    let stream: TurnOfStream | undefined;
    if (options.stream) {
      let turns = this.streams.get(options.stream);
      if (!turns) this.streams.set(options.stream, turns = { state: undefined, savedTurn: 0, started: 0, latest: undefined });
      stream = { turns, number: ++turns.started, prime: this.primeFirstTurn };
    }
    return new PocketsphinxTurn(this.api, this.pool, this.partialIntervalSamples,
      this.spotter ? { spotter: this.spotter, names: options.names ?? [] } : undefined, stream);
  }

  /** @internal The state a stream's next turn starts from (for tests): undefined before its first turn. */
  streamState(stream: object): StreamState | undefined {
    return this.streams.get(stream)?.state;
  }

  /** Look up letter-to-sound pronunciations for the names' words the dictionary lacks (when spotting and festival are on). */
  prepareNames(names: readonly string[]): Promise<void> {
    return this.spotter && !this.closed ? this.spotter.prepare(names) : Promise.resolve();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.pool.close();
    this.g2p?.close();
    this.spotter?.close();
  }
}

class PocketsphinxTurn implements AsrTurnStream {
  private pcm = new Int16Array(4096);
  private sinceHyp = 0;
  private lastPartial = '';
  private done = false;
  private decoder: Decoder | undefined;
  /** While every decoder is busy: the turn's audio so far, and its place in the queue. */
  private held: Int16Array[] = [];
  private pending: { decoder: Promise<Decoder | undefined>; cancel: () => void } | undefined;
  /** The turn's audio, kept for the name-spotting pass (only when spotting is on). */
  private readonly kept: Int16Array[] | undefined;
  /** The turn's audio, kept to decode it again when its decoder is not yet primed (see `primeFirstTurn`). */
  private replay: Int16Array[] | undefined;
  /** The state (cepstral mean, noise statistics) the first pass started from; undefined when not reachable. */
  private startState: StreamState | undefined;
  /** Whether the turn asked the pool for a decoder (a stream's turn does once its previous turn is done). */
  private asked = false;
  /** The stream's next turn, waiting for this one to be done. */
  private next: PocketsphinxTurn | undefined;

  constructor(private readonly api: PocketsphinxApi, private readonly pool: DecoderPool<Decoder>,
    private readonly partialIntervalSamples: number,
    private readonly spotting?: { spotter: PocketsphinxNameSpotter; names: readonly string[] },
    private readonly stream?: TurnOfStream) {
    // Kept even before any name is known: names read while the turn is spoken (`setNames`) count for its final.
    this.kept = spotting ? [] : undefined;
    const previous = stream?.turns.latest;
    if (stream) stream.turns.latest = this;
    // The stream's previous turn still decoding: keep the audio until it is done, then start from the state it left.
    if (previous) previous.next = this;
    else this.ask();
  }

  /** Take a decoder, or queue for one; once only. */
  private ask(): void {
    if (this.asked || this.done) return;
    this.asked = true;
    const decoder = this.pool.tryTake();
    if (decoder) {
      this.begin(decoder);
      return;
    }
    this.pending = this.pool.wait();
    void this.pending.decoder.then((d) => this.begin(d));
  }

  /** The turn is done (finished or aborted): the stream's next turn may start. */
  private settle(): void {
    const { stream, next } = this;
    if (stream?.turns.latest === this) stream.turns.latest = undefined;
    this.next = undefined;
    next?.ask();
  }

  /**
   * Start the utterance on `decoder`. A stream's turn first gets the stream's own cepstral mean and noise
   * statistics (its first turn: the model's prior and none, and a second pass); a turn without a stream
   * keeps the decoder's, and only a decoder's first turn is decoded twice. Without access to the mean, a stream's first turn is still
   * decoded twice, its second pass normalised by a mean this turn has moved but not set alone.
   */
  private startOn(decoder: Decoder): void {
    this.decoder = decoder;
    const { stream } = this;
    if (stream) {
      const known = stream.turns.savedTurn > 0;
      const saved = stream.turns.state;
      if (decoder.state && decoder.prior) {
        // Frames count from the turn's start (with `-ds 2` which frames are scored follows that count,
        // else the decoder's history), then the stream's own statistics replace what start_stream reset.
        this.api.psStartStream(decoder.ps);
        decoder.state.write(saved ?? decoder.prior);
      }
      // No state yet (or none reachable before, and reachable now): the stream's first turn.
      if (stream.prime && saved === undefined && (!known || decoder.state)) this.replay = [];
    } else if (!decoder.primed) {
      this.replay = [];
    }
    this.startState = decoder.state?.read();
    this.api.psStartUtt(decoder.ps);
  }

  /** A decoder came free for a turn that waited: decode what it kept, or hand it on if aborted. */
  private begin(decoder: Decoder | undefined): void {
    this.pending = undefined;
    if (!decoder) return;
    if (this.done) {
      this.pool.give(decoder);
      return;
    }
    this.startOn(decoder);
    if (this.replay) this.replay = [...this.held];
    for (const chunk of this.held) this.api.psProcessRaw(decoder.ps, chunk, chunk.length, 0, 0);
    this.held = [];
  }

  /** The spotting pass runs when the turn ends, so names read while it was spoken count for it too. */
  setNames(names: readonly string[]): void {
    if (this.spotting) this.spotting.names = names;
  }

  accept(samples: Float32Array): string | undefined {
    if (this.done || samples.length === 0) return undefined;
    if (this.pcm.length < samples.length) this.pcm = new Int16Array(samples.length);
    for (let i = 0; i < samples.length; i++) {
      const v = samples[i] ?? 0;
      this.pcm[i] = v >= 1 ? 32767 : v <= -1 ? -32768 : Math.round(v * 32767);
    }
    const copy = this.kept || this.replay || !this.decoder ? this.pcm.slice(0, samples.length) : undefined;
    if (copy) this.kept?.push(copy);
    if (!this.decoder) {
      this.held.push(copy!);
      return undefined;
    }
    if (copy) this.replay?.push(copy);
    this.api.psProcessRaw(this.decoder.ps, this.pcm, samples.length, 0, 0);
    this.sinceHyp += samples.length;
    if (this.sinceHyp < this.partialIntervalSamples) return undefined;
    return this.flush();
  }

  flush(): string | undefined {
    if (this.done || !this.decoder) return undefined;
    this.sinceHyp = 0;
    const hyp = normalise(this.api.psGetHyp(this.decoder.ps, null));
    if (hyp === '' || hyp === this.lastPartial) return undefined;
    this.lastPartial = hyp;
    return hyp;
  }

  async finish(): Promise<AsrFinal> {
    if (this.done) return { text: '', confidence: 0 };
    // Finished before the stream's previous turn is done (a caller finishing out of order): start now,
    // from the stream's latest saved state, rather than wait for a turn the caller may finish after this one.
    this.ask();
    if (this.pending) await this.pending.decoder;
    this.done = true;
    try {
      return this.decode();
    } finally {
      this.settle();
    }
  }

  private decode(): AsrFinal {
    const decoder = this.decoder;
    if (!decoder) return { text: '', confidence: 0 };
    const { ps } = decoder;
    this.api.psEndUtt(ps);
    // The stream's mean from now on: the first pass counted this turn's frames once (a second pass would twice).
    const measured = decoder.state?.read();
    let finalState = this.startState;
    if (this.replay) {
      this.decodeAgain(ps, this.replay);
      finalState = measured;
    }
    // An older turn finishing after a newer one leaves the newer one's state.
    const turns = this.stream?.turns;
    if (turns && this.stream!.number > turns.savedTurn) {
      turns.state = measured;
      turns.savedTurn = this.stream!.number;
    }
    decoder.primed = true;
    this.replay = undefined;
    let text = normalise(this.api.psGetHyp(ps, null));
    // The utterance posterior shrinks with length; its per-word geometric mean is comparable across turns.
    const posterior = text === '' ? 0 : this.api.logmathExp(this.api.psGetLogmath(ps), this.api.psGetProb(ps));
    const confidence = text === '' ? 0 : Math.pow(posterior, 1 / text.split(' ').length);
    let nameSpotting: AsrFinal['nameSpotting'];
    try {
      const keyphrases = this.spotting && this.spotting.names.length > 0 && text !== '' ? this.spotting.spotter.keyphraseFile(this.spotting.names) : null;
      if (this.spotting && this.kept && keyphrases) {
        const { spotter } = this.spotting;
        const firstPass = spotter.segments(ps);
        const fixed = spotter.spot(keyphrases, this.kept, firstPass, finalState);
        if (fixed) {
          nameSpotting = { firstPass, spotted: fixed.spotted, corrections: fixed.corrections };
          if (fixed.corrections.length > 0) text = fixed.words.join(' ');
        }
      }
    } finally {
      this.decoder = undefined;
      this.pool.give(decoder);
    }
    return { text, confidence: Math.max(0, Math.min(1, confidence)), ...(nameSpotting ? { nameSpotting } : {}) };
  }

  /**
   * The first pass ended by setting the decoder's cepstral mean from this turn's own audio (pocketsphinx
   * updates it when a turn ends); a second pass over the same audio is decoded with that mean.
   */
  private decodeAgain(ps: Pointer, audio: readonly Int16Array[]): void {
    this.api.psStartUtt(ps);
    for (const chunk of audio) this.api.psProcessRaw(ps, chunk, chunk.length, 0, 0);
    this.api.psEndUtt(ps);
  }

  abort(): void {
    if (this.done) return;
    this.done = true;
    this.held = [];
    this.replay = undefined;
    this.pending?.cancel();
    this.pending = undefined;
    const decoder = this.decoder;
    this.decoder = undefined;
    if (decoder) {
      this.api.psEndUtt(decoder.ps);
      this.pool.give(decoder);
    }
    this.settle();
  }
}

/** Lower case, drop pocketsphinx's filler and alternate-pronunciation markers, single spaces. */
function normalise(hyp: string | null): string {
  if (!hyp) return '';
  return hyp.split(/\s+/).filter((w) => w && !w.startsWith('<') && !w.startsWith('['))
    .map((w) => w.replace(/\(\d+\)$/, '').toLowerCase()).join(' ');
}
