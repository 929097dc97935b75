import { createHash } from 'node:crypto';
import { QdrantClient } from '@qdrant/js-client-rest';
import { ParleyError } from '../core/errors.js';

export interface QdrantConnectionOptions {
  /** `QDRANT_URL`, e.g. `http://127.0.0.1:6333`. */
  url: string;
  /** `QDRANT_API_KEY`, if the server wants one. */
  apiKey?: string | null;
  /** Prefix of every collection Parley creates, so deployments (and tests) can share a server; default `parley_`. */
  collectionPrefix?: string;
  /** Per-request timeout, ms; default 10000. */
  timeoutMs?: number;
  /** How long `ready()` waits, ms; default 2000. */
  readyTimeoutMs?: number;
}

/** Points per upsert request. */
export const UPSERT_BATCH = 256;

/**
 * Where the client must send requests for `QDRANT_URL`: scheme and host, the port (the URL's, else
 * the scheme's: 80 or 443) and the path as a prefix. The client by itself would use port 6333 for a
 * URL without one and drop the path (a Qdrant behind a reverse proxy at `https://host/qdrant`).
 */
export function qdrantAddress(url: string): { url: string; port: number; prefix: string } {
  const parsed = new URL(url);
  const port = parsed.port ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80;
  const prefix = parsed.pathname.replace(/\/+$/, '');
  return { url: `${parsed.protocol}//${parsed.hostname}`, port, prefix };
}

/** A client for the options; no request is made until the first call. */
export function createQdrantClient(options: QdrantConnectionOptions, timeoutMs = options.timeoutMs ?? 10_000): QdrantClient {
  const address = qdrantAddress(options.url);
  return new QdrantClient({
    url: address.url,
    port: address.port,
    ...(address.prefix ? { prefix: address.prefix } : {}),
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    timeout: timeoutMs,
    checkCompatibility: false,
  });
}

/** HTTP status of a failed client call, if the server answered. */
export function statusOf(err: unknown): number | undefined {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

/**
 * Run one Qdrant call, turning failures into Parley errors: no answer or a 5xx is
 * `PARLEY_ERR_STORE_UNAVAILABLE` (retryable: the outbox retries it), a 4xx is a bad request.
 */
export async function qdrantCall<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof ParleyError) throw err;
    const status = statusOf(err);
    const detail = err instanceof Error ? err.message.split('\n')[0] : String(err);
    if (status !== undefined && status >= 400 && status < 500 && status !== 429) {
      throw new ParleyError('PARLEY_ERR_BAD_REQUEST', `Qdrant rejected ${what} (${status}): ${detail}`, { cause: err });
    }
    throw new ParleyError('PARLEY_ERR_STORE_UNAVAILABLE', `Qdrant (QDRANT_URL) unavailable during ${what}: ${detail}`, { cause: err });
  }
}

/**
 * A Qdrant write (through `qdrantCall`) that survives a stale 404: when the collection this process
 * created or resolved earlier is gone (deleted, re-embedded by another process, a server restarted
 * on empty storage), `recreate` makes it exist again (reading a binding again if need be) and the
 * write runs once more, rather than being dropped as a bad request.
 */
export async function qdrantWrite<T>(what: string, write: () => Promise<T>, recreate: () => Promise<void>): Promise<T> {
  return qdrantCall(what, async () => {
    try {
      return await write();
    } catch (err) {
      if (statusOf(err) !== 404) throw err;
      await recreate();
      return write();
    }
  });
}

/**
 * A Qdrant call (through `qdrantCall`) for which a missing collection (404) is an answer: `absent`
 * (an empty read, nothing to delete).
 */
export async function qdrantCallOr<T>(what: string, call: () => Promise<T>, absent: T): Promise<T> {
  return qdrantCall(what, async () => {
    try {
      return await call();
    } catch (err) {
      if (statusOf(err) === 404) return absent;
      throw err;
    }
  });
}

/** True when Qdrant answers within `timeoutMs`. */
export async function qdrantReady(options: QdrantConnectionOptions): Promise<boolean> {
  const probe = createQdrantClient(options, options.readyTimeoutMs ?? 2000);
  try {
    await probe.getCollections();
    return true;
  } catch {
    return false;
  }
}

/** Collection-name-safe text: letters, digits, `_` and `-` only. */
export function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** Namespace for Parley's point ids (a fixed random UUID). */
const NAMESPACE = Buffer.from('5f0c6d1e8a7b4c2e9d3f1a6b7c8d9e0f', 'hex');

/**
 * The Qdrant point id of a Parley id within a tenant: a name-based (UUID version 5 layout, SHA-1)
 * UUID of `tenant` and `id`, so the same Parley id in two tenants never collides and every process
 * maps an id the same way. The Parley id itself stays in the payload.
 */
export function pointId(tenant: string, id: string): string {
  const hash = createHash('sha1').update(NAMESPACE).update(`${tenant}\u0000${id}`).digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Split `items` into runs of at most `size`. */
export function batches<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
