import { ParleyError } from '../../graph/core/errors.js';
import type { PoolStream, WorkerPool } from '../workers/worker-pool.js';
import type { AudioSessionEvent } from './audio-events.js';
import { AudioDecoder } from './audio-decoder.js';
import { PIPELINE_SAMPLE_RATE, validateStreamFormat, type StreamFormatParams } from './audio-format.js';

/** Streams declared at this rate or below carry phone-band audio and get the narrowband recogniser. */
export const NARROWBAND_MAX_RATE = 8000;
import { EventChannel } from './event-channel.js';
import { OverloadGuard } from './overload-guard.js';
import { MAX_SPANS_PER_NOTICE, ShedSpans } from './shed-spans.js';
import { F32_AS_S16_HINT, looksLikeF32 } from './format-hints.js';
import type { VadOptions } from './vad-options.js';

export { EPISODE_END_MS, MAX_CATCH_UP_MS } from './overload-guard.js';

const SAMPLES_PER_MS = PIPELINE_SAMPLE_RATE / 1000;
/** How many `pcm_s16le` frames with sound are looked at for float32 samples sent as such. */
const F32_CHECK_FRAMES = 50;

/** Options of {@link createAudioSession}. Durations in milliseconds. */
export interface AudioSessionOptions {
  /** Declared stream format; validated (defaults: `pcm_s16le`, 16000 Hz, mono). */
  format: StreamFormatParams;
  /** The inference pool this session's stream runs on. */
  pool: WorkerPool;
  /** VAD and end-of-turn settings. */
  vad?: VadOptions;
  /**
   * How far the workers may fall behind real time before new audio is shed: audio waiting for its worker,
   * less the audio the client sent ahead of real time (up to a finite `maxLeadMs`). Default 2000 ms.
   */
  maxQueuedMs?: number;
  /**
   * How far accepted audio may run ahead of wall-clock time since its connection's first frame (the first
   * frame, or the first after {@link AudioSession.resumed}); `Infinity` disables. Default 5000 ms.
   */
  maxLeadMs?: number;
  /** Most audio a resumed connection may catch up on faster than real time, on top of `maxLeadMs`. Default 30000 ms. */
  maxCatchUpMs?: number;
  /**
   * Catch-up allowance of the stream's first connection (at most `maxCatchUpMs`): a session resumed on a new
   * audio stream, whose client may hold audio from an outage this process did not see. Default 0.
   */
  catchUpMs?: number;
  /** Events the consumer may leave unread before new audio is shed. Default 256. */
  maxBufferedEvents?: number;
}

/**
 * How long a flushing {@link AudioSession.close} waits without progress while a stopped turn awaits its final, ms:
 * the worker decoding it acknowledges no audio meanwhile (a phone call's first turn is decoded twice).
 */
export const FINAL_WAIT_MS = 60_000;

/**
 * One client's audio session: decode → (worker) VAD → end of turn → streaming ASR, with events read by
 * iterating the session. Overload (audio faster than real time, a pool or consumer that falls behind)
 * sheds the excess audio and emits one `PARLEY_ERR_OVERLOADED` error event per episode, at its first shed frame,
 * and one `audio_shed` event with the exact spans shed when it ends (or the session closes during it).
 */
export class AudioSession implements AsyncIterable<AudioSessionEvent> {
  private readonly channel: EventChannel<AudioSessionEvent>;
  private readonly stream: PoolStream;
  /** Session clock: 16 kHz samples received, shed ones included. */
  private clockSamples = 0;
  private shedSamples = 0;
  /** The audio shed, as spans: reported per episode (`audio_shed`), and kept to say what was never heard. */
  readonly shed = new ShedSpans();
  /** What is shed: the lead, the workers' backlog, overload episodes. */
  private readonly guard: OverloadGuard;
  /** `pcm_s16le` frames with sound still to look at for float32 samples sent as such (0 once warned, or for other encodings). */
  private f32Checks: number;
  private awaitingFinal = 0;
  private pendingCommits = 0;
  private closed = false;
  private idleWaiters: (() => void)[] = [];
  /** Set while a flushing `close` waits: the workers acknowledged audio or sent an event. */
  private onProgress: (() => void) | null = null;

