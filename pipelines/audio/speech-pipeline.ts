import type { AsrTurnStream, StreamingAsr } from '../asr/streaming-asr.js';
import type { AudioSessionEvent } from './audio-events.js';
import { PIPELINE_SAMPLE_RATE } from './audio-format.js';
import { LevelControl } from './level-control.js';
import { SILERO_CONTEXT_SAMPLES, SILERO_WINDOW_SAMPLES, type SileroStreamState, type SileroVadModel } from './silero-vad-model.js';
import { TurnSegmenter, type EndReason } from './turn-segmenter.js';
import { resolveVadOptions, type ResolvedVadOptions, type VadOptions } from './vad-options.js';

const SAMPLES_PER_MS = PIPELINE_SAMPLE_RATE / 1000;
/** Audio kept after the speech end in a turn's span, in milliseconds. */
const TAIL_MS = 150;

/** Options of one stream's pipeline. */
export interface SpeechPipelineOptions {
  vad?: VadOptions;
  /** First turn id (a stream re-opened after a worker crash continues the numbering). Default 1. */
  firstTurnId?: number;
  /**
   * The stream was sampled at 8 kHz or less (a phone line): the worker recognises it with its narrowband
   * recogniser settings (`narrowbandAsrConfig`). Default false.
   */
  narrowband?: boolean;
  /**
   * Names the tenant knows (participants' names and aliases), passed to the recogniser at each turn's
   * start (`AsrTurnOptions.names`); `setNames` replaces them. Default none.
   */
  names?: string[];
}

/** `heard`: the turn's latest non-empty partial text ('' before any), what its final falls back to when it comes back empty. */
interface OpenTurn { id: number; onsetMs: number; asr: AsrTurnStream; chunks: Float32Array[]; firstSample: number; heard: string }

/**
 * One stream's VAD → end-of-turn → streaming ASR pipeline over 16 kHz audio. Holds the stream's
 * recurrent VAD state, pre-speech ring and open turn; the model and recogniser are shared per thread.
 * Events go to `emit`; a turn's final arrives asynchronously after its `speech_stopped`.
 */
export class SpeechPipeline {
  private readonly opts: ResolvedVadOptions;
  private readonly segmenter: TurnSegmenter;
  private readonly vadState: SileroStreamState;
  /** This stream's gain control before the VAD (`vad.gainControl`), absent when off. */
  private readonly level: LevelControl | undefined;
  private readonly pending = new Float32Array(SILERO_WINDOW_SAMPLES);
  private pendingLength = 0;
  /** Session sample index of the next sample expected. */
  private nextSample = 0;
  private readonly ring: { start: number; samples: Float32Array }[] = [];
  private readonly ringWindows: number;
  private turn: OpenTurn | undefined;
  private nextTurnId: number;
  private names: readonly string[];
  /** This stream's key for the recogniser's per-stream state (`AsrTurnOptions.stream`: its cepstral mean). */
  private readonly asrStream = {};
  private closed = false;

  constructor(private readonly vad: SileroVadModel, private readonly asr: StreamingAsr,
    private readonly emit: (event: AudioSessionEvent) => void, options: SpeechPipelineOptions = {}) {
    this.opts = resolveVadOptions(options.vad);
    this.segmenter = new TurnSegmenter(this.opts);
    this.vadState = vad.createState();
    this.level = this.opts.gainControl === 'off' ? undefined : new LevelControl();
    this.nextTurnId = options.firstTurnId ?? 1;
    this.names = options.names ?? [];
    if (this.names.length > 0) void asr.prepareNames?.(this.names);
    this.ringWindows = Math.ceil(((this.opts.prePaddingMs + this.opts.minSpeechMs) * SAMPLES_PER_MS) / SILERO_WINDOW_SAMPLES) + 2;
  }

