import { PIPELINE_SAMPLE_RATE } from './audio-format.js';
import { rateHint } from './format-hints.js';

const SAMPLES_PER_MS = PIPELINE_SAMPLE_RATE / 1000;

/**
 * How long an overload episode lasts past its last shed frame, ms: it ends once this much audio has been
 * accepted since that frame, or this much wall-clock time has passed since it (by frame arrival times),
 * whichever comes first. Shedding after that is a new episode (a new error).
 */
export const EPISODE_END_MS = 1000;

/** Most audio a resumed connection may catch up on faster than real time, on top of the lead, ms (default of `maxCatchUpMs`). */
export const MAX_CATCH_UP_MS = 30_000;

/** Options of {@link OverloadGuard}. Durations in milliseconds. */
export interface OverloadGuardOptions {
  /** How far the workers may fall behind the live stream before new audio is shed. Default 2000. */
  maxQueuedMs?: number;
  /** How far a connection's audio may run ahead of real time since its first frame; `Infinity` disables. Default 5000. */
  maxLeadMs?: number;
  /** Most catch-up allowance a resumed connection gets ({@link OverloadGuard.resumed}). Default {@link MAX_CATCH_UP_MS}. */
  maxCatchUpMs?: number;
  /**
   * Catch-up allowance of the first connection, capped at `maxCatchUpMs`: audio a client held while it
   * was disconnected (a session resumed on a new audio stream, whose outage this process did not see). Default 0.
   */
  catchUpMs?: number;
}

/**
 * The guard's verdict on one frame: accept it, or shed it (with whether that starts an overload episode, and why);
 * `endedEpisode`: an overload episode ended at this frame (before it, when this frame starts a new one).
 */
export type Verdict = { shed: false; endedEpisode: boolean } | { shed: true; newEpisode: boolean; why: string; endedEpisode: boolean };

/** One connection's accounting, samples. */
interface Connection {
  firstFrameAt: number | undefined;
  /** The stream's accepted audio when the connection began. */
  acceptedFrom: number;
  /** Its catch-up allowance: how much more than `maxLeadMs` it may run ahead of real time. */
  catchUpSamples: number;
  /** The most its accepted audio ran ahead of real time: audio its client held and sent at once. */
  peakLeadSamples: number;
  /** Audio accepted that the server took later than it arrived (held while the session opened). */
  serverHeldSamples: number;
}

const newConnection = (firstFrameAt: number | undefined, acceptedFrom: number, catchUpSamples: number): Connection =>
  ({ firstFrameAt, acceptedFrom, catchUpSamples, peakLeadSamples: 0, serverHeldSamples: 0 });

/** How long a connection must have sent before its rate counts as sustained (for {@link rateHint}), ms. */
const SUSTAINED_MS = 3000;

const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/**
 * Overload accounting of one audio stream. A connection's audio may run up to `maxLeadMs` ahead of real
 * time since its first frame, plus, on a resumed connection, its catch-up allowance: the audio the client
 * held while it was away, which it may send faster than real time to get back to the live edge. The
 * workers may fall `maxQueuedMs` behind the live edge; audio the client sent ahead of it (within the lead)
 * does not count as the workers being behind, nor does held audio the workers have not had yet. Held audio
 * is what the connection shows to be held, never the whole allowance: what its client sent ahead of real
 * time (at most the allowance), or what the server itself held before the workers could have it (frames
 * taken later than they arrived, such as those sent while the session opened). A resumed connection that
 * sends in real time so gets no more backlog than a new one.
 */
export class OverloadGuard {
  /** The bounds, from the options. */
  private readonly maxQueuedSamples: number;
  private readonly maxLeadMs: number;
  private readonly maxCatchUpMs: number;
  /** Audio accepted in all, and of it what the workers have not acknowledged yet, samples. */
  private acceptedSamples = 0;
  private inFlightSamples = 0;
  /** When the latest frame arrived (`performance.now()`). */
  private lastFrameAt: number | undefined;
  /** The current connection: its first frame's arrival, the stream's accepted audio when it began, its catch-up allowance. */
  private connection: Connection;
  /** Set by `resumed` until the new connection's first frame. */
  private resumePending = false;
  /** During an overload episode: audio accepted since its last shed frame (samples), and when that frame arrived. */
  private episode: { acceptedSamples: number; lastShedAt: number } | null = null;

  constructor(options: OverloadGuardOptions = {}) {
    this.maxQueuedSamples = (options.maxQueuedMs ?? 2000) * SAMPLES_PER_MS;
    this.maxLeadMs = options.maxLeadMs ?? 5000;
    this.maxCatchUpMs = options.maxCatchUpMs ?? MAX_CATCH_UP_MS;
    const catchUpMs = Math.min(Math.max(0, options.catchUpMs ?? 0), this.maxCatchUpMs);
    this.connection = newConnection(undefined, 0, catchUpMs * SAMPLES_PER_MS);
  }

  /** Audio accepted and not yet acknowledged by the workers, samples. */
  get inFlight(): number {
    return this.inFlightSamples;
  }

  /** The workers finished `samples` of audio. */
  ack(samples: number): void {
    this.inFlightSamples = Math.max(0, this.inFlightSamples - samples);
  }

  /** The workers lost what they held (a crash). */
  dropInFlight(): void {
    this.inFlightSamples = 0;
  }

  /**
   * A client reconnected to this stream: its next frame begins a new connection, whose catch-up allowance
   * is the wall-clock gap since the previous frame arrived (the audio a live client held meanwhile), at
   * most `maxCatchUpMs`.
   */
  resumed(): void {
    if (this.lastFrameAt !== undefined) this.resumePending = true;
  }