  /** @internal Use {@link createAudioSession}. */
  constructor(private readonly decoder: AudioDecoder, options: AudioSessionOptions) {
    this.channel = new EventChannel(options.maxBufferedEvents ?? 256);
    this.guard = new OverloadGuard(options);
    this.f32Checks = decoder.format.encoding === 'pcm_s16le' ? F32_CHECK_FRAMES : 0;
    this.stream = options.pool.openStream({ vad: options.vad ?? {}, narrowband: decoder.format.sampleRate <= NARROWBAND_MAX_RATE }, {
      onEvent: (e) => this.onEvent(e),
      onAck: (n) => { this.guard.ack(n); this.onProgress?.(); this.checkIdle(); },
      onCommitted: () => { this.pendingCommits = Math.max(0, this.pendingCommits - 1); this.checkIdle(); },
      onWorkerCrashed: (err) => {
        this.guard.dropInFlight();
        this.awaitingFinal = 0;
        this.pendingCommits = 0;
        this.channel.put({ type: 'error', code: err.code, message: err.message, fatal: false });
        this.checkIdle();
      },
    });
  }

  /** Session audio received so far, in milliseconds. */
  get positionMs(): number {
    return this.clockSamples / SAMPLES_PER_MS;
  }

  /** Session audio shed under overload so far, in milliseconds. */
  get shedMs(): number {
    return this.shedSamples / SAMPLES_PER_MS;
  }

  private onEvent(e: AudioSessionEvent): void {
    if (e.type === 'speech_stopped') this.awaitingFinal++;
    if (e.type === 'final') this.awaitingFinal = Math.max(0, this.awaitingFinal - 1);
    // After the count: a flushing close re-arms its wait here, with the final limit once a turn awaits its final.
    this.onProgress?.();
    this.channel.put(e);
    this.checkIdle();
  }

  /**
   * Take one binary frame in the session's format. `arrivedAt` (`performance.now()` clock, default now) is when
   * the frame came in, `takenAt` when it is taken (default `arrivedAt`): frames a caller held while the session
   * opened keep their own arrival times, so a client that sent at real time is not taken for one that sent
   * faster, and what was held that way does not count as the workers falling behind until they have had it.
   * @returns a `PARLEY_ERR_BAD_AUDIO` error for a malformed frame (not emitted as an event; the session
   * goes on), else `undefined`. Shed audio is reported through an `error` event instead.
   */
  push(frame: Uint8Array, arrivedAt = performance.now(), takenAt = arrivedAt): ParleyError | undefined {
    if (this.closed) return new ParleyError('PARLEY_ERR_SESSION_ENDED', 'audio session is closed');
    let samples: Float32Array;
    try {
      samples = this.decoder.decode(frame);
    } catch (err) {
      if (err instanceof ParleyError) return err;
      throw err;
    }
    if (this.f32Checks > 0) this.checkF32(frame);
    const start = this.clockSamples;
    this.clockSamples += samples.length;
    const verdict = this.guard.take(samples.length, arrivedAt, this.channel.full, takenAt);
    if (verdict.endedEpisode) this.reportShed();
    if (verdict.shed) {
      if (verdict.newEpisode) {
        const fromMs = Math.round(start / SAMPLES_PER_MS);
        this.channel.put({
          type: 'error', code: 'PARLEY_ERR_OVERLOADED', fatal: false, shedFromMs: fromMs,
          message: `audio shed from ${(fromMs / 1000).toFixed(1)} s of the stream (shed_from_ms ${fromMs}) until the overload ends (audio.shed will name the spans): ${verdict.why}`,
        });
      }
      this.shedSamples += samples.length;
      this.shed.add(start, samples.length);
      if (this.shed.pending >= MAX_SPANS_PER_NOTICE) this.reportShed();
      return undefined;
    }
    this.stream.push(samples, start);
    return undefined;
  }

  /** Warn once (non-fatal `PARLEY_ERR_BAD_AUDIO`, the audio still taken) when a frame looks like `f32le` sent as `pcm_s16le`. */
  private checkF32(frame: Uint8Array): void {
    const f32 = looksLikeF32(frame);
    if (f32 === undefined) return; // silence tells nothing: the frames looked at are those with sound
    this.f32Checks -= 1;
    if (!f32) return;
    this.f32Checks = 0;
    this.channel.put({ type: 'error', code: 'PARLEY_ERR_BAD_AUDIO', fatal: false, message: F32_AS_S16_HINT });
  }

