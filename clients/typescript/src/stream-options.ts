import type { AudioEncoding } from './audio-queue.js';
import type { ResumeOptions } from './resume-policy.js';

/** How audio given to `sendAudio` goes out. */
export type Pacing =
  /** One frame per `frameMs` of wall-clock time (× `speed`), as a live microphone would. */
  | 'realtime'
  /** As fast as the server allows: up to `maxLeadMs` of audio ahead of real time (tests, file upload). */
  | 'fast'
  /** No pacing at all: every frame as soon as it is queued (the server sheds audio over 5 s ahead). */
  | 'none';

/**
 * Most audio a resumed connection sends faster than real time to catch up on what it held during the
 * outage, ms: the server's catch-up allowance (docs/PROTOCOL.md, "Catching up after a reconnect").
 */
export const MAX_CATCH_UP_MS = 30_000;

/** The time source of pacing: `performance.now()` and `setTimeout` unless a test injects another. */
export interface PacingClock {
  /** Milliseconds on a monotonic clock. */
  now(): number;
  /** Resolves once `now()` has advanced by `ms`. */
  sleep(ms: number): Promise<void>;
}

/** Options of `ParleyClient.stream()`. */
export interface StreamOptions {
  /** Resume (or name) this session; default: the server makes up an id (`session.sessionId`). */
  sessionId?: string;
  /** Samples per second of the audio you send. Default 16000. */
  sampleRate?: 8000 | 16000 | 24000 | 44100 | 48000;
  /** Default `pcm_s16le`. */
  encoding?: AudioEncoding;
  /** Default `realtime`. */
  pacing?: Pacing;
  /** With `realtime` pacing: multiple of real time. Default 1. */
  speed?: number;
  /** Audio per binary frame, ms (10–1000). Default 20. */
  frameMs?: number;
  /** With `fast` pacing: most audio sent ahead of real time, ms. Default 4000 (the server sheds past 5000). */
  maxLeadMs?: number;
  /**
   * Reconnect with the session id after the connection drops (not after `session.ended`, a fatal
   * error or `close()`). Default: tries for 60 s after the drop (`totalMs`), waiting 250 ms before the
   * first attempt and doubling up to 5 s between attempts, so a restarted server is found once it
   * listens again; `false` turns it off.
   */
  resume?: false | ResumeOptions;
  /**
   * How much of the latest sent audio to keep, ms, so that after a server shutdown
   * (`PARLEY_ERR_SHUTTING_DOWN` naming `unstored_from_ms`) or crash (the resumed `session.started` naming
   * `unstored_from_ms`) the reconnect sends the audio the server did not store again. Default 30 000 (at 16 kHz `pcm_s16le` about 1 MB); 0 keeps and resends nothing.
   */
  resendBufferMs?: number;
  /** Wait this long for each connection's `session.started`, ms. Default 15 000. */
  openTimeoutMs?: number;
  /** The clock pacing runs on (tests inject a fake one). Default: `performance.now()` and `setTimeout`. */
  clock?: PacingClock;
  /** Extra query parameters of the upgrade, sent on every reconnect: `start_time`, `agent`, `external_id` (see the README). */
  query?: Record<string, string>;
}
