/**
 * A WebAssembly SIMD pre-pass for exact top-k: float32 dot products of many rows at once, with a
 * proven error bound so the caller rescores only the rows that could still make the cut. Kept
 * over a vector library because it measured faster: usearch tied on full scans and lost on
 * filtered lists (`bench/store-search.ts`, docs/BENCHMARKS.md): usearch searches a contiguous
 * matrix, so a filtered list must be copied first, where this kernel reads the rows in place.
 */
import type { Prepass, PrepassFactory } from './prepass.js';
import { TopK } from './top-k.js';

/** The parts of the WebAssembly API used here (the project's TypeScript libs do not declare it). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
export type WasmModule = object;
interface WasmApi {
  Memory: new (descriptor: { initial: number }) => WasmMemory;
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule, imports: Record<string, Record<string, unknown>>) => { exports: Record<string, unknown> };
}
declare const WebAssembly: WasmApi;

/** Bytes in a WebAssembly page. */
const PAGE_BYTES = 65_536;

/**
 * The matrix kept in WebAssembly memory with float32x4 dot-product kernels over it. Layout: the
 * query (`dimension` floats), the rows (`capacity` × `dimension`), then scratch moved on growth:
 * one float32 score and one int32 row index per row. `create` returns null without SIMD.
 */
export class SimdMemory {
  /** Bound on |float32 score - float64 score| for unit vectors (a safety factor of 2 included). */
  readonly bound: number;
  private constructor(
    private readonly memory: WasmMemory,
    private readonly kernel: Kernels,
    private readonly dimension: number,
    private capacity: number,
  ) {
    this.bound = (dimension + 8) * 2 ** -23;
  }

  static create(dimension: number, capacity: number): SimdMemory | null {
    const module = simdModule();
    if (!module) return null;
    const memory = new WebAssembly.Memory({ initial: Math.ceil(SimdMemory.bytes(dimension, capacity) / PAGE_BYTES) });
    const instance = new WebAssembly.Instance(module, { env: { memory } });
    return new SimdMemory(memory, instance.exports as unknown as Kernels, dimension, capacity);
  }

  private static bytes(dimension: number, capacity: number): number {
    return (dimension + capacity * dimension + 2 * capacity) * 4;
  }

  /** A view of the rows; views die on growth, so fetch it again after `grow`. */
  data(): Float32Array {
    return new Float32Array(this.memory.buffer, this.dimension * 4, this.capacity * this.dimension);
  }

  /** Grow to `capacity` rows, keeping the rows in place; false when memory cannot grow that far. */
  grow(capacity: number): boolean {
    const need = SimdMemory.bytes(this.dimension, capacity) - this.memory.buffer.byteLength;
    try {
      if (need > 0) this.memory.grow(Math.ceil(need / PAGE_BYTES));
    } catch {
      return false;
    }
    this.capacity = capacity;
    return true;
  }

  /** Float32 dot products of `q` with the first `n` rows (a view valid until the next call). */
  scores(q: Float32Array, n: number): Float32Array {
    const buffer = this.memory.buffer;
    new Float32Array(buffer, 0, this.dimension).set(q);
    const out = (this.dimension + this.capacity * this.dimension) * 4;
    this.kernel.scan(0, this.dimension * 4, this.dimension * 4, n, out);
    return new Float32Array(buffer, out, n);
  }

  /** Float32 dot products of `q` with `rows` (same order; a view valid until the next call). */
  gathered(q: Float32Array, rows: Int32Array): Float32Array {
    const buffer = this.memory.buffer;
    new Float32Array(buffer, 0, this.dimension).set(q);
    const out = (this.dimension + this.capacity * this.dimension) * 4;
    const index = out + this.capacity * 4;
    new Int32Array(buffer, index, rows.length).set(rows);
    this.kernel.gather(0, this.dimension * 4, this.dimension * 4, index, rows.length, out);
    return new Float32Array(buffer, out, rows.length);
  }
}

/** The kernels' exports; pointers and sizes in bytes. */
interface Kernels {
  scan(q: number, rows: number, rowBytes: number, n: number, out: number): void;
  gather(q: number, rows: number, rowBytes: number, index: number, n: number, out: number): void;
}

let compiled: WasmModule | null | undefined;

/** The SIMD kernel, compiled once; null where WebAssembly SIMD is unavailable. */
export function simdModule(): WasmModule | null {
  if (compiled !== undefined) return compiled;
  try {
    compiled = new WebAssembly.Module(scanKernelBytes());
  } catch {
    compiled = null;
  }
  return compiled;
}

/**
 * Two hand-assembled WebAssembly functions over float32x4, four accumulators, 64 bytes a step
 * (`rowBytes` must be a multiple of 64), each storing one float32 dot product per row at `out`:
 * `scan(q, rows, rowBytes, n, out)` over `n` consecutive rows starting at byte `rows`, and
 * `gather(q, rows, rowBytes, index, n, out)` over the `n` row numbers (int32) at byte `index`.
 */
