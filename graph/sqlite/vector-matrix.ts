import type { VectorFilter, VectorPayload } from '../vector-store.js';
import { FilterColumns } from './filter-columns.js';
import type { Prepass, PrepassFactory } from './prepass.js';
import { wasmPrepass } from './simd-dot.js';
import { TopK } from './top-k.js';

export { FilterColumns, type RowAccept } from './filter-columns.js';
export { TopK } from './top-k.js';

/** One search result of a `VectorMatrix`. */
export interface MatrixHit<P> {
  id: string;
  score: number;
  payload: P;
}

/**
 * Dot product of `q` with the `q.length` floats of `data` starting at `offset`. Unrolled four
 * ways with one accumulator, so the sum is taken in the same order as a plain loop (identical
 * scores), with a quarter of the loop overhead.
 */
export function dotAt(q: Float32Array, data: Float32Array, offset: number): number {
  const n = q.length;
  const end4 = n - (n % 4);
  let dot = 0;
  let i = 0;
  for (; i < end4; i += 4) {
    const o = offset + i;
    dot += (q[i] as number) * (data[o] as number);
    dot += (q[i + 1] as number) * (data[o + 1] as number);
    dot += (q[i + 2] as number) * (data[o + 2] as number);
    dot += (q[i + 3] as number) * (data[o + 3] as number);
  }
  for (; i < n; i++) dot += (q[i] as number) * (data[offset + i] as number);
  return dot;
}

/** Below this many rows a scan stays in plain JS (the pre-pass would not pay off). */
const PREPASS_MIN_ROWS = 2048;
/** Pools and filtered row lists this long or longer go through the pre-pass. */
const PREPASS_MIN_LIST = 128;

/**
 * A growable row-major matrix of L2-normalised vectors with ids and payloads, for exact cosine
 * top-k. Removal swaps the last row into the hole, so rows stay dense. The payload fields filters
 * use (layer, session, speaker, addressees) are mirrored in small integer columns, so a filtered
 * scan never touches payload objects. Ties in score keep scan order (row order, or pool order).
 *
 * Large scans run a float32 WebAssembly SIMD pre-pass (`simd-dot.ts`) and rescore in
 * float64 only the rows whose float32 score is within twice its proven error bound of the k-th
 * best: the results (ids, scores and order) are exactly those of the plain float64 scan.
 */
export class VectorMatrix<P extends VectorPayload> {
  private data: Float32Array;
  private capacity: number;
  private ids: string[] = [];
  private payloads: P[] = [];
  private readonly rowOf = new Map<string, number>();
  private readonly columns: FilterColumns;
  /** Per-row stamp used to skip duplicate ids of a pool without allocating a set. */
  private stamps: Uint32Array;
  private epoch = 0;
  private prepass: Prepass | null;

  /** `prepass` builds the float32 pre-pass (default WebAssembly SIMD); the benchmark passes others. */
  constructor(private readonly dimension: number, capacity = 1024, prepass: PrepassFactory = wasmPrepass) {
    this.capacity = Math.max(1, capacity);
    this.prepass = dimension > 0 ? prepass(dimension, this.capacity) : null;
    this.data = this.prepass ? this.prepass.data : new Float32Array(dimension * this.capacity);
    this.columns = new FilterColumns(this.capacity);
    this.stamps = new Uint32Array(this.capacity);
  }

  /** The ids held, in row order (a copy). */
  keys(): string[] {
    return [...this.ids];
  }

  get size(): number {
    return this.ids.length;
  }

  /** True when large scans use the float32 pre-pass. */
  get prepassEnabled(): boolean {
    return this.prepass !== null;
  }