  /** Tell the consumer which audio was shed since the last notice (an `audio_shed` event), when any was. */
  private reportShed(): void {
    const spans = this.shed.takeEpisode();
    const first = spans[0];
    const last = spans[spans.length - 1];
    if (first && last) this.channel.put({ type: 'audio_shed', fromMs: first.fromMs, untilMs: last.untilMs, spans });
  }

  /**
   * A client reconnected to this stream (same session, same server): its next frame begins a new connection,
   * whose lead is counted from that frame, with the audio the client held since the previous frame arrived
   * (at most `maxCatchUpMs`) as its catch-up allowance.
   */
  resumed(): void {
    this.guard.resumed();
  }

  /** Names the tenant knows, for the recogniser to favour from the next turn on (`SpeechPipelineOptions.names`). */
  setNames(names: string[]): void {
    if (!this.closed) this.stream.setNames(names);
  }

  /** End the current turn now (client `input.commit`). */
  commit(): void {
    if (this.closed) return;
    this.pendingCommits++;
    this.stream.commit();
  }

  private checkIdle(): void {
    if (this.guard.inFlight > 0 || this.awaitingFinal > 0 || this.pendingCommits > 0) return;
    for (const w of this.idleWaiters.splice(0)) w();
  }

  /**
   * Stop the session. With `flush`, first commit the open turn and wait until queued audio is processed
   * and every stopped turn has its final; it gives up only after `timeoutMs` (default 10000) without
   * progress (no acknowledged audio, no event), so a backlog on a busy machine is finished, not dropped
   * with the caller's last words. While a stopped turn still awaits its final, the limit is
   * `finalTimeoutMs` (default {@link FINAL_WAIT_MS}) instead: a worker decoding a turn acknowledges nothing
   * meanwhile, and on a loaded machine decoding a phone call's first turn (decoded twice) can outlast `timeoutMs` (trial11 F3). A turn
   * still without its final when it gives up is reported (a non-fatal `PARLEY_ERR_UPSTREAM` error event), never
   * lost silently. The event iterator then ends.
   */
  async close(options: { flush?: boolean; timeoutMs?: number; finalTimeoutMs?: number } = {}): Promise<void> {
    if (this.closed) return;
    // An episode still open when the stream closes is reported now: nothing else will end it.
    this.reportShed();
    if (options.flush) {
      this.commit();
      const idleLimit = options.timeoutMs ?? 10000;
      const finalLimit = Math.max(idleLimit, options.finalTimeoutMs ?? FINAL_WAIT_MS);
      const limit = (): number => (this.awaitingFinal > 0 ? finalLimit : idleLimit);
      let gaveUp = false;
      await new Promise<void>((resolve) => {
        let timer = setTimeout(() => { gaveUp = true; done(); }, limit());
        function done(): void {
          clearTimeout(timer);
          resolve();
        }
        this.onProgress = () => {
          clearTimeout(timer);
          timer = setTimeout(() => { gaveUp = true; done(); }, limit());
        };
        this.idleWaiters.push(done);
        this.checkIdle();
      });
      this.onProgress = null;
      if (gaveUp && this.awaitingFinal > 0) {
        const n = this.awaitingFinal;
        this.channel.put({ type: 'error', code: 'PARLEY_ERR_UPSTREAM', fatal: false,
          message: `speech recognition did not finish ${n === 1 ? 'the last turn' : `the last ${n} turns`} within ${finalLimit / 1000} s of the stream's end: ${n === 1 ? 'it was' : 'they were'} not stored (no transcript.final)` });
      }
    }
    this.closed = true;
    this.stream.close();
    this.decoder.close();
    this.channel.end();
  }

  [Symbol.asyncIterator](): AsyncIterator<AudioSessionEvent> {
    return this.channel[Symbol.asyncIterator]();
  }
}

/**
 * Open an audio session on `options.pool`.
 * @param signal aborting it closes the session (without flushing).
 * @throws ParleyError `PARLEY_ERR_BAD_AUDIO` for an unsupported format.
 */
export async function createAudioSession(options: AudioSessionOptions, signal?: AbortSignal): Promise<AudioSession> {
  const format = validateStreamFormat(options.format);
  const decoder = await AudioDecoder.create(format);
  const session = new AudioSession(decoder, options);
  if (signal) {
    if (signal.aborted) await session.close();
    else signal.addEventListener('abort', () => void session.close(), { once: true });
  }
  return session;
}
