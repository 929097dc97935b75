import type { ErrorCode } from '../../graph/core/errors.js';
import type { ShedSpan } from './shed-spans.js';
import type { EndReason } from './turn-segmenter.js';

/**
 * Events of one audio session, in order of occurrence per turn. All times in milliseconds relative to
 * the start of the session's audio; `turnId` counts turns from 1 within the session.
 */
export type AudioSessionEvent =
  | {
      type: 'speech_started';
      turnId: number;
      /** Detected speech onset (before pre-speech padding). */
      audioStartMs: number;
    }
  | {
      type: 'speech_stopped';
      turnId: number;
      /** Where the speech ended (start of the closing silence). */
      audioEndMs: number;
      /** Audio position at which the end of turn was decided (`audioEndMs` + silence, or the commit). */
      decidedAtMs: number;
      reason: EndReason;
    }
  | {
      type: 'partial';
      turnId: number;
      text: string;
      /** Session audio position up to which this partial has heard, in ms. */
      atMs: number;
    }
  | {
      type: 'final';
      turnId: number;
      text: string;
      /** Same as the turn's `audioStartMs`. */
      startMs: number;
      /** Same as the turn's `audioEndMs`. */
      endMs: number;
      /** Recogniser confidence in [0, 1]. */
      confidence: number;
      /** The turn's 16 kHz mono span, from `audioOffsetMs` (onset minus padding) to a little past `endMs`. */
      audio: Float32Array;
      /** Session time of `audio[0]`. */
      audioOffsetMs: number;
      /** The recogniser's final had no words though its partials had: `text` is the latest partial (`confidence` 0). */
      fromPartial?: true;
      /**
       * The recogniser that decoded the turn (`StreamingAsr.name`: `pocketsphinx`, `moonshine`…), as the worker loaded it:
       * what the stored turn is heard by (`Utterance.heardBy`), whatever the config or the models folder say now.
       */
      asr: string;
    }
  | {
      /** Audio shed under overload since the last such event: sent when an episode ends, or the session closes in one. */
      type: 'audio_shed';
      /** Where the first span begins and the last ends. */
      fromMs: number;
      untilMs: number;
      /** Every stretch shed, oldest first. */
      spans: ShedSpan[];
    }
  | {
      type: 'error'; code: ErrorCode; message: string; fatal: boolean;
      /** `PARLEY_ERR_OVERLOADED` of shed audio: where the episode's shed audio begins, ms of the stream. */
      shedFromMs?: number;
    };

/** The event types a speech pipeline produces (the session adds `error` and `audio_shed`). */
export type SpeechEvent = Exclude<AudioSessionEvent, { type: 'error' | 'audio_shed' }>;
