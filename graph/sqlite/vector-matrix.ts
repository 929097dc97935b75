/** One search result of a `VectorMatrix`. */
export interface MatrixHit<P> {
  id: string;
  score: number;
  payload: P;
}

/**
 * A growable row-major matrix of L2-normalised vectors with ids and payloads, for exact cosine
 * top-k. Removal swaps the last row into the hole, so rows stay dense.
 */
export class VectorMatrix<P> {
  private data: Float32Array;
  private ids: string[] = [];
  private payloads: P[] = [];
  private readonly rowOf = new Map<string, number>();

  constructor(private readonly dimension: number, capacity = 1024) {
    this.data = new Float32Array(dimension * capacity);
  }

  get size(): number {
    return this.ids.length;
  }

  set(id: string, vector: Float32Array, payload: P): void {
    let row = this.rowOf.get(id);
    if (row === undefined) {
      row = this.ids.length;
      if ((row + 1) * this.dimension > this.data.length) {
        const grown = new Float32Array(this.data.length * 2);
        grown.set(this.data);
        this.data = grown;
      }
      this.ids.push(id);
      this.payloads.push(payload);
      this.rowOf.set(id, row);
    } else {
      this.payloads[row] = payload;
    }
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
      this.rowOf.set(lastId, row);
    }
    this.ids.pop();
    this.payloads.pop();
    this.rowOf.delete(id);
  }

  /** Exact top-k by cosine; `only` restricts the scan to those ids (the candidate pool). */
  topK(query: Float32Array, k: number, accept: (payload: P) => boolean, only?: string[]): MatrixHit<P>[] {
    if (k <= 0) return [];
    let qNorm = 0;
    for (let i = 0; i < this.dimension; i++) qNorm += (query[i] ?? 0) ** 2;
    const q = new Float32Array(this.dimension);
    const scale = qNorm > 0 ? 1 / Math.sqrt(qNorm) : 0;
    for (let i = 0; i < this.dimension; i++) q[i] = (query[i] ?? 0) * scale;

    const best: { row: number; score: number }[] = [];
    const consider = (row: number): void => {
      if (!accept(this.payloads[row] as P)) return;
      const offset = row * this.dimension;
      let dot = 0;
      for (let i = 0; i < this.dimension; i++) dot += (q[i] as number) * (this.data[offset + i] as number);
      if (best.length < k) {
        best.push({ row, score: dot });
        best.sort((a, b) => b.score - a.score);
      } else if (dot > (best[best.length - 1] as { score: number }).score) {
        best[best.length - 1] = { row, score: dot };
        best.sort((a, b) => b.score - a.score);
      }
    };
    if (only) {
      for (const id of new Set(only)) {
        const row = this.rowOf.get(id);
        if (row !== undefined) consider(row);
      }
    } else {
      for (let row = 0; row < this.ids.length; row++) consider(row);
    }
    return best.map(({ row, score }) => ({ id: this.ids[row] as string, score, payload: this.payloads[row] as P }));
  }
}
