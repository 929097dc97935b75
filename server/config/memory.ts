/** Memory settings: the text embedder, the extractor and the OpenAI-compatible endpoint and models. */
import type { TextEmbedderName } from '../../pipelines/embeddings/text-embedder-choice.js';
import type { Env, EnvReader } from './env-reader.js';
import { DEFAULT_ASSISTANT_NAMES } from '../../pipelines/interaction/non-person-labels.js';
import { DEFAULT_MIN_ASR_CONFIDENCE, type MinAsrConfidence } from '../../pipelines/memory/doubtful-speech.js';
import { CONTEXT_SCOPES, type ContextScope } from '../../pipelines/retrieval/context-scope.js';

/** How memories are extracted and embedded, and where models live. */
export interface MemorySettings {
  /**
   * `PARLEY_TEXT_EMBEDDER`: `auto` (default: `bge-small-en-v1.5-q` when installed in `MODELS_DIR`, else `use-lite`),
   * `use-lite` (bundled), `bge-small-en-v1.5` or `bge-small-en-v1.5-q` (embedded ONNX encoder, fp32 or int8, fetched
   * into `MODELS_DIR` by `npm run models -- fetch <name>`) or `openai` (OpenAI-compatible endpoint). Holds the embedder
   * `auto` resolved to.
   */
  textEmbedder: TextEmbedderName;
  /** Set when `auto` fell back to USE-lite: the warning the server logs once, naming the fetch command. */
  textEmbedderFallback: string | null;
  /** `PARLEY_EXTRACTOR`: `embedded` (rules, no LLM) or `llm` (OpenAI-compatible chat model). */
  extractor: 'embedded' | 'llm';
  /**
   * `PARLEY_ASSISTANT_NAMES`: comma-separated names the assistant listening is called by ("Robot, we're going…"); never a
   * listener, nor one of "we", in either extractor's facts. Default `DEFAULT_ASSISTANT_NAMES`; `none`: no name.
   */
  assistantNames: string[];
  /** `OPENAI_BASE_URL`, `OPENAI_API_KEY`: any OpenAI-compatible endpoint. */
  openaiBaseUrl: string;
  openaiApiKey: string | null;
  /** `PARLEY_LLM_MODEL`, `PARLEY_EMBEDDING_MODEL`, `PARLEY_EMBEDDING_DIMENSION`, `PARLEY_TRANSCRIPTION_MODEL`. */
  llmModel: string;
  embeddingModel: string;
  embeddingDimension: number;
  transcriptionModel: string;
  /** Where `npm run models` puts model files (`MODELS_DIR`). */
  modelsDir: string;
  /**
   * `PARLEY_MEMORY_MIN_ASR_CONFIDENCE`: a recognised turn below this ASR confidence (0–1) is kept in the transcript
   * but gives memory nothing (no facts, profile, persona or search entry): see `doubtfulSpeech`. Default `auto`
   * (`DEFAULT_MIN_ASR_CONFIDENCE`): 0.35 (`ROOM_SPEECH_MIN_ASR_CONFIDENCE`) for turns pocketsphinx heard from wideband
   * (16 kHz and up) audio, no gate for phone-line (8 kHz) turns, other recognisers' (Moonshine) turns and typed text
   * (`minAsrConfidenceFor`). A number applies to every recognised turn; 0: no gate.
   */
  memoryMinAsrConfidence: MinAsrConfidence;
  /**
   * `PARLEY_RETRIEVAL_FRESH_TURNS`: how many of the tenant's newest turns with no vector yet (their consolidation job not
   * run) every dense search over turns scores at question time (`withFreshTurns`); default 0, off (opt-in: it cost a
   * question a median 40 ms on a loaded 2-core machine, docs/BENCHMARKS.md, "Fresh turns").
   */
  retrievalFreshTurns: number;
  /**
   * `PARLEY_ANSWERABLE_TOPIC_GATE` (`on` / `off`, default `off`): `answerable` also needs an item sharing the question's
   * topic (`topicMatched`, `DEFAULT_TOPIC_BARS`). Off by default: with USE-lite it read paraphrased answerable questions
   * ("What does Ana do for work?" against "Ana is a nurse") unanswerable, and LoCoMo showed no gain (docs/BENCHMARKS.md).
   */
  answerableTopicGate: boolean;
  /**
   * `PARLEY_CHANGE_CLASSIFIER` (`on` / `off`, default `off`): where the rules of consolidation find no change of mind, the
   * learned change model of the text embedder (`pipelines/memory/params/<embedder>-change.json`, `LearnedChangeDecider`)
   * may still decide UPDATE / DELETE / KEEP against the nearest current fact. Only with the embedded extractor; under an
   * embedder no model was trained for, the rules decide alone (logged once).
   */
  changeClassifier: boolean;
  /**
   * `PARLEY_CONTEXT_SCOPE` (`all` / `participants`): whose memories a session's pushed `memory.context` may hold, unless
   * the session sets its own `context_scope`. Null (unset): `all` on `/v1/stream`, `participants` on `/v1/twilio` (a phone
   * line carries one customer per call, so another customer's memories must never reach its agent).
   */
  contextScope: ContextScope | null;
}

