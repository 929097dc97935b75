/**
 * The float32 pre-pass of exact top-k: it finds, among many rows, the few whose float32 score could
 * still place them in the k best; `VectorMatrix` rescores only those in float64. The server uses
 * the WebAssembly one (`simd-dot.ts`); `bench/store-search.ts` plugs in others to compare.
 */

/** Row storage plus a float32 pre-pass over it. */
export interface Prepass {
  /** The rows, row-major, `dimension` floats each; fetch again after `grow`. */
  readonly data: Float32Array;
  /**
   * Bound on |float32 score - float64 score| for unit vectors: a row whose float32 score is more
   * than twice this below the k-th best float32 score cannot be among the exact k best.
   */
  readonly bound: number;
  /** Room for `capacity` rows, keeping the rows; false when it cannot grow that far. */
  grow(capacity: number): boolean;
  /**
   * Positions into the list (`rows`, or rows 0..n-1 when null), ascending, whose exact score may
   * be among the `k` best of the list: every position with float32 score ≥ k-th best − 2·bound.
   */
  candidates(q: Float32Array, k: number, n: number, rows: Int32Array | null): Int32Array;
}

/** Builds the pre-pass for a matrix; null when it cannot serve (the matrix then stays plain JS). */
export type PrepassFactory = (dimension: number, capacity: number) => Prepass | null;
