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

/** What a session's queue needs from its session. */
export interface SessionQueueOptions {
  /** Most queued messages before new ones are shed (`PARLEY_SESSION_QUEUE`). */
  limit: number;
  log: FastifyBaseLogger;
  /** Send the session's client an `error` event; `dropped` names the message a full queue dropped. */
  sendError: (code: ErrorCode, message: string, dropped?: DroppedMessage) => void;
}

/**
 * A live session's client messages, run one after another in arrival order, one message per session
 * per turn of the event loop (so one flooding session cannot starve the others). A failing message
 * becomes an `error` event and never stops the queue.
 */
export class SessionQueue {
  private readonly work: (() => Promise<void>)[] = [];
  private running: Promise<void> | null = null;

  constructor(private readonly options: SessionQueueOptions) {}

  /**
   * Queue `task` behind earlier messages; sheds it with an error when the queue is full (then false),
   * unless `always` (the session's end: it must run, after what is queued before it). `about`: the
   * client message the task runs, named in that error.
   */
  enqueue(task: () => Promise<void>, options: { always?: boolean; about?: DroppedMessage } = {}): boolean {
    if (!options.always && this.work.length >= this.options.limit) {
      const { about } = options;
      const which = about ? `this ${about.type}${about.utterance_id === undefined ? '' : ` (utterance_id ${JSON.stringify(about.utterance_id)})`}` : 'this one';
      this.options.sendError('PARLEY_ERR_OVERLOADED', `more than ${this.options.limit} messages are waiting; ${which} was dropped`, about);
      return false;
    }
    this.work.push(task);
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

  private async runTask(task: () => Promise<void>): Promise<void> {
    try {
      await task();
    } catch (err) {
      const { code, message } = toClientError(err);
      if (code === 'PARLEY_ERR_INTERNAL') this.options.log.error({ err }, 'session message failed');
      this.options.sendError(code, message);
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
