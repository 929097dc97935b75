import type { FastifyBaseLogger } from 'fastify';

/** What {@link ConsolidationWorkers} needs to know. */
export interface ConsolidationWorkersOptions {
  /** Whether this process runs the jobs itself (`PARLEY_RUN_JOBS`): then a worker is always alive. */
  runHere: boolean;
  /** Whether a worker process is alive now: true, false, or null when the backend cannot tell. */
  ask: () => Promise<boolean | null>;
  logger: FastifyBaseLogger;
}

/**
 * Whether ending a live session is worth waiting for its consolidation (`PARLEY_SESSION_END_WAIT_MS`): only when
 * some process takes the jobs. A server with `PARLEY_RUN_JOBS=false` and no worker known to be alive (no `worker`
 * member on the embedded bus, no BullMQ worker on Redis) ends sessions at once; their jobs stay queued, durable,
 * for a worker that starts later. Says why once, until a worker is seen again. A backend that cannot tell, or
 * fails to answer, counts as a worker alive: the wait is kept, as before.
 */
export class ConsolidationWorkers {
  private warned = false;

  constructor(private readonly options: ConsolidationWorkersOptions) {}

  /** False only when it is known that no process takes consolidation jobs now. */
  async alive(): Promise<boolean> {
    if (this.options.runHere) return true;
    let known: boolean | null;
    try {
      known = await this.options.ask();
    } catch (err) {
      this.options.logger.debug({ err: (err as Error).message }, 'could not tell whether a worker is alive; session ends wait for consolidation');
      known = null;
    }
    if (known === false && !this.warned) {
      this.warned = true;
      this.options.logger.warn(
        'no worker takes consolidation jobs (PARLEY_RUN_JOBS=false and no `npm run worker` is registered): sessions end without '
        + 'waiting for their consolidation; the jobs stay queued until a worker starts, and memory.updated is not sent on the ended socket',
      );
    } else if (known === true && this.warned) {
      this.warned = false;
      this.options.logger.info('a worker is registered again: session ends wait for consolidation');
    }
    return known !== false;
  }
}
