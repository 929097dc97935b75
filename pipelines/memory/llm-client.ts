import OpenAI from 'openai';
import { ParleyError } from '../../graph/core/errors.js';

/** Connection settings for an OpenAI-compatible chat endpoint. */
export interface LlmConfig {
  /** e.g. `https://api.openai.com/v1` or a local server's `/v1`. */
  baseURL: string;
  apiKey: string;
  model: string;
  /**
   * Tries of one call; default 3. Retries are the OpenAI SDK's own (exponential backoff, honouring
   * `retry-after`): on connection errors, timeouts, 408, 409, 429 and 5xx, never on 400 or 401.
   */
  maxAttempts?: number;
  /** Per-request timeout in milliseconds; default 30000. */
  timeoutMs?: number;
}

/** Token totals since start, for metrics. */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  /** Calls of `complete` (an SDK retry is not another call). */
  requests: number;
  /** Calls that failed after the SDK's retries, or whose reply was not JSON. */
  failures: number;
}

/** Structured-output chat calls with the SDK's retries and token accounting. */
export class LlmJsonClient {
  readonly usage: TokenUsage = { promptTokens: 0, completionTokens: 0, requests: 0, failures: 0 };
  readonly #client: OpenAI;

  constructor(readonly config: LlmConfig) {
    const maxRetries = Math.max(0, (config.maxAttempts ?? 3) - 1);
    this.#client = new OpenAI({ baseURL: config.baseURL, apiKey: config.apiKey, maxRetries, timeout: config.timeoutMs ?? 30_000 });
  }

  /**
   * Ask for a JSON object matching `schema`; returns it parsed. A reply that is empty or not JSON
   * is not retried (a deterministic model would give it again): it fails like an HTTP error, with
   * `PARLEY_ERR_UPSTREAM`.
   */
  async complete<T>(name: string, system: string, user: string, schema: object, signal?: AbortSignal): Promise<T> {
    this.usage.requests++;
    try {
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
      throw new ParleyError('PARLEY_ERR_UPSTREAM', `LLM call ${name} failed: ${(err as Error).message}`, { cause: err });
    }
  }
}
