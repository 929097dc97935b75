import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { startTestApp, type TestApp } from './app.js';

/** A participant as `GET /v1/participants/{ref}` answers it (the fields tests read). */
export interface ParticipantJson {
  id: string;
  name: string | null;
  aliases: string[];
  attributes: Record<string, unknown>;
  voiceprint_count: number;
}

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** A suite's app and tenant, and requests made as that tenant. */
export interface TenantApp {
  /** The running app (from the suite's `before` on). */
  readonly t: TestApp;
  readonly tenant: string;
  /** The tenant's API key as a header, for sockets (`TestWsClient.connect(url, headers)`). */
  readonly headers: { authorization: string };
  /** An HTTP request as the tenant; `payload` is the JSON body. */
  send(method: HttpMethod, url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  /** `GET /v1/participants/{ref}`, asserted to be a 200. */
  person(ref: string): Promise<ParticipantJson>;
  /** `GET /v1/participants`. */
  people(): Promise<ParticipantJson[]>;
}

/**
 * An app on `env` with a tenant of its own (a networked store outlives the run, so each run names a new one:
 * `name` with the process id and the time), started before the enclosing suite's tests and closed after them.
 * Call it inside `describe`.
 */
export function tenantApp(name: string, env: Record<string, string>): TenantApp {
  const key = `${name}-key-${process.pid}-${Date.now()}`;
  const tenant = `${name}${process.pid}x${Date.now()}`;
  const headers = { authorization: `Bearer ${key}` };
  let app: TestApp | undefined;
  before(async () => {
    app = await startTestApp({ ...env, PARLEY_API_KEYS: `${key}:${tenant}` });
  });
  after(async () => {
    await app?.close();
  });
  const running = (): TestApp => {
    if (!app) throw new Error(`the ${name} app is not started yet (use it in tests or hooks, not while the suite is declared)`);
    return app;
  };
  const send = (method: HttpMethod, url: string, payload?: unknown): Promise<LightMyRequestResponse> =>
    running().app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  return {
    get t() {
      return running();
    },
    tenant,
    headers,
    send,
    person: async (ref) => {
      const res = await send('GET', `/v1/participants/${encodeURIComponent(ref)}`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json() as ParticipantJson;
    },
    people: async () => (await send('GET', '/v1/participants')).json().participants as ParticipantJson[],
  };
}
