import type { ShedSpans } from '../../pipelines/audio/shed-spans.js';

/**
 * What of a session's current audio stream is not stored, on its clock (ms into the stream, the clock of
 * `audio_start_ms`), so a shutdown can name where a resend must begin: turns begun and not stored yet, audio
 * shed under overload after the last stored turn (never heard, so never stored), and where shutdown cut the audio.
 */
export class UnstoredAudio {
  /** Audio turn number → where the turn starts, until its utterance is stored (or it had no words). */
  private readonly turnStarts = new Map<number, number>();
  /** The audio the stream shed; null before it opened. */
  private shed: ShedSpans | null = null;
  /** The latest end of a stored turn of the stream; 0 before the first. */
  private storedEndMs = 0;
  /** How much audio had been taken when shutdown began; null before shutdown. */
  private cutAtMs: number | null = null;

  /** A new audio stream opened, shedding into `shed`. */
  newStream(shed: ShedSpans): void {
    this.shed = shed;
    this.storedEndMs = 0;
  }

  /** Turn `turn` began at `startMs`. */
  turnStarted(turn: number, startMs: number): void {
    this.turnStarts.set(turn, startMs);
  }

  /** Turn `turn` has nothing to store (recognised as no words). */
  turnDropped(turn: number): void {
    this.turnStarts.delete(turn);
  }

  /** Turn `turn`, ending at `endMs`, is stored: shed audio before its end can no longer be resent on its own. */
  turnStored(turn: number, endMs: number): void {
    this.turnStarts.delete(turn);
    this.storedEndMs = Math.max(this.storedEndMs, endMs);
    this.shed?.forgetBefore(this.storedEndMs);
  }

  /** Shutdown began with `positionMs` of audio taken: nothing after it is taken (the first call counts). */
  cut(positionMs: number): void {
    this.cutAtMs ??= positionMs;
  }

  /**
   * Where the audio not stored begins: the earliest of the start of a turn not yet stored, where shutdown cut the
   * audio, and, when audio was shed after the last stored turn, that turn's end (0 before the first): what lies
   * between it and the shed audio is heard silence or noise, harmless to resend, and it is the point a resumed
   * `session.started` names (`unstoredStreamFromMs`). Null while every turn is stored, nothing was shed since
   * and audio is still taken.
   */
  fromMs(): number | null {
    const shedSince = this.shed?.firstFrom(this.storedEndMs) ?? null;
    const points = [...this.turnStarts.values(), shedSince === null ? null : this.storedEndMs, this.cutAtMs].filter((p): p is number => p !== null);
    return points.length > 0 ? Math.min(...points) : null;
  }
}