/** `PARLEY_MEMORY_MIN_ASR_CONFIDENCE`: `auto` (any case) or a number from 0 to 1; unset: `DEFAULT_MIN_ASR_CONFIDENCE`. */
function minAsrConfidence(r: EnvReader, env: Env): MinAsrConfidence {
  const raw = env.PARLEY_MEMORY_MIN_ASR_CONFIDENCE?.trim() ?? '';
  if (raw === '') return DEFAULT_MIN_ASR_CONFIDENCE;
  if (raw.toLowerCase() === 'auto') return 'auto';
  const value = Number(raw);
  if (Number.isFinite(value) && value >= 0 && value <= 1) return value;
  r.problems.push(`PARLEY_MEMORY_MIN_ASR_CONFIDENCE=${JSON.stringify(raw)} must be auto or a number from 0 to 1`);
  return DEFAULT_MIN_ASR_CONFIDENCE;
}

/** The names of `PARLEY_ASSISTANT_NAMES`: comma-separated, `none` for none. */
function assistantNames(raw: string): string[] {
  return raw.toLowerCase() === 'none' ? [] : raw.split(',').map((n) => n.trim()).filter((n) => n.length > 0);
}

/** The memory settings; `textEmbedder` is the resolved choice, `models` the resolved `MODELS_DIR`. */
export function readMemorySettings(
  r: EnvReader,
  env: Env,
  textEmbedder: { name: TextEmbedderName; fallback: string | null },
  models: string,
): MemorySettings {
  return {
    textEmbedder: textEmbedder.name,
    textEmbedderFallback: textEmbedder.fallback,
    extractor: r.oneOf('PARLEY_EXTRACTOR', ['embedded', 'llm'] as const, 'embedded'),
    assistantNames: assistantNames(r.string('PARLEY_ASSISTANT_NAMES', DEFAULT_ASSISTANT_NAMES.join(','))),
    openaiBaseUrl: r.url('OPENAI_BASE_URL', 'https://api.openai.com/v1', ['http:', 'https:']),
    openaiApiKey: env.OPENAI_API_KEY?.trim() || null,
    llmModel: r.string('PARLEY_LLM_MODEL', 'gpt-4o-mini'),
    embeddingModel: r.string('PARLEY_EMBEDDING_MODEL', 'text-embedding-3-small'),
    embeddingDimension: r.int('PARLEY_EMBEDDING_DIMENSION', 1536, 8, 8192),
    transcriptionModel: r.string('PARLEY_TRANSCRIPTION_MODEL', 'gpt-4o-mini-transcribe'),
    // Where `npm run models` installs them, whatever the working directory (an MCP client may start Parley elsewhere).
    modelsDir: models,
    memoryMinAsrConfidence: minAsrConfidence(r, env),
    retrievalFreshTurns: r.int('PARLEY_RETRIEVAL_FRESH_TURNS', 0, 0, 1000),
    answerableTopicGate: r.oneOf('PARLEY_ANSWERABLE_TOPIC_GATE', ['on', 'off'] as const, 'off') === 'on',
    changeClassifier: r.oneOf('PARLEY_CHANGE_CLASSIFIER', ['on', 'off'] as const, 'off') === 'on',
    contextScope: env.PARLEY_CONTEXT_SCOPE?.trim() ? r.oneOf('PARLEY_CONTEXT_SCOPE', CONTEXT_SCOPES, 'all') : null,
  };
}
