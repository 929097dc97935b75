/**
 * A bounded pool of native decoders for one thread. At most `max` exist at once; a turn that finds
 * none free waits (first come, first served) for one to be given back, so concurrent turns never
 * create decoders beyond the cap. Decoders given back stay loaded (up to `maxIdle`) instead of being
 * freed and made again: each is ~160 MB of native memory, and making and freeing them per turn
 * fragments the thread's malloc arena, which the process then never gives back.
 */
export class DecoderPool<D> {
  private readonly idle: D[] = [];
  private readonly waiting: ((decoder: D | undefined) => void)[] = [];
  private live = 0;
  private peak = 0;
  private closed = false;

  /**
   * @param create makes one decoder (may throw).
   * @param free releases one decoder's native memory.
   * @param max most decoders alive at once (≥ 1).
   * @param maxIdle most kept loaded while no turn uses them (0…max).
   */
  constructor(private readonly create: () => D, private readonly free: (decoder: D) => void,
    readonly max: number, private readonly maxIdle: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`decoder cap must be a positive integer, got ${max}`);
  }

  /** Decoders alive now (in use or idle). */
  get size(): number {
    return this.live;
  }

  /** Most decoders alive at once since the pool was made. */
  get peakSize(): number {
    return this.peak;
  }

  /** Turns waiting for a decoder. */
  get waiters(): number {
    return this.waiting.length;
  }

  /** Make one decoder ahead of the first turn (fails early when the model is missing). */
  warm(): void {
    if (this.live === 0) this.idle.push(this.make());
  }

  /** A free decoder now, or `undefined` when all `max` are in use (then call {@link wait}) or the pool is closed. */
  tryTake(): D | undefined {
    if (this.closed) return undefined;
    const decoder = this.idle.pop();
    if (decoder !== undefined) return decoder;
    return this.live < this.max ? this.make() : undefined;
  }

  /**
   * Wait for a decoder to be given back; `undefined` when the pool closes first (or is closed). The
   * returned `cancel` withdraws from the queue.
   */
  wait(): { decoder: Promise<D | undefined>; cancel: () => void } {
    if (this.closed) return { decoder: Promise.resolve(undefined), cancel: () => undefined };
    let entry: ((decoder: D | undefined) => void) | undefined;
    const decoder = new Promise<D | undefined>((resolve) => {
      entry = resolve;
      this.waiting.push(resolve);
    });
    const cancel = (): void => {
      const at = entry ? this.waiting.indexOf(entry) : -1;
      if (at >= 0) this.waiting.splice(at, 1);
    };
    return { decoder, cancel };
  }

  /** Give a decoder back: to the first waiting turn, else kept idle, else freed. */
  give(decoder: D): void {
    const next = this.closed ? undefined : this.waiting.shift();
    if (next) {
      next(decoder);
    } else if (!this.closed && this.idle.length < this.maxIdle) {
      this.idle.push(decoder);
    } else {
      this.live -= 1;
      this.free(decoder);
    }
  }

  /** Free every idle decoder and release waiting turns; decoders still in a turn are freed when given back. */
  close(): void {
    this.closed = true;
    for (const resolve of this.waiting.splice(0)) resolve(undefined);
    for (const d of this.idle.splice(0)) {
      this.live -= 1;
      this.free(d);
    }
  }

  private make(): D {
    const decoder = this.create();
    this.live += 1;
    this.peak = Math.max(this.peak, this.live);
    return decoder;
  }
}