function scanKernelBytes(): Uint8Array {
  const simd = (op: number[]): number[] => [0xfd, ...op];
  const get = (i: number): number[] => [0x20, i];
  const set = (i: number): number[] => [0x21, i];
  const zero = simd([0x0c, ...new Array<number>(16).fill(0)]);
  const load = (offset: number): number[] => simd([0x00, 0x02, offset]);
  const f32x4Add = simd([0xe4, 0x01]);
  const f32x4Mul = simd([0xe6, 0x01]);
  const lane = (l: number): number[] => simd([0x1f, l]);
  const addTo = (i: number, by: number[]): number[] => [...get(i), ...by, 0x6a, ...set(i)];
  /** One row's dot product: q at local `q`, row at local `p`, length local `len`; locals from `t`: byte offset, 4 accumulators. */
  const rowDot = (q: number, p: number, len: number, t: number): number[] => {
    const step: number[] = [];
    for (let j = 0; j < 4; j++) {
      step.push(...get(t + 1 + j), ...get(q), ...get(t), 0x6a, ...load(16 * j), ...get(p), ...get(t), 0x6a, ...load(16 * j),
        ...f32x4Mul, ...f32x4Add, ...set(t + 1 + j));
    }
    const a = t + 1;
    return [
      ...zero, ...set(a), ...zero, ...set(a + 1), ...zero, ...set(a + 2), ...zero, ...set(a + 3),
      0x41, 0x00, ...set(t),
      0x02, 0x40, 0x03, 0x40, // block, loop over the row's bytes
      ...get(t), ...get(len), 0x4f, 0x0d, 0x01,
      ...step,
      ...get(t), 0x41, 0xc0, 0x00, 0x6a, ...set(t), 0x0c, 0x00,
      0x0b, 0x0b,
      ...get(a), ...get(a + 1), ...f32x4Add, ...get(a + 2), ...get(a + 3), ...f32x4Add, ...f32x4Add, ...set(a),
      ...get(a), ...lane(0), ...get(a), ...lane(1), 0x92, ...get(a), ...lane(2), 0x92, ...get(a), ...lane(3), 0x92,
    ];
  };
  // scan: 0 q, 1 row pointer, 2 rowBytes, 3 n, 4 out; locals 5 row, 6 byte offset, 7–10 accumulators.
  const scan = [
    0x02, 0x02, 0x7f, 0x04, 0x7b,
    0x02, 0x40, 0x03, 0x40,
    ...get(5), ...get(3), 0x4f, 0x0d, 0x01,
    ...get(4), ...rowDot(0, 1, 2, 6), 0x38, 0x02, 0x00, // f32.store
    ...addTo(4, [0x41, 0x04]), ...addTo(1, get(2)), ...addTo(5, [0x41, 0x01]),
    0x0c, 0x00, 0x0b, 0x0b, 0x0b,
  ];
  // gather: 0 q, 1 rows base, 2 rowBytes, 3 index pointer, 4 n, 5 out; locals 6 j, 7 row pointer, 8 byte offset, 9–12 accumulators.
  const gather = [
    0x02, 0x03, 0x7f, 0x04, 0x7b,
    0x02, 0x40, 0x03, 0x40,
    ...get(6), ...get(4), 0x4f, 0x0d, 0x01,
    ...get(1), ...get(3), 0x28, 0x02, 0x00, ...get(2), 0x6c, 0x6a, ...set(7), // row pointer = base + index[j] * rowBytes
    ...get(5), ...rowDot(0, 7, 2, 8), 0x38, 0x02, 0x00,
    ...addTo(5, [0x41, 0x04]), ...addTo(3, [0x41, 0x04]), ...addTo(6, [0x41, 0x01]),
    0x0c, 0x00, 0x0b, 0x0b, 0x0b,
  ];
  const section = (id: number, content: number[]): number[] => [id, ...leb(content.length), ...content];
  const name = (s: string): number[] => [s.length, ...Array.from(s, (c) => c.charCodeAt(0))];
  const i32 = 0x7f;
  return Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [0x02, 0x60, 0x05, i32, i32, i32, i32, i32, 0x00, 0x60, 0x06, i32, i32, i32, i32, i32, i32, 0x00]),
    ...section(2, [0x01, ...name('env'), ...name('memory'), 0x02, 0x00, 0x00]),
    ...section(3, [0x02, 0x00, 0x01]),
    ...section(7, [0x02, ...name('scan'), 0x00, 0x00, ...name('gather'), 0x00, 0x01]),
    ...section(10, [0x02, ...leb(scan.length), ...scan, ...leb(gather.length), ...gather]),
  ]);
}

/** Unsigned LEB128. */
function leb(value: number): number[] {
  const out: number[] = [];
  let v = value;
  do {
    let byte = v & 0x7f;
    v >>>= 7;
    if (v !== 0) byte |= 0x80;
    out.push(byte);
  } while (v !== 0);
  return out;
}

/** `SimdMemory` as a `Prepass`: every row's float32 score, then the rows within the cut. */
class WasmPrepass implements Prepass {
  data: Float32Array;
  readonly bound: number;
  constructor(private readonly simd: SimdMemory) {
    this.data = simd.data();
    this.bound = simd.bound;
  }

  grow(capacity: number): boolean {
    if (!this.simd.grow(capacity)) return false;
    this.data = this.simd.data();
    return true;
  }

  candidates(q: Float32Array, k: number, n: number, rows: Int32Array | null): Int32Array {
    const approx = rows === null ? this.simd.scores(q, n) : this.simd.gathered(q, rows);
    const kth = new TopK(k);
    for (let j = 0; j < approx.length; j++) kth.offer(j, approx[j] as number);
    const cut = kth.full ? kth.worst - 2 * this.bound : -Infinity;
    const out: number[] = [];
    for (let j = 0; j < approx.length; j++) if (!((approx[j] as number) < cut)) out.push(j);
    return Int32Array.from(out);
  }
}

/** The WebAssembly pre-pass (dimensions that are a multiple of 16, where SIMD is available). */
export const wasmPrepass: PrepassFactory = (dimension, capacity) => {
  if (dimension % 16 !== 0) return null;
  const simd = SimdMemory.create(dimension, capacity);
  return simd ? new WasmPrepass(simd) : null;
};
