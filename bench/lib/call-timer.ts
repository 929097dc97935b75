/** Per-method call counts and durations of store objects, for benches that ask where time goes. */

/** What one method's calls cost. */
export interface CallStats {
  calls: number;
  /** Each call's duration, ms. */
  ms: number[];
}

/**
 * Records every promise-returning method call made through the proxies `wrap` returns, keyed
 * `<name>.<method>`. Calls that overlap are each timed in full, so the sum over methods can exceed
 * the wall-clock time of the work that made them.
 */
export class CallTimer {
  readonly stats = new Map<string, CallStats>();

  /**
   * `target` with every method call timed under `name`; `detail`, when given, adds a qualifier to a
   * call's key from its arguments (e.g. the collection a search ran in).
   */
  wrap<T extends object>(name: string, target: T, detail?: (method: string, args: unknown[]) => string | null): T {
    return new Proxy(target, {
      get: (obj, key, receiver) => {
        const value = Reflect.get(obj, key, receiver) as unknown;
        if (typeof value !== 'function' || typeof key !== 'string') return value;
        return (...args: unknown[]) => {
          const t0 = performance.now();
          const out = (value as (...a: unknown[]) => unknown).apply(obj, args);
          if (!(out instanceof Promise)) return out;
          const extra = detail?.(key, args);
          const done = (): void => this.#record(`${name}.${key}${extra ? `(${extra})` : ''}`, performance.now() - t0);
          return out.then((v) => { done(); return v; }, (err: unknown) => { done(); throw err; });
        };
      },
    });
  }

  /** Forget everything recorded so far. */
  reset(): void {
    this.stats.clear();
  }

  #record(key: string, ms: number): void {
    let s = this.stats.get(key);
    if (!s) {
      s = { calls: 0, ms: [] };
      this.stats.set(key, s);
    }
    s.calls += 1;
    s.ms.push(ms);
  }
}
