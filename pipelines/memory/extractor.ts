import type { FactKind, PlanObject, ProfileUpdate } from '../../graph/memory-store.js';
import type { Utterance } from '../../graph/types.js';

/** How a participant whose name is not known yet is written in a fact (never a raw id). */
export const UNNAMED = 'an unnamed speaker';
/** How the unnamed remote party of a phone session (Twilio) is written in a fact. */
export const CALLER = 'the caller';

/** What an extractor sees: the current turn plus up to 3 previous turns of the session. */
export interface ExtractionInput {
  current: Utterance;
  /** Up to 3 previous utterances of the same session, oldest first. */
  previous: Utterance[];
  /** Display names of the participants involved, by id (null or absent: unknown). */
  names: Record<string, string | null>;
  /**
   * How participants without a name are written, by id (e.g. "the caller" for the remote party of a
   * phone session); absent: "an unnamed speaker".
   */
  unnamed?: Record<string, string>;
}

/** A candidate fact before consolidation. */
export interface ExtractedFact {
  /** Self-contained text: pronouns resolved to names ("an unnamed speaker" when unknown, never an id). */
  content: string;
  kind: FactKind;
  subjectId: string;
  speakerId: string;
  addresseeIds: string[];
  /** ISO date (or `YYYY-MM`) the fact's event happens or happened; null or absent when undated. */
  eventTime?: string | null;
  /**
   * ISO-8601 end of a temporary state by its own words ("for a month", "until Friday"; see
   * `stateEnd`); absent: consolidation reads it from `content`; null: no end.
   */
  validUntil?: string | null;
  /**
   * ISO-8601 start of a state said ahead ("next month I'm in Tokyo for two weeks": the first of next month), later than
   * the utterance; absent: it holds from when it was said. Stored as the fact's `validFrom` (rules 30).
   */
  validFrom?: string;
  /** Exclusive slot the fact fills for its subject (e.g. `lives_in`), else null. */
  slot: string | null;
  value: string | null;
  /**
   * True when the turn withdraws something ("I don't like X anymore", "cancel that"): consolidation
   * closes the matching current fact instead of adding this one.
   */
  retraction: boolean;
  /**
   * Set when the turn settles an earlier plan or commitment of the subject ("the raised beds are
   * finished", "I won't be able to call the plumber", "…rain barrels instead"): consolidation closes
   * the most similar open one about the same thing (UPDATE for done / instead / decided, DELETE for
   * cancelled). "decided": a choice ("we decided to hold the reunion at…") that settles a proposal.
   */
  settles?: 'done' | 'cancelled' | 'instead' | 'decided';
  /**
   * A slot of the same family the turn also ends while filling `slot` ("I left Hillcrest, I'm tutoring full time now":
   * fills `occupation`, ends `works_at`): consolidation supersedes that one when `slot` holds nothing yet. On an ending
   * (`retraction`) the slot it ends too ("I handed in my notice" ends `works_at` and `occupation`).
   */
  endsSlot?: string;
  /**
   * Plans, commitments, requests, proposals and outcomes: what the action is about (`Fact.planObject`).
   * Absent or null: consolidation matches an outcome by shared words instead.
   */
  planObject?: PlanObject | null;
  /** For "cancel that"-style retractions: the earlier utterances whose facts are withdrawn. */
  retractsUtteranceIds?: string[];
  confidence: number;
  /** Utterances the fact came from (always includes the current one). */
  referIds: string[];
}

/** Facts and profile updates extracted jointly from one turn. */
export interface ExtractionResult {
  facts: ExtractedFact[];
  profileUpdates: ProfileUpdate[];
}

/** Joint fact / profile extraction. Implementations: embedded rules (wink-nlp), LLM. */
export interface Extractor {
  /** Recorded on every fact, e.g. `embedded-rules/1` or `llm/facts-v1`. */
  readonly source: string;
  extract(input: ExtractionInput): Promise<ExtractionResult>;
}
