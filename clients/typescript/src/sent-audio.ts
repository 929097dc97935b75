import type { Outgoing } from './audio-queue.js';
import { ParleyError } from './errors.js';

/** How much sent audio a stream keeps for a resend by default, ms (`StreamOptions.resendBufferMs`). */
export const DEFAULT_RESEND_BUFFER_MS = 30_000;

/**
 * Where to resend the old audio stream from: `shutDown` is what a closing `PARLEY_ERR_SHUTTING_DOWN` named (its
 * ms null: nothing unstored), `storedTo` the `unstored_from_ms` of the new `session.started`. Each says all
 * before it is stored, so the later of the two holds (null: nothing to resend).
 */
export function resendFrom(shutDown: { ms: number | null } | null, storedTo: number | null): number | null {
  if (shutDown?.ms === null) return null;
  if (shutDown === null) return storedTo;
  return storedTo === null ? shutDown.ms : Math.max(shutDown.ms, storedTo);
}

type AudioFrame = Extract<Outgoing, { kind: 'audio' }>;

/**
 * The audio a stream has sent to the server's current audio stream, on that stream's clock (ms from the
 * first frame it got: the clock of `audio_start_ms` and `unstored_from_ms`), keeping the last
 * `keepMs` of it so that, when the server names where the audio it did not store begins (shutting down,
 * or in the `session.started` of a resume after a crash), that audio can be sent again to the new stream.
 */
export class SentAudio {
  private frames: { frame: AudioFrame; startMs: number }[] = [];
  /** Audio sent to the current server process, ms. */
  private clockMs = 0;
  /** Audio sent again after a shutdown, ms (all resends together). */
  resentMs = 0;
  /**
   * Audio a shutting-down server named that was never sent again, ms (all shutdowns together): it had
   * left the buffer, or the stream ended without reaching another server ({@link abandon}).
   */
  lostMs = 0;

  /** @param keepMs how much of the latest sent audio to keep, ms (0: none, nothing is resent). */
  constructor(readonly keepMs: number) {
    if (!Number.isFinite(keepMs) || keepMs < 0) throw new ParleyError('PARLEY_CLIENT_BAD_OPTIONS', `resendBufferMs must be 0 or more, not ${keepMs}`);
  }

  /** A frame went out. */
  record(frame: AudioFrame): void {
    if (this.keepMs > 0) this.frames.push({ frame, startMs: this.clockMs });
    this.clockMs += frame.ms;
    let drop = 0;
    while (drop < this.frames.length && this.clockMs - this.frames[drop]!.startMs > this.keepMs) drop += 1;
    if (drop > 0) this.frames = this.frames.slice(drop);
  }

  /**
   * The server process ended: the frames that hold its audio from `fromMs` on (null: none of it), to
   * send before anything else to the next one, whose clock starts again at the first of them.
   */
  takeFrom(fromMs: number | null): AudioFrame[] {
    const from = fromMs ?? this.clockMs;
    const kept = this.frames.filter((f) => f.startMs + f.frame.ms > from).map((f) => f.frame);
    const heldFrom = this.frames[0]?.startMs ?? this.clockMs;
    this.lostMs += Math.max(0, Math.min(heldFrom, this.clockMs) - from);
    this.resentMs += kept.reduce((ms, f) => ms + f.ms, 0);
    this.frames = [];
    this.clockMs = 0;
    return kept;
  }

  /**
   * The server process that named `fromMs` (null: nothing) is gone and no other one will get its audio
   * (the stream could not resume): everything it named counts as lost.
   * @returns the audio lost by this, ms.
   */
  abandon(fromMs: number | null): number {
    const lost = fromMs === null ? 0 : Math.max(0, this.clockMs - fromMs);
    this.lostMs += lost;
    this.frames = [];
    this.clockMs = 0;
    return lost;
  }
}