  /**
   * Names for the recogniser to favour from the next turn on (see `SpeechPipelineOptions.names`), and in the open
   * turn where its backend takes them (`AsrTurnStream.setNames`): the session's first names are read while its
   * first words may already be spoken.
   */
  setNames(names: readonly string[]): void {
    this.names = names;
    this.turn?.asr.setNames?.(names);
    void this.asr.prepareNames?.(names);
  }

  /** Session time in ms of the audio processed so far. */
  get positionMs(): number {
    return (this.nextSample - this.pendingLength) / SAMPLES_PER_MS;
  }

  /**
   * Process a chunk that starts at session sample `startSample`. A gap (audio shed upstream) is audio nobody
   * heard: the open turn ends where it begins (reason `overload`, with the partial window heard before it),
   * so speech after it starts a new turn, and the clock moves over it. Calls must not overlap.
   */
  async process(samples: Float32Array, startSample: number): Promise<void> {
    if (this.closed) return;
    if (startSample > this.nextSample) this.skipTo(startSample);
    let offset = 0;
    while (offset < samples.length) {
      const take = Math.min(SILERO_WINDOW_SAMPLES - this.pendingLength, samples.length - offset);
      this.pending.set(samples.subarray(offset, offset + take), this.pendingLength);
      this.pendingLength += take;
      offset += take;
      this.nextSample += take;
      if (this.pendingLength === SILERO_WINDOW_SAMPLES) {
        this.pendingLength = 0;
        await this.window(this.nextSample - SILERO_WINDOW_SAMPLES);
        if (this.closed) return;
      }
    }
  }

  private async window(start: number): Promise<void> {
    // The VAD hears the gained window; the recogniser and the span get it too only with `vad+asr`.
    if (this.level) this.level.process(this.pending, this.vadState.window);
    else this.vadState.window.set(this.pending);
    const win = this.opts.gainControl === 'vad+asr' ? this.vadState.window.slice() : Float32Array.from(this.pending);
    const prob = await this.vad.predict(this.vadState);
    const startMs = start / SAMPLES_PER_MS;
    const endMs = (start + SILERO_WINDOW_SAMPLES) / SAMPLES_PER_MS;
    this.ring.push({ start, samples: win });
    if (this.ring.length > this.ringWindows) this.ring.shift();
    const ev = this.segmenter.push(prob, startMs, endMs);
    if (ev?.type === 'start') this.startTurn(ev.onsetMs);
    else if (this.turn) this.feed(win);
    if (ev?.type === 'pause') this.flushPartial();
    if (ev?.type === 'stop') this.endTurn(ev.speechEndMs, ev.decidedAtMs, ev.reason);
  }

  private startTurn(onsetMs: number): void {
    const id = this.nextTurnId++;
    const from = Math.max(0, Math.round((onsetMs - this.opts.prePaddingMs) * SAMPLES_PER_MS));
    const first = this.ring.find((w) => w.start + SILERO_WINDOW_SAMPLES > from);
    this.turn = { id, onsetMs, asr: this.asr.startTurn({ stream: this.asrStream, ...(this.names.length > 0 ? { names: this.names } : {}) }), chunks: [], firstSample: first ? Math.max(from, first.start) : from, heard: '' };
    this.emit({ type: 'speech_started', turnId: id, audioStartMs: onsetMs });
    for (const w of this.ring) {
      if (w.start + SILERO_WINDOW_SAMPLES <= from) continue;
      this.feed(w.start >= from ? w.samples : w.samples.subarray(from - w.start));
    }
  }

  private feed(samples: Float32Array, endSample: number = this.nextSample - this.pendingLength): void {
    const turn = this.turn;
    if (!turn) return;
    turn.chunks.push(samples);
    const partial = turn.asr.accept(samples);
    if (partial !== undefined) this.partial(turn, partial, endSample / SAMPLES_PER_MS);
  }

  /**
   * Send the recogniser's current text as a partial now when it changed: at a pause (the silence that
   * may end the turn has begun, so retrieval can finish inside it) and before the end of turn.
   */
  private flushPartial(): void {
    const turn = this.turn;
    const partial = turn?.asr.flush();
    if (turn && partial !== undefined) this.partial(turn, partial, this.positionMs);
  }

