/**
 * BENCHMARK CHALLENGER, not used by the server: the float32 pre-pass on usearch's brute-force
 * `exactSearch` (SIMD kernels chosen for the CPU at run time), measured against the WebAssembly
 * pre-pass in `bench/store-search.ts`. It lost on filtered lists (usearch reads a contiguous
 * matrix, so a filtered list is copied first) and tied on full scans; see docs/BENCHMARKS.md.
 */
import { createRequire } from 'node:module';
import type { Prepass, PrepassFactory } from '../../graph/sqlite/prepass.js';

/** The slice of usearch's (CommonJS) API used here. */
interface Usearch {
  exactSearch(dataset: Float32Array, queries: Float32Array, dimensions: number, count: number, metric: string, threads?: number):
    { keys: BigUint64Array; distances: Float32Array };
  MetricKind: { IP: string };
}
const usearch = createRequire(import.meta.url)('usearch') as Usearch;

/** First number of candidates asked of the library, as a multiple of k (grown ×4 while short). */
const FIRST_ASK = 4;

/** usearch's exact (brute-force) inner-product search, single-threaded, as the pre-pass. */
export class UsearchPrepass implements Prepass {
  data: Float32Array;
  readonly bound: number;
  /** Contiguous copy of a filtered list's rows (usearch reads a matrix, not a row list). */
  private scratch = new Float32Array(0);

  constructor(private readonly dimension: number, capacity: number) {
    this.data = new Float32Array(dimension * capacity);
    // Any summation order: |error| ≤ dim·2^-24 for unit vectors, doubled for safety; the library
    // returns 1 − dot in float32, which adds at most a few units of 2^-24 (the +8).
    this.bound = (dimension + 8) * 2 ** -23;
  }

  grow(capacity: number): boolean {
    const grown = new Float32Array(capacity * this.dimension);
    grown.set(this.data.subarray(0, Math.min(this.data.length, grown.length)));
    this.data = grown;
    return true;
  }

  candidates(q: Float32Array, k: number, n: number, rows: Int32Array | null): Int32Array {
    const dim = this.dimension;
    // usearch ignores a typed array's byte offset: hand it arrays that start at offset 0.
    const matrix = rows === null ? this.data.subarray(0, n * dim) : this.gather(rows);
    let ask = Math.min(n, Math.max(k * FIRST_ASK, 16));
    for (;;) {
      const { keys, distances } = usearch.exactSearch(matrix, q, dim, ask, usearch.MetricKind.IP, 1);
      // Inner-product distance is 1 − dot; the k-th best score sets the cut.
      const cut = 1 - (distances[Math.min(k, keys.length) - 1] as number) - 2 * this.bound;
      const last = 1 - (distances[keys.length - 1] as number);
      if (ask < n && !(last < cut)) {
        ask = Math.min(n, ask * FIRST_ASK);
        continue;
      }
      const out: number[] = [];
      for (let j = 0; j < keys.length; j++) {
        if (!(1 - (distances[j] as number) < cut)) out.push(Number(keys[j]));
      }
      return Int32Array.from(out).sort();
    }
  }

  private gather(rows: Int32Array): Float32Array {
    const dim = this.dimension;
    if (this.scratch.length < rows.length * dim) this.scratch = new Float32Array(rows.length * dim);
    for (let j = 0; j < rows.length; j++) {
      const at = (rows[j] as number) * dim;
      this.scratch.set(this.data.subarray(at, at + dim), j * dim);
    }
    return this.scratch.subarray(0, rows.length * dim);
  }
}

/** The usearch pre-pass, for every dimension. */
export const usearchPrepass: PrepassFactory = (dimension, capacity) => new UsearchPrepass(dimension, capacity);
