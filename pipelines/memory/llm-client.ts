import OpenAI from 'openai';
import { ParleyError } from '../../graph/core/errors.js';

/** Connection settings for an OpenAI-compatible chat endpoint. */
export interface LlmConfig {
  /** e.g. `https://api.openai.com/v1` or a local server's `/v1`. */
  baseURL: string;
  apiKey: string;
  model: string;
  /** Tries of one call (HTTP errors and unparsable replies), with exponential backoff; default 3. */
  maxAttempts?: number;
  /** First retry delay in milliseconds, doubled each retry; default 250. */
  backoffMs?: number;
  /** Per-request timeout in milliseconds; default 30000. */
  timeoutMs?: number;
}

/** Token totals since start, for metrics. */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  requests: number;
  failures: number;
}

/** Structured-output chat calls with retries, backoff and token accounting. */
export class LlmJsonClient {
  readonly usage: TokenUsage = { promptTokens: 0, completionTokens: 0, requests: 0, failures: 0 };
  readonly #client: OpenAI;

  constructor(readonly config: LlmConfig) {
    // Retries are ours (they also cover unparsable replies), so the client does not retry itself.
    this.#client = new OpenAI({ baseURL: config.baseURL, apiKey: config.apiKey, maxRetries: 0, timeout: config.timeoutMs ?? 30_000 });
  }

  /** Ask for a JSON object matching `schema`; returns it parsed. */
  async complete<T>(name: string, system: string, user: string, schema: object, signal?: AbortSignal): Promise<T> {
    const attempts = this.config.maxAttempts ?? 3;
    let delay = this.config.backoffMs ?? 250;
    let lastError: unknown;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        this.usage.requests++;
        const res = await this.#client.chat.completions.create({
          model: this.config.model,
          temperature: 0,
          messages: [{ role: 'system', content: system }, { role: 'user', content: user }],
          response_format: { type: 'json_schema', json_schema: { name, schema: schema as Record<string, unknown>, strict: true } },
        }, { signal });
        this.usage.promptTokens += res.usage?.prompt_tokens ?? 0;
        this.usage.completionTokens += res.usage?.completion_tokens ?? 0;
        const content = res.choices[0]?.message.content;
        if (!content) throw new Error('empty completion');
        return JSON.parse(content) as T;
      } catch (err) {
        this.usage.failures++;
        lastError = err;
        if (signal?.aborted) break;
        if (attempt < attempts) {
          await new Promise((r) => setTimeout(r, delay));
          delay *= 2;
        }
      }
    }
    throw new ParleyError('PARLEY_ERR_UPSTREAM', `LLM call ${name} failed after ${attempts} tries`, { cause: lastError });
  }
}
