import type { FastifyBaseLogger } from 'fastify';
import { toClientError, type ErrorCode } from '../../graph/core/errors.js';
import type { ServerEventPayloads } from '../../graph/core/events.js';

/**
 * Resolve on the next turn of the event loop, after pending I/O. Every session's queue waits here
 * between messages, and `setImmediate` callbacks run first in, first out, so sessions with work take
 * one message each in turn (round robin), and socket reads, `/healthz` and audio run in between.
 */
function nextLoopTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Which client message a full queue dropped, as its `error` frame names it (`dropped`). */
export type DroppedMessage = NonNullable<ServerEventPayloads['error']['dropped']>;

/** What an `error` from the queue names: the message a full queue dropped, the query the error answers. */
export type QueueErrorDetails = Pick<ServerEventPayloads['error'], 'dropped' | 'id'>;

/** How a client message is queued. */
export interface EnqueueOptions {
  /** The session's end: it runs even when the queue is full, after what is queued before it. */
  always?: boolean;
  /** The valid client message the task runs, named (`dropped`) in the error of a full queue. */
  about?: DroppedMessage;
  /** The `id` of the query the task answers (valid or not), carried by every error answering it. */
  query?: string;
}

/** A queued client message: the task that runs it, and the query it answers, if any. */
interface QueuedTask {
  run: () => Promise<void>;
  query?: string;
}

/** The details naming the query an error answers (none when it answers no query). */
function answering(query: string | undefined): QueueErrorDetails {
  return query === undefined ? {} : { id: query };
}

/** What a session's queue needs from its session. */
export interface SessionQueueOptions {
  /** Most queued messages before new ones are shed (`PARLEY_SESSION_QUEUE`). */
  limit: number;
  log: FastifyBaseLogger;
  /**
   * Send the session's client an `error` event; `dropped` names the message a full queue dropped, `id` the query the
   * error answers.
   */
  sendError: (code: ErrorCode, message: string, details?: QueueErrorDetails) => void;
}

/**
 * A live session's client messages, run one after another in arrival order, one message per session
 * per turn of the event loop (so one flooding session cannot starve the others). A failing message
 * becomes an `error` event (naming the query's `id` when it was a query) and never stops the queue.
 */
export class SessionQueue {
  private readonly work: QueuedTask[] = [];
  private running: Promise<void> | null = null;

  constructor(private readonly options: SessionQueueOptions) {}

  /**
   * Queue `task` behind earlier messages; sheds it with an error when the queue is full (then false),
   * unless `always` (the session's end: it must run, after what is queued before it). `about`: the
   * client message the task runs, named in that error; `query`: the id of the query it answers, carried by
   * that error and by the error of a failing task.
   */
  enqueue(task: () => Promise<void>, options: EnqueueOptions = {}): boolean {
    if (!options.always && this.work.length >= this.options.limit) {
      const { about } = options;
      const which = about ? `this ${about.type}${about.utterance_id === undefined ? '' : ` (utterance_id ${JSON.stringify(about.utterance_id)})`}` : 'this one';
      this.options.sendError('PARLEY_ERR_OVERLOADED', `more than ${this.options.limit} messages are waiting; ${which} was dropped`, { ...(about ? { dropped: about } : {}), ...answering(options.query) });
      return false;
    }
    this.work.push(options.query === undefined ? { run: task } : { run: task, query: options.query });
    this.running ??= this.runQueue();
    return true;
  }

  /** Resolves when every queued message has been handled. */
  async flush(): Promise<void> {
    while (this.running) await this.running;
  }

  /**
   * Run now, in order, the messages still queued behind the running one (the session's end): each is
   * refused in its place, its `error` before `session.ended`, while the socket is still open.
   */
  async runQueuedNow(): Promise<void> {
    for (let task = this.work.shift(); task; task = this.work.shift()) await this.runTask(task);
  }

  private async runTask(task: QueuedTask): Promise<void> {
    try {
      await task.run();
    } catch (err) {
      const { code, message } = toClientError(err);
      if (code === 'PARLEY_ERR_INTERNAL') this.options.log.error({ err }, 'session message failed');
      this.options.sendError(code, message, answering(task.query));
    }
  }

  private async runQueue(): Promise<void> {
    try {
      for (let task = this.work.shift(); task; task = this.work.shift()) {
        await this.runTask(task);
        // Fairness: let other sessions' messages and pending I/O run before this session's next one.
        if (this.work.length > 0) await nextLoopTurn();
      }
    } finally {
      this.running = null;
    }
  }
}
