/**
 * TEST DOUBLE for an OpenAI-compatible API (no LLM can run on these machines). A real HTTP server on
 * 127.0.0.1 that answers `POST /v1/chat/completions` with canned content chosen by the test, and
 * `POST /v1/embeddings` with deterministic bag-of-words hash vectors. It records every request and
 * can fail the next N requests with a status code, to exercise retries.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A chat request as the double saw it. */
export interface ChatRequestBody {
  model: string;
  messages: Array<{ role: string; content: string }>;
  response_format?: { type: string; json_schema?: { name: string; schema: unknown; strict?: boolean } };
  [key: string]: unknown;
}

/** Options for `startOpenAiDouble`. */
export interface OpenAiDoubleOptions {
  /** Returns the assistant message content for a chat request. Default: `{}`. */
  chat?: (body: ChatRequestBody) => string;
  /** Vector length of embeddings; default 64. */
  dimension?: number;
}

export interface OpenAiDouble {
  /** Base URL including `/v1`. */
  baseURL: string;
  /** Every request body received, by path. */
  requests: Array<{ path: string; body: unknown; authorization: string | undefined }>;
  /** Make the next `n` requests answer with `status` (e.g. 500, 429). */
  failNext(n: number, status: number): void;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : {};
}

/** Deterministic unit vector from the words of `text` (same words -> same vector). */
export function hashVector(text: string, dimension: number): number[] {
  const v = new Array<number>(dimension).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    let h = 2166136261;
    for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619) >>> 0;
    v[h % dimension] = (v[h % dimension] ?? 0) + 1;
  }
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
  return v.map((x) => x / norm);
}

/** Start the double on an ephemeral port. */
export async function startOpenAiDouble(options: OpenAiDoubleOptions = {}): Promise<OpenAiDouble> {
  const dimension = options.dimension ?? 64;
  const requests: OpenAiDouble['requests'] = [];
  let failures = 0;
  let failStatus = 500;
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const path = (req.url ?? '').split('?')[0] ?? '';
      requests.push({ path, body, authorization: req.headers.authorization });
      const send = (status: number, payload: unknown): void => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      if (failures > 0) {
        failures--;
        // The OpenAI SDK honours `retry-after-ms`: its retries come at once instead of after ~0.5 s.
        res.setHeader('retry-after-ms', '1');
        send(failStatus, { error: { message: 'injected failure', type: 'server_error' } });
        return;
      }
      if (req.method === 'POST' && path.endsWith('/chat/completions')) {
        const b = body as ChatRequestBody;
        const content = options.chat ? options.chat(b) : '{}';
        send(200, {
          id: `chatcmpl-double-${requests.length}`, object: 'chat.completion', created: 0, model: b.model,
          choices: [{ index: 0, finish_reason: 'stop', logprobs: null, message: { role: 'assistant', content, refusal: null } }],
          usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
        });
        return;
      }
      if (req.method === 'POST' && path.endsWith('/embeddings')) {
        const b = body as { model: string; input: string | string[] };
        const inputs = Array.isArray(b.input) ? b.input : [b.input];
        send(200, {
          object: 'list', model: b.model,
          data: inputs.map((t, index) => ({ object: 'embedding', index, embedding: hashVector(t, dimension) })),
          usage: { prompt_tokens: inputs.length * 5, total_tokens: inputs.length * 5 },
        });
        return;
      }
      send(404, { error: { message: 'not found' } });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    failNext(n, status) {
      failures = n;
      failStatus = status;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
