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
   * (`PARLEY_ERR_SHUTTING_DOWN` naming `unstored_from_ms`) the reconnect sends the audio the server did
   * not store again. Default 30 000 (at 16 kHz `pcm_s16le` about 1 MB); 0 keeps and resends nothing.
   */
  resendBufferMs?: number;
  /** Wait this long for each connection's `session.started`, ms. Default 15 000. */
  openTimeoutMs?: number;
  /** Extra query parameters of the upgrade (future server options). */
  query?: Record<string, string>;
}