  private partial(turn: OpenTurn, text: string, atMs: number): void {
    if (text.trim() !== '') turn.heard = text;
    this.emit({ type: 'partial', turnId: turn.id, text, atMs });
  }

  private endTurn(speechEndMs: number, decidedAtMs: number, reason: EndReason): void {
    // A last partial only from a recogniser that makes them (Moonshine's flush starts a decode instead).
    if (this.asr.producesPartials) this.flushPartial();
    const turn = this.turn;
    if (!turn) return;
    this.turn = undefined;
    this.emit({ type: 'speech_stopped', turnId: turn.id, audioEndMs: speechEndMs, decidedAtMs, reason });
    const audio = concat(turn.chunks, Math.round((speechEndMs + TAIL_MS) * SAMPLES_PER_MS) - turn.firstSample);
    turn.asr.finish().then(
      (r) => {
        // A final with no words after partials that had some (a second decoding pass can lose what the first heard):
        // the turn keeps its latest partial, at confidence 0, rather than vanish from the transcript.
        const fallback = r.text.trim() === '' && turn.heard !== '';
        this.emit({ type: 'final', turnId: turn.id, text: fallback ? turn.heard : r.text, startMs: turn.onsetMs, endMs: speechEndMs,
          confidence: fallback ? 0 : r.confidence, audio, audioOffsetMs: turn.firstSample / SAMPLES_PER_MS, asr: this.asr.name, ...(fallback ? { fromPartial: true } : {}) });
      },
      (err: unknown) => {
        this.emit({ type: 'error', code: 'PARLEY_ERR_UPSTREAM', fatal: false,
          message: `speech recognition failed for turn ${turn.id}: ${err instanceof Error ? err.message : String(err)}` });
        // Every speech_stopped gets its final, so consumers can rely on the pairing; an empty text marks failure.
        this.emit({ type: 'final', turnId: turn.id, text: '', startMs: turn.onsetMs, endMs: speechEndMs,
          confidence: 0, audio, audioOffsetMs: turn.firstSample / SAMPLES_PER_MS, asr: this.asr.name });
      },
    );
  }

  /** Force the open turn to end now (client `input.commit`). Audio still buffered below one window is included. */
  commit(): void {
    this.cut('commit');
  }

  /** End the open turn at the end of the audio heard so far, the partial window included. */
  private cut(reason: 'commit' | 'overload'): void {
    // Under `vad+asr` this last partial window goes ungained: gaining it here would advance the level state twice.
    if (this.pendingLength > 0 && this.turn) this.feed(this.pending.slice(0, this.pendingLength), this.nextSample);
    const ev = this.segmenter.commit(this.nextSample / SAMPLES_PER_MS, reason);
    if (ev?.type === 'stop') this.endTurn(ev.speechEndMs, ev.decidedAtMs, ev.reason);
  }

  /** Audio up to `startSample` was shed: end the open turn before it, and forget what preceded it. */
  private skipTo(startSample: number): void {
    this.cut('overload');
    this.pendingLength = 0;
    this.ring.length = 0; // padding for a turn after the gap must not reach back across it
    this.vadState.input.fill(0, 0, SILERO_CONTEXT_SAMPLES); // the context before a gap is not this audio's
    this.nextSample = startSample;
  }

  /** Abandon any open turn and stop processing. */
  close(): void {
    this.closed = true;
    this.turn?.asr.abort();
    this.turn = undefined;
  }
}

function concat(chunks: Float32Array[], maxLength: number): Float32Array {
  const total = chunks.reduce((n, c) => n + c.length, 0);
  const out = new Float32Array(Math.max(0, Math.min(total, maxLength)));
  let at = 0;
  for (const c of chunks) {
    if (at >= out.length) break;
    const part = c.subarray(0, out.length - at);
    out.set(part, at);
    at += part.length;
  }
  return out;
}
