/**
 * Timing spans for a bench: wraps every method of some objects (stores, an embedder) in place, so
 * whoever already holds a reference to the object is timed too, and sums the time spent inside each
 * method per phase (e.g. per 100-turn window). Calls that overlap (a job queue with concurrency 2)
 * are each counted in full: read the figures as where time goes, not as a sum of wall time.
 */
export class Spans {
  /** phase → `object.method` → [calls, total ms]. */
  readonly phases = new Map<string, Map<string, [number, number]>>();
  phase = 'start';

  /** Time every method of `target` (own and inherited, not the constructor) under `name.method`. */
  wrap(name: string, target: object): void {
    const methods = new Set<string>();
    for (let p = Object.getPrototypeOf(target) as object | null; p && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null) {
      for (const m of Object.getOwnPropertyNames(p)) if (m !== 'constructor') methods.add(m);
    }
    for (const m of methods) {
      const desc = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(target), m);
      const fn = (target as Record<string, unknown>)[m];
      if (typeof fn !== 'function' || desc?.get) continue;
      const record = (t0: number): void => this.#add(`${name}.${m}`, performance.now() - t0);
      (target as Record<string, unknown>)[m] = function timed(this: unknown, ...args: unknown[]): unknown {
        const t0 = performance.now();
        const out = (fn as (...a: unknown[]) => unknown).apply(this, args);
        if (out instanceof Promise) return out.finally(() => record(t0));
        record(t0);
        return out;
      };
    }
  }

  #add(key: string, ms: number): void {
    let phase = this.phases.get(this.phase);
    if (!phase) this.phases.set(this.phase, phase = new Map());
    const cur = phase.get(key) ?? [0, 0];
    phase.set(key, [cur[0] + 1, cur[1] + ms]);
  }

  /** Markdown table: the `top` methods by total time over all phases, ms per phase. */
  table(top: number, phases: string[]): string {
    const totals = new Map<string, number>();
    for (const p of this.phases.values()) for (const [k, [, ms]] of p) totals.set(k, (totals.get(k) ?? 0) + ms);
    const keys = [...totals.entries()].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k]) => k);
    const cell = (p: string, k: string): string => {
      const v = this.phases.get(p)?.get(k);
      return v ? `${v[1].toFixed(0)} (${v[0]})` : '–';
    };
    return [`| method | ${phases.join(' | ')} |`, `|---|${phases.map(() => '---').join('|')}|`,
      ...keys.map((k) => `| ${k} | ${phases.map((p) => cell(p, k)).join(' | ')} |`)].join('\n');
  }
}
