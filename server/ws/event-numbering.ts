import type { FastifyBaseLogger } from 'fastify';
import type { GraphStore } from '../../graph/graph-store.js';

/**
 * Sequence numbers are reserved in blocks, so a resume after a crash never repeats a `seq`; a
 * graceful close gives back the numbers it did not use, so a resume after it goes on without a gap.
 * The largest block; a live session's first is {@link FIRST_SEQ_BLOCK}.
 */
export const SEQ_BLOCK = 100;

/**
 * A live session's first block; each next one is twice the last, up to {@link SEQ_BLOCK}. What a live session
 * could not give back (a crash; a connection taken over by another server while it still held the session, whose new
 * live session reserves above it) is skipped: a short connection, as in a reconnect storm between two servers,
 * skips at most this many, not a whole {@link SEQ_BLOCK}.
 */
export const FIRST_SEQ_BLOCK = 10;

/** The `seq` of a live session's events, with the reservations of numbers kept in the graph store. */
export class EventNumbering {
  private seq: number;
  private reservedSeq: number;
  /** The size of the next block reserved. */
  private block = FIRST_SEQ_BLOCK;
  /** The store writes of the numbering, in order (a release must land after the reservation it ends). */
  private seqWrites: Promise<void> = Promise.resolve();

  constructor(
    private readonly graph: GraphStore,
    private readonly tenant: string,
    private readonly sessionId: string,
    lastEventSeq: number,
    private readonly log: FastifyBaseLogger,
  ) {
    this.seq = lastEventSeq;
    this.reservedSeq = lastEventSeq;
  }

  /** The last number given out. */
  get current(): number {
    return this.seq;
  }

  /** The next number (reserving a block of numbers when needed). */
  next(): number {
    this.seq += 1;
    if (this.seq > this.reservedSeq) {
      this.reservedSeq = this.seq + this.block;
      this.block = Math.min(SEQ_BLOCK, this.block * 2);
      const reserved = this.reservedSeq;
      this.seqWrites = this.seqWrites.then(() => this.graph
        .updateSession(this.tenant, this.sessionId, { lastEventSeq: reserved })
        .catch((err: Error) => this.log.warn({ err: err.message }, 'could not reserve event numbers')));
    }
    return this.seq;
  }

  /** Persist the numbering: after the last reservation lands, the numbers reserved but not sent are given back. */
  async release(): Promise<void> {
    const [reserved, last] = [this.reservedSeq, this.seq];
    const release = this.seqWrites.then(() => this.graph.releaseEventSeq(this.tenant, this.sessionId, reserved, last));
    this.seqWrites = release.catch(() => {});
    await release;
    this.reservedSeq = last;
  }
}
