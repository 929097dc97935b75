/** How much audio history {@link ArrivalClock} keeps at least, ms of session audio (it drops the older half in one go). */
const ARRIVAL_HISTORY_MS = 2 * 60_000;

/**
 * When each stretch of session audio arrived (wall clock), so latencies can be measured from the
 * moment the audio an event is about reached the server: `transcript.partial` lag, `transcript.final`
 * after the end of speech. Audio older than its history is unknown (no observation), never guessed.
 */
export class ArrivalClock {
  /** Session audio position (ms) after each frame, ascending, and the frame's arrival time. */
  private ends: number[] = [];
  private times: number[] = [];
  /** Audio up to here has been forgotten. */
  private forgottenUpToMs = -1;

  /** `now`: the clock arrival times are on, ms (default `performance.now`). */
  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Audio up to `positionMs` had arrived at `at` (on its clock, `now`). */
  record(positionMs: number, at: number): void {
    this.ends.push(positionMs);
    this.times.push(at);
    if ((this.ends[0] ?? positionMs) < positionMs - 2 * ARRIVAL_HISTORY_MS) {
      const keep = this.ends.findIndex((e) => e >= positionMs - ARRIVAL_HISTORY_MS);
      this.forgottenUpToMs = this.ends[keep - 1] ?? this.forgottenUpToMs;
      this.ends = this.ends.slice(keep);
      this.times = this.times.slice(keep);
    }
  }

  /** When the audio at `positionMs` arrived: the first frame reaching it; null when unknown. */
  arrivalOf(positionMs: number): number | null {
    if (positionMs <= this.forgottenUpToMs) return null;
    let lo = 0;
    let hi = this.ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.ends[mid] ?? 0) < positionMs) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.times.length ? this.times[lo] ?? null : null;
  }

  /** Seconds since the audio at `positionMs` arrived; null when unknown. */
  secondsSince(positionMs: number): number | null {
    const at = this.arrivalOf(positionMs);
    return at === null ? null : Math.max(0, this.now() - at) / 1000;
  }
}
