import type { VectorFilter, VectorPayload } from '../vector-store.js';

/** "No constraint" in a compiled filter; row columns use `MISSING` for an absent field. */
const ANY = -2;
const MISSING = -1;

/** A compiled payload filter: `true` accepts every row, `null` no row, else a row predicate. */
export type RowAccept = true | null | ((row: number) => boolean);

/**
 * The payload fields filters use, per row, as interned integer codes: layer, session and speaker
 * in `Int32Array`s (`MISSING` when absent), addressees as a small code array per row.
 */
export class FilterColumns {
  private readonly codes = new Map<string, number>();
  private layers: Int32Array;
  private sessions: Int32Array;
  private speakers: Int32Array;
  private addressees: (Int32Array | null)[] = [];

  constructor(capacity: number) {
    this.layers = new Int32Array(capacity).fill(MISSING);
    this.sessions = new Int32Array(capacity).fill(MISSING);
    this.speakers = new Int32Array(capacity).fill(MISSING);
  }

  set(row: number, payload: VectorPayload): void {
    this.layers[row] = this.intern(payload.layer);
    this.sessions[row] = this.intern(payload.sessionId);
    this.speakers[row] = this.intern(payload.speakerId);
    const to = Array.isArray(payload.addresseeIds) ? payload.addresseeIds : [];
    this.addressees[row] = to.length > 0 ? Int32Array.from(to, (a) => this.intern(a)) : null;
  }

  /** Copy row `from`'s columns onto row `to` (the swap of a removal). */
  move(from: number, to: number): void {
    this.layers[to] = this.layers[from] as number;
    this.sessions[to] = this.sessions[from] as number;
    this.speakers[to] = this.speakers[from] as number;
    this.addressees[to] = this.addressees[from] ?? null;
  }

  clear(row: number): void {
    this.layers[row] = MISSING;
    this.sessions[row] = MISSING;
    this.speakers[row] = MISSING;
    this.addressees.length = Math.min(this.addressees.length, row);
  }

  grow(capacity: number): void {
    const widen = (a: Int32Array): Int32Array => {
      const b = new Int32Array(capacity).fill(MISSING);
      b.set(a);
      return b;
    };
    this.layers = widen(this.layers);
    this.sessions = widen(this.sessions);
    this.speakers = widen(this.speakers);
  }

  /**
   * Compile `filter` (its `ids` aside) to a row test. A value no row holds makes the filter match
   * nothing (`null`); no constraint at all gives `true`, so scans skip the test.
   */
  compile(filter: VectorFilter | undefined): RowAccept {
    if (!filter) return true;
    let layerMask: Uint8Array | null = null;
    if (filter.layer !== undefined) {
      const wanted = (Array.isArray(filter.layer) ? filter.layer : [filter.layer])
        .map((l) => this.codes.get(l)).filter((c): c is number => c !== undefined);
      if (wanted.length === 0) return null;
      layerMask = new Uint8Array(this.codes.size);
      for (const c of wanted) layerMask[c] = 1;
    }
    const session = this.lookup(filter.sessionId);
    const speaker = this.lookup(filter.speakerId);
    const addressee = this.lookup(filter.addresseeId);
    if (session === MISSING || speaker === MISSING || addressee === MISSING) return null;
    if (layerMask === null && session === ANY && speaker === ANY && addressee === ANY) return true;
    const { layers, sessions, speakers, addressees } = this;
    return (row) => {
      if (layerMask !== null && layerMask[layers[row] as number] !== 1) return false;
      if (session !== ANY && sessions[row] !== session) return false;
      if (speaker !== ANY && speakers[row] !== speaker) return false;
      if (addressee !== ANY) {
        const to = addressees[row];
        if (!to || !to.includes(addressee)) return false;
      }
      return true;
    };
  }

  /** `ANY` for no constraint, `MISSING` for a value no row holds, else its code. */
  private lookup(value: string | undefined): number {
    if (value === undefined) return ANY;
    return this.codes.get(value) ?? MISSING;
  }

  private intern(value: unknown): number {
    if (typeof value !== 'string') return MISSING;
    let code = this.codes.get(value);
    if (code === undefined) {
      code = this.codes.size;
      this.codes.set(value, code);
    }
    return code;
  }
}