  set(id: string, vector: Float32Array, payload: P): void {
    let row = this.rowOf.get(id);
    if (row === undefined) {
      row = this.ids.length;
      if (row + 1 > this.capacity) this.grow();
      this.ids.push(id);
      this.payloads.push(payload);
      this.rowOf.set(id, row);
    } else {
      this.payloads[row] = payload;
    }
    this.columns.set(row, payload);
    const offset = row * this.dimension;
    let norm = 0;
    for (let i = 0; i < this.dimension; i++) norm += (vector[i] ?? 0) ** 2;
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let i = 0; i < this.dimension; i++) this.data[offset + i] = (vector[i] ?? 0) * scale;
  }

  remove(id: string): void {
    const row = this.rowOf.get(id);
    if (row === undefined) return;
    const last = this.ids.length - 1;
    if (row !== last) {
      this.data.copyWithin(row * this.dimension, last * this.dimension, (last + 1) * this.dimension);
      const lastId = this.ids[last] as string;
      this.ids[row] = lastId;
      this.payloads[row] = this.payloads[last] as P;
      this.columns.move(last, row);
      this.rowOf.set(lastId, row);
    }
    this.columns.clear(last);
    this.ids.pop();
    this.payloads.pop();
    this.rowOf.delete(id);
  }

  /**
   * Exact top-k by cosine, best first, among rows whose payload passes `filter`; `filter.ids`
   * restricts the scan to those ids (the candidate pool; unknown and repeated ids are ignored).
   */
  topK(query: Float32Array, k: number, filter?: VectorFilter): MatrixHit<P>[] {
    if (k <= 0) return [];
    const accept = this.columns.compile(filter);
    if (accept === null) return [];
    const dim = this.dimension;
    let qNorm = 0;
    for (let i = 0; i < dim; i++) qNorm += (query[i] ?? 0) ** 2;
    const q = new Float32Array(dim);
    const scale = qNorm > 0 ? 1 / Math.sqrt(qNorm) : 0;
    for (let i = 0; i < dim; i++) q[i] = (query[i] ?? 0) * scale;

    const only = filter?.ids;
    const n = this.ids.length;
    const best = new TopK(Math.min(k, only ? only.length : n));
    const fast = this.prepass !== null && Number.isFinite(qNorm);
    if (!only && accept === true) {
      if (fast && n >= PREPASS_MIN_ROWS) this.prepassScan(q, best, null);
      else for (let row = 0; row < n; row++) best.offer(row, dotAt(q, this.data, row * dim));
    } else {
      const rows = only ? this.poolRows(only, accept) : this.acceptedRows(accept as (row: number) => boolean);
      if (fast && rows.length >= PREPASS_MIN_LIST) this.prepassScan(q, best, rows);
      else for (const row of rows) best.offer(row, dotAt(q, this.data, row * dim));
    }
    return best.sorted().map(({ row, score }) => ({ id: this.ids[row] as string, score, payload: this.payloads[row] as P }));
  }

  /** The rows of a pool's ids, in pool order, each once, passing `accept`. */
  private poolRows(only: string[], accept: true | ((row: number) => boolean)): Int32Array {
    const rows = new Int32Array(Math.min(only.length, this.ids.length));
    const stamps = this.stamps;
    const epoch = this.nextEpoch();
    let m = 0;
    for (const id of only) {
      const row = this.rowOf.get(id);
      if (row === undefined || stamps[row] === epoch) continue;
      stamps[row] = epoch;
      if (accept === true || accept(row)) rows[m++] = row;
    }
    return rows.subarray(0, m);
  }

  /** The rows `accept` passes, in row order. */
  private acceptedRows(accept: (row: number) => boolean): Int32Array {
    const n = this.ids.length;
    const rows = new Int32Array(n);
    let m = 0;
    for (let row = 0; row < n; row++) if (accept(row)) rows[m++] = row;
    return rows.subarray(0, m);
  }

  /**
   * Scan of `rows` (null: every row, in row order) through the float32 pre-pass. A float32 score
   * `a` is within `bound` of the float64 score `s` (unit vectors), so the true k-th best is at
   * least `A_k - bound`, where `A_k` is the k-th best float32 score, and a row with
   * `a < A_k - 2 * bound` ranks strictly below it. Every other row is rescored in float64 and
   * offered in list order, exactly as the plain scan would.
   */
  private prepassScan(q: Float32Array, best: TopK, rows: Int32Array | null): void {
    const prepass = this.prepass as Prepass;
    const dim = this.dimension;
    const n = rows === null ? this.ids.length : rows.length;
    for (const j of prepass.candidates(q, best.capacity, n, rows)) {
      const row = rows === null ? j : (rows[j] as number);
      best.offer(row, dotAt(q, this.data, row * dim));
    }
  }

  private grow(): void {
    const rows = this.capacity * 2;
    if (this.prepass?.grow(rows)) {
      this.data = this.prepass.data;
    } else {
      // Plain JS from here on (the pre-pass could not grow).
      const grown = new Float32Array(rows * this.dimension);
      grown.set(this.data.subarray(0, this.capacity * this.dimension));
      this.data = grown;
      this.prepass = null;
    }
    this.capacity = rows;
    this.columns.grow(rows);
    const stamps = new Uint32Array(rows);
    stamps.set(this.stamps);
    this.stamps = stamps;
  }

  private nextEpoch(): number {
    if (this.epoch === 0xffffffff) {
      this.stamps.fill(0);
      this.epoch = 0;
    }
    return ++this.epoch;
  }
}
