/** @parley/client: Parley's HTTP API and /v1/stream sessions, typed from the server's OpenAPI and AsyncAPI documents. */
export { ParleyClient, fillPath, type ParleyClientOptions, type RateLimitRetry, type RequestArgs } from './http.js';
export { SessionEventStream } from './session-events.js';
export { SESSION_ENDED_CLOSE, StreamSession, type Pacing, type PacingClock, type StreamOptions } from './stream.js';
export { MAX_CATCH_UP_MS } from './stream-options.js';
export { AudioQueue, BYTES_PER_SAMPLE, MIN_FRAME_MS, type AudioEncoding } from './audio-queue.js';
export { DEFAULT_RESEND_BUFFER_MS } from './sent-audio.js';
export { DEFAULT_RESUME_TOTAL_MS, ResumeSchedule, type ResumeOptions } from './resume-policy.js';
export { ParleyError, PARLEY_ERROR_CODES, parseRetryAfter, type ClientErrorCode, type ParleyErrorCode } from './errors.js';
export {
  OPERATIONS, type ClientMessage, type ClientMessages, type OperationId, type Operations, type Schemas,
  type ServerEvent, type ServerEvents, type ServerEventType, type StreamQuery,
} from './generated/api.js';
import type { Schemas } from './generated/api.js';

export type Participant = Schemas['Participant'];
export type Utterance = Schemas['Utterance'];
/** One utterance of `postUtterances`. */
export type UtteranceInput = Schemas['PostUtterancesRequest']['utterances'][number];
export type Memory = Schemas['Memory'];
export type MemoryItem = Schemas['MemoryItem'];
export type QueryRequest = Schemas['QueryRequest'];
export type QueryResponse = Schemas['QueryResponse'];
