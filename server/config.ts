import { existsSync } from 'node:fs';
import { resolveTextEmbedder, TEXT_EMBEDDER_CHOICES } from '../pipelines/embeddings/text-embedder-choice.js';
import { modelsDir } from '../pipelines/models/repo-root.js';
import { DEFAULT_CMUDICT } from '../pipelines/speaker/phonetic.js';
import { readBackendSettings, type BackendSettings } from './config/backends.js';
import { ConfigError, EnvReader, type Env } from './config/env-reader.js';
import { readMemorySettings, type MemorySettings } from './config/memory.js';
import { readAccess, readServerSettings, readSessionLimits, readSessionSettings, type ServerSettings, type SessionSettings } from './config/serving.js';
import { readSpeakerSettings, type SpeakerSettings } from './config/speaker.js';
import { readDecoderLimits, readSpeechChoices, readSpeechSettings, type SpeechSettings } from './config/speech.js';
import { doubtfulSettings } from './config/warnings.js';

export { ConfigError } from './config/env-reader.js';
export type { ApiKey } from './config/serving.js';
export { voiceprintsAllowed } from './config/speaker.js';

/**
 * Parley's whole configuration, read once at start-up from the environment. Each part, with its
 * variables and defaults, is in `server/config/`: the server and its sessions (`serving.ts`), the stores
 * and queue (`backends.ts`), speech (`speech.ts`), speakers (`speaker.ts`) and memory (`memory.ts`).
 */
export interface Config extends ServerSettings, BackendSettings, SpeechSettings, SpeakerSettings, MemorySettings, SessionSettings {}

/** The config and what in the environment looks like a mistake without being invalid. */
export interface LoadedConfig {
  config: Config;
  /** One line per doubtful setting, to log as a warning at start-up. */
  warnings: string[];
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
  return { config, warnings: doubtfulSettings(env, read, config) };
}

/** Build the typed config from `env`; throws `ConfigError` naming every bad value. */
export function loadConfig(env: Env = process.env): Config {
  const r = new EnvReader(env);
  // Read in this order: later defaults depend on these, and problems are listed in the order they are met.
  const access = readAccess(r, env);
  const models = modelsDir(r.string('MODELS_DIR', ''));
  const speech = readSpeechChoices(r, models);
  const textEmbedder = resolveTextEmbedder(r.oneOf('PARLEY_TEXT_EMBEDDER', TEXT_EMBEDDER_CHOICES, 'auto'), models);
  const limits = readSessionLimits(r, access.apiKeys);
  const decoders = readDecoderLimits(r);
  const config: Config = {
    ...readServerSettings(r, access),
    ...readBackendSettings(r, env),
    ...readSpeechSettings(r, env, speech, decoders),
    ...readSpeakerSettings(r),
    ...readMemorySettings(r, env, textEmbedder, models),
    ...readSessionSettings(r, env, limits),
  };
  checkAcrossSettings(r, env, config);
  if (r.problems.length > 0) throw new ConfigError(r.problems);
  return config;
}

/** Checks that span settings (or read a file), after every value is read. */
function checkAcrossSettings(r: EnvReader, env: Env, config: Config): void {
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
}
