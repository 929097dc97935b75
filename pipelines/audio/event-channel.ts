/**
 * The one place where push meets pull for a session: producers `put` events, one consumer iterates.
 * `capacity` is advisory for producers (check {@link EventChannel.full} and shed work upstream); beyond
 * twice the capacity, `partial` events are dropped so memory stays bounded even with a stalled consumer.
 */
export class EventChannel<T extends { type: string }> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private waiter: ((r: IteratorResult<T>) => void) | undefined;
  private ended = false;

  constructor(readonly capacity: number) {}

  /** Events waiting for the consumer. */
  get size(): number {
    return this.items.length;
  }

  /** Whether producers should stop adding work. */
  get full(): boolean {
    return this.items.length >= this.capacity;
  }

  /** Add an event; ignored after `end`. */
  put(item: T): void {
    if (this.ended) return;
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      w({ value: item, done: false });
      return;
    }
    if (this.items.length >= this.capacity * 2 && item.type === 'partial') return;
    this.items.push(item);
  }

  /** No more events: the iterator finishes after the buffered ones. */
  end(): void {
    this.ended = true;
    if (this.waiter && this.items.length === 0) {
      const w = this.waiter;
      this.waiter = undefined;
      w({ value: undefined, done: true });
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        const item = this.items.shift();
        if (item !== undefined) return Promise.resolve({ value: item, done: false });
        if (this.ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => { this.waiter = resolve; });
      },
      return: () => {
        this.end();
        this.items.length = 0;
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
