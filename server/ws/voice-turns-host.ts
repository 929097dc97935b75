import type { FastifyBaseLogger } from 'fastify';
import type { ErrorCode } from '../../graph/core/errors.js';
import type { Stores } from '../../graph/stores.js';
import type { StreamClock } from '../../graph/types.js';
import type { IngestedUtterance, InteractionIngest } from '../../pipelines/interaction/ingest.js';
import type { SessionVocabulary } from '../../pipelines/interaction/session-vocabulary.js';
import type { TurnListener, TurnSession } from '../../pipelines/retrieval/turn-listener.js';
import type { Config } from '../config.js';
import type { Metrics } from '../plugins/metrics.js';
import type { Models } from '../plugins/models.js';

/**
 * A participant retired elsewhere (by hand, perhaps on another server): merged into another (`from` →
 * `into`), or erased (`erasedKey`: `erasedIdKey` of its id, the SHA-256, as the bus carries it).
 */
export type RetiredChange = { from: string; into: string } | { erasedKey: string };

/** What the voice path needs of its live session (kept narrow so the two files do not import each other). */
export interface VoiceTurnsHost {
  readonly tenant: string;
  readonly id: string;
  readonly log: FastifyBaseLogger;
  /** Whether the session has ended: no turn is stored after that. */
  readonly ended: boolean;
  send: TurnSession['send'];
  sendError(code: ErrorCode, message: string, fatal?: boolean, details?: { shed_from_ms?: number }): void;
  /** A new turn id for this session. */
  nextTurnId(): string;
  /** Run work in order with the session's other messages. */
  enqueue(task: () => Promise<void>): void;
  /** Call every turn listener of the session. */
  notify(hook: (listener: TurnListener) => void): void;
  /** The turn's utterance is stored: send `transcript.final` and tell the turn listeners. */
  finalised(turnId: string, stored: IngestedUtterance): void;
  /** The participant a new voice becomes (the holder of the session's pending external id, or a new one). */
  participantForNewVoice(): Promise<string>;
  /** Give the session's pending external id to its first speaker. */
  claimExternalId(speakerId: string): Promise<void>;
  /** The application's own id for the session's first speaker, until that speaker takes it. */
  readonly pendingExternalId: string | null;
  /** A call centre's agents (participant ids): matched as usual while the external id waits, and never given it. */
  readonly agents: ReadonlySet<string>;
  /** The names the session's recogniser listens for: its people first, then the tenant's recent ones. */
  readonly vocabulary: SessionVocabulary;
  /** The id under which the session holds its audio stream in the store (`GraphStore.takeAudioStream`). */
  readonly streamOwner: string;
  /** Another live session took the audio stream over (the store refused a turn or the stream's start): stop, closing with 4000. */
  takenOver(): void;
  /** The current connection's audio begins at `transcriptMs` on the transcript clock (where its `start_time` counts from). */
  connectionAudioStarts(transcriptMs: number): void;
  /** The conversation clock an audio stream beginning at `transcriptMs` records with its start (`GraphStore.startAudioStream`). */
  streamClock(transcriptMs: number): StreamClock | null;
  /** When a turn starting at `transcriptMs` on the transcript clock happened, from the `start_time`; undefined without one. */
  turnTime(transcriptMs: number): string | undefined;
  /** Forget (erased) or relabel (merged) a participant retired elsewhere, as on the bus notice. */
  participantRetired(change: RetiredChange): Promise<void>;
  /**
   * The session merged `from` into `into` itself (the end-of-session merge, its voice side already relabelled): the ids
   * it holds of people (last speaker, agents) name the survivor from now on.
   */
  idsRetired(change: RetiredChange): void;
}

export interface VoiceTurnsDeps {
  config: Config;
  stores: Stores;
  models: Models;
  ingest: InteractionIngest;
  metrics: Metrics;
  /** The clock live audio is timed by, ms (`performance.now` but in tests). */
  audioNow: () => number;
  /** Wall clock, ms since the epoch (`app.clock`, `BuildOptions.now`): what a voice turn's `time` is read from. */
  clock: () => number;
}
