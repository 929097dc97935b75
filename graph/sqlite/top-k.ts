/**
 * Bounded top-k by score: a binary min-heap of the best `capacity` offers, the worst at the root.
 * Of equal scores the earlier offer ranks higher and is never displaced by a later one.
 */
export class TopK {
  private readonly scores: Float64Array;
  private readonly rows: Int32Array;
  private readonly seqs: Int32Array;
  private n = 0;
  private seq = 0;

  constructor(readonly capacity: number) {
    const c = Math.max(0, capacity);
    this.scores = new Float64Array(c);
    this.rows = new Int32Array(c);
    this.seqs = new Int32Array(c);
  }

  /** Offer `row` with `score`; kept when the heap has room or it beats the current worst. */
  offer(row: number, score: number): void {
    const seq = this.seq++;
    if (this.n < this.capacity) {
      let i = this.n++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.worse(score, seq, parent)) break;
        this.put(i, parent);
        i = parent;
      }
      this.scores[i] = score;
      this.rows[i] = row;
      this.seqs[i] = seq;
    } else if (this.capacity > 0 && score > (this.scores[0] as number)) {
      this.siftDown(score, row, seq);
    }
  }

  /** True when `capacity` offers are kept. */
  get full(): boolean {
    return this.n === this.capacity;
  }

  /** The lowest kept score (the root); meaningful when `full` and `capacity` > 0. */
  get worst(): number {
    return this.scores[0] as number;
  }

  /** The kept offers, best first (ties in offer order). */
  sorted(): { row: number; score: number }[] {
    const out: { row: number; score: number; seq: number }[] = [];
    for (let i = 0; i < this.n; i++) out.push({ row: this.rows[i] as number, score: this.scores[i] as number, seq: this.seqs[i] as number });
    out.sort((a, b) => (b.score - a.score) || (a.seq - b.seq));
    return out.map(({ row, score }) => ({ row, score }));
  }

  /** True when (score, seq) ranks below the entry at heap slot `i`. */
  private worse(score: number, seq: number, i: number): boolean {
    const s = this.scores[i] as number;
    return score < s || (score === s && seq > (this.seqs[i] as number));
  }

  private put(to: number, from: number): void {
    this.scores[to] = this.scores[from] as number;
    this.rows[to] = this.rows[from] as number;
    this.seqs[to] = this.seqs[from] as number;
  }

  /** Replace the root with (score, row, seq) and restore the heap. */
  private siftDown(score: number, row: number, seq: number): void {
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= this.n) break;
      const r = l + 1;
      const child = r < this.n && this.worseSlot(r, l) ? r : l;
      if (!this.worseSlotThan(child, score, seq)) break;
      this.put(i, child);
      i = child;
    }
    this.scores[i] = score;
    this.rows[i] = row;
    this.seqs[i] = seq;
  }

  /** True when slot `a` ranks below slot `b`. */
  private worseSlot(a: number, b: number): boolean {
    return this.worse(this.scores[a] as number, this.seqs[a] as number, b);
  }

  /** True when slot `i` ranks below (score, seq). */
  private worseSlotThan(i: number, score: number, seq: number): boolean {
    const s = this.scores[i] as number;
    return s < score || (s === score && (this.seqs[i] as number) > seq);
  }
}