  /**
   * Judge one frame of `samples` arriving at `arrivedAt` (`performance.now()` clock) and taken now, at `takenAt`
   * (later than it arrived when the server held it, default `arrivedAt`); an accepted frame is counted as in
   * flight. `eventsFull`: the consumer has stopped reading events.
   */
  take(samples: number, arrivedAt: number, eventsFull: boolean, takenAt = arrivedAt): Verdict {
    if (this.resumePending) {
      this.resumePending = false;
      const gapMs = Math.max(0, arrivedAt - (this.lastFrameAt ?? arrivedAt));
      this.connection = newConnection(arrivedAt, this.acceptedSamples, Math.min(gapMs, this.maxCatchUpMs) * SAMPLES_PER_MS);
    }
    this.lastFrameAt = arrivedAt;
    const c = this.connection;
    c.firstFrameAt ??= arrivedAt;
    // The wall clock alone ends an episode too: a client that paused after a shed frame (push to talk, a muted
    // mic) is not still in it minutes later, when an unrelated overload must be reported again.
    let endedEpisode = this.episode !== null && arrivedAt - this.episode.lastShedAt >= EPISODE_END_MS;
    if (endedEpisode) this.episode = null;
    const serverHeld = takenAt > arrivedAt;
    const why = this.overloaded(samples, arrivedAt - c.firstFrameAt, eventsFull, serverHeld);
    if (why !== undefined) {
      const newEpisode = this.episode === null;
      this.episode = { acceptedSamples: 0, lastShedAt: arrivedAt };
      return { shed: true, newEpisode, why, endedEpisode };
    }
    // A backlog that hovers at its bound sheds and accepts frames in turn: one episode, not an error per frame.
    if (this.episode) {
      this.episode.acceptedSamples += samples;
      if (this.episode.acceptedSamples >= EPISODE_END_MS * SAMPLES_PER_MS) {
        this.episode = null;
        endedEpisode = true;
      }
    }
    this.acceptedSamples += samples;
    this.inFlightSamples += samples;
    c.peakLeadSamples = Math.max(c.peakLeadSamples, this.acceptedSamples - c.acceptedFrom - (arrivedAt - (c.firstFrameAt ?? arrivedAt)) * SAMPLES_PER_MS);
    if (serverHeld) c.serverHeldSamples += samples;
    return { shed: false, endedEpisode };
  }

  /**
   * Why a frame of `samples` arriving `elapsedMs` after its connection's first frame (held by the server before
   * it is taken when `serverHeld`) must be shed; undefined when it may go on.
   */
  private overloaded(samples: number, elapsedMs: number, eventsFull: boolean, serverHeld: boolean): string | undefined {
    const c = this.connection;
    const catchUpMs = c.catchUpSamples / SAMPLES_PER_MS;
    const leadMs = (this.acceptedSamples - c.acceptedFrom + samples) / SAMPLES_PER_MS - elapsedMs;
    const maxLeadMs = this.maxLeadMs + catchUpMs;
    // Held audio, from the connection's start: what its client sent ahead of real time (within the allowance), or what
    // the server took late, whichever is more. Only this much is let wait for the workers: a connection that sends in
    // real time holds nothing, so its workers may fall only `maxQueuedMs` behind, however large its allowance.
    const clientHeldMs = Math.min(Math.max(c.peakLeadSamples / SAMPLES_PER_MS, leadMs), catchUpMs);
    const serverHeldMs = Math.min((c.serverHeldSamples + (serverHeld ? samples : 0)) / SAMPLES_PER_MS, this.maxCatchUpMs);
    const heldSamples = Math.max(clientHeldMs, serverHeldMs) * SAMPLES_PER_MS;
    // Audio sent ahead of the live edge (within the lead bound) is not a worker backlog, nor is held audio the workers
    // have not had yet: counting it would shed a resumed stream's first seconds. With no lead bound (Infinity) no lead
    // is allowed for, so the queue stays bounded.
    const aheadMs = Number.isFinite(this.maxLeadMs) ? Math.min(Math.max(0, leadMs - clientHeldMs), this.maxLeadMs) : 0;
    const acked = this.acceptedSamples - this.inFlightSamples;
    const heldEnd = c.acceptedFrom + heldSamples;
    const heldWaiting = Math.max(0, Math.min(this.acceptedSamples + samples, heldEnd) - Math.max(acked, c.acceptedFrom));
    const backlog = this.inFlightSamples + samples - aheadMs * SAMPLES_PER_MS - heldWaiting;
    if (backlog > this.maxQueuedSamples) {
      return `the speech workers are behind (${s((backlog - samples) / SAMPLES_PER_MS)} of audio waiting for them; at most ${s(this.maxQueuedSamples / SAMPLES_PER_MS)})`;
    }
    if (leadMs > maxLeadMs) {
      const allowance = catchUpMs > 0 ? ` plus ${s(catchUpMs)} to catch up after a reconnect` : '';
      // Sent at a steady multiple of real time for seconds (not a burst, not a catch-up): likely a wrong format.
      const sentMs = (this.acceptedSamples - c.acceptedFrom + samples) / SAMPLES_PER_MS;
      const hint = catchUpMs === 0 && elapsedMs >= SUSTAINED_MS ? rateHint(sentMs / elapsedMs) : undefined;
      return `audio is arriving faster than real time (${s(leadMs)} ahead; at most ${s(this.maxLeadMs)}${allowance})${hint ? `; ${hint}` : ''}`;
    }
    return eventsFull ? 'events are not being read' : undefined;
  }
}
