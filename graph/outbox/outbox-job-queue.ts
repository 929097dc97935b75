import { ParleyError } from '../core/errors.js';
import type { DeadLetter, EnqueueOptions, JobHandler, JobQueue, QueueStats, WorkerOptions } from '../job-queue.js';
import type { OutboxHandler, OutboxForwarder } from './outbox-forwarder.js';
import type { Outbox, OutboxEntry } from './outbox.js';
import { newId } from '../core/ids.js';

/** The outbox target jobs are recorded under. */
export const QUEUE_TARGET = 'queue';

interface EnqueuePayload {
  name: string;
  data: unknown;
  options: EnqueueOptions & { jobId: string };
}

/** Job ids travel to BullMQ, which forbids `:`; fix them before they are recorded. */
function safeJobId(id: string): string {
  return id.replaceAll(':', '_');
}

/** The forwarder's handler that replays recorded enqueues on the networked queue. */
export function queueOutboxHandler(queue: JobQueue): OutboxHandler {
  return async (operation, payload) => {
    if (operation !== 'enqueue') throw new ParleyError('PARLEY_ERR_INTERNAL', `unknown queue outbox operation ${operation}`);
    const p = payload as EnqueuePayload;
    await queue.enqueue(p.name, p.data, p.options);
  };
}

/**
 * A networked job queue whose `enqueue` goes through the outbox: the job is committed to the embedded
 * SQLite file first, then handed to the queue. While the queue's backend is down `enqueue` still
 * resolves (the job is durable) and the forwarder hands it over once the backend is back, under the
 * same job id, so a retried hand-over never runs the job twice. Called inside a transaction on the
 * file (`Stores.atomically`), `enqueue` only records the job, which then commits or rolls back with
 * the rest of that transaction, and hands it over once it has committed. Everything else goes to `inner`.
 */
export class OutboxJobQueue implements JobQueue {
  constructor(
    private readonly inner: JobQueue,
    private readonly outbox: Outbox,
    private readonly forwarder: OutboxForwarder,
  ) {}

  async enqueue<T>(name: string, data: T, options: EnqueueOptions = {}): Promise<string> {
    const jobId = safeJobId(options.jobId ?? newId('job'));
    const { entry, inSection } = await this.outbox.gated(() => ({
      entry: this.outbox.record(QUEUE_TARGET, 'enqueue', { name, data, options: { ...options, jobId } } satisfies EnqueuePayload),
      inSection: this.outbox.inTransaction(),
    }));
    // Inside `Stores.atomically` the job commits with the rows it is about; it goes out after that commit.
    if (inSection) {
      this.forwarder.drainAfterCommit(QUEUE_TARGET);
      return jobId;
    }
    const outcome = await this.forwarder.forward(QUEUE_TARGET, entry);
    if (outcome.state === 'dead') throw new ParleyError('PARLEY_ERR_BAD_REQUEST', `job ${name} was rejected: ${outcome.error}`);
    return jobId;
  }

  process<T>(name: string, handler: JobHandler<T>, options?: WorkerOptions): void {
    this.inner.process(name, handler, options);
  }

  /** Jobs waiting or running in the queue, plus those still held in the outbox. */
  async pending(name: string): Promise<number> {
    const held = (await this.heldOf(name)).length;
    return held + (await this.inner.pending(name));
  }

  /** Jobs named `name` still held in the outbox, read outside any other request's transaction. */
  private heldOf(name: string): Promise<OutboxEntry[]> {
    return this.outbox.gated(() => this.outbox.pendingFor(QUEUE_TARGET, 100_000).filter((e) => (e.payload as EnqueuePayload).name === name));
  }

  /** The queue's stats, with jobs still held in the outbox counted as waiting since they were recorded. */
  async stats(name: string): Promise<QueueStats> {
    const held = await this.heldOf(name);
    const inner = await this.inner.stats(name);
    const heldSince = held.length > 0 ? Date.now() - Math.min(...held.map((e) => e.createdAt)) : null;
    const ages = [inner.oldestWaitingMs, heldSince].filter((a): a is number => a !== null);
    return {
      waiting: inner.waiting + held.length,
      running: inner.running,
      oldestWaitingMs: ages.length > 0 ? Math.max(0, ...ages) : null,
      outageWaiting: inner.outageWaiting,
    };
  }

  deadLetters(name: string): Promise<DeadLetter[]> {
    return this.inner.deadLetters(name);
  }

  retryDeadLetter(name: string, id: string): Promise<boolean> {
    return this.inner.retryDeadLetter(name, id);
  }

  async drain(name: string, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.outbox.pendingFor(QUEUE_TARGET, 100_000).some((e) => (e.payload as EnqueuePayload).name === name)) {
      if (Date.now() > deadline) throw new Error(`queue ${name} did not drain within ${timeoutMs} ms (jobs still in the outbox)`);
      await this.forwarder.drain(QUEUE_TARGET);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await this.inner.drain(name, Math.max(1, deadline - Date.now()));
  }

  /** Jobs named by `ids` are dropped from the outbox (not yet forwarded) and from the queue. */
  async forget(ids: string[]): Promise<number> {
    const dropped = await this.outbox.gated(() => {
      const held = this.outbox.pendingFor(QUEUE_TARGET, 100_000)
        .filter((e) => ids.some((id) => JSON.stringify((e.payload as EnqueuePayload).data).includes(id)));
      for (const e of held) this.outbox.complete(e.id);
      return held.length;
    });
    return dropped + (await this.inner.forget(ids));
  }

  ready(): Promise<boolean> {
    return this.inner.ready();
  }

  /** The inner queue's answer; absent where it has none. */
  get liveWorkers(): JobQueue['liveWorkers'] {
    return this.inner.liveWorkers?.bind(this.inner);
  }

  close(timeoutMs?: number): Promise<void> {
    return this.inner.close(timeoutMs);
  }
}
