import type { FastifyInstance } from 'fastify';
import { after, before } from 'node:test';
import { pino, type Logger } from 'pino';
import { ParleyClient } from '../../clients/typescript/src/index.js';
import { buildApp, type BuildOptions } from '../../server/app.js';
import { loadConfig, type Config } from '../../server/config.js';
import { tempDir } from './temp-dir.js';

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  /** `ws://127.0.0.1:<port>` once `listen()` ran. */
  wsUrl: string;
  httpUrl: string;
  close(): Promise<void>;
}

/**
 * Build the app on a fresh data directory; `listen` binds a random loopback port. Logs go nowhere unless a test
 * passes its own `logger` (to read them).
 */
export async function startTestApp(
  env: Record<string, string> = {}, listen = true, logger: Logger = pino({ level: 'silent' }), options: Pick<BuildOptions, 'now' | 'eagerModels' | 'audioNow'> = {},
): Promise<TestApp> {
  const tmp = tempDir('parley-app-');
  const config = loadConfig({ DATA_DIR: tmp.dir, PORT: '0', LOG_LEVEL: 'silent', ...env });
  const app = await buildApp(config, { logger, ...options });
  let httpUrl = '';
  if (listen) {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (address && typeof address === 'object') httpUrl = `http://127.0.0.1:${address.port}`;
  }
  return {
    app, config, httpUrl, wsUrl: httpUrl.replace('http', 'ws'),
    close: async () => {
      await app.close();
      tmp.remove();
    },
  };
}

/** {@link startTestApp} on `env`, listening, and an SDK client of it (no API key). */
export async function startTestAppWithClient(env: Record<string, string> = {}): Promise<{ t: TestApp; api: ParleyClient }> {
  const t = await startTestApp(env);
  return { t, api: new ParleyClient({ baseUrl: t.httpUrl }) };
}

/** An SDK client of `t` that sends the API key of a deployment's `authorization` header (`Bearer …`), when it has one. */
export function clientFor(t: TestApp, headers: Readonly<Record<string, string>>): ParleyClient {
  const key = headers.authorization?.replace(/^Bearer /, '');
  return new ParleyClient({ baseUrl: t.httpUrl, ...(key ? { apiKey: key } : {}) });
}

/**
 * {@link startTestApp} for voice tests: one inference worker, the audio backlog bound lifted (behaviour, not speed, on a
 * busy machine), `env` on top, `options`' clocks; the speech models are loaded before it returns, as the real server does at start-up.
 */
export async function startVoiceTestApp(env: Record<string, string> = {}, options: Pick<BuildOptions, 'now' | 'audioNow'> = {}): Promise<TestApp> {
  const t = await startTestApp({ PARLEY_INFERENCE_WORKERS: '1', PARLEY_AUDIO_MAX_QUEUED_MS: '600000', ...env }, true, undefined, options);
  await t.app.models.inference();
  return t;
}

/**
 * Speaker settings under which one voice fragments into an id per utterance online and the end-of-session merge (on
 * accumulated evidence) joins the fragments again: the cosine rule (the calibrated decision would keep the voice just
 * heard and never split it), strict online thresholds, and an average-linkage merge threshold (mean utterance-pair
 * cosine) below the 0.73–0.85 the fixture voices' utterance pairs score with each other (stats-lda-v2, turns cut
 * offline; the server's VAD cuts them a little differently).
 */
export const FRAGMENT_THEN_MERGE_ENV: Readonly<Record<string, string>> = {
  PARLEY_SPEAKER_DECISION: 'thresholds',
  PARLEY_SPEAKER_TAU_MATCH: '0.995',
  PARLEY_SPEAKER_TAU_UPDATE: '0.999',
  PARLEY_SPEAKER_MERGE_TAU: '0.6',
  PARLEY_SPEAKER_MERGE_MIN_UTTERANCES: '1',
};

/**
 * One app for the tests of a `describe` (or a file): `start()` runs before them, the app closes after them. The
 * returned object is filled in when `start()` resolves: read it inside tests and hooks, not while declaring them.
 */
export function appForSuite(start: () => Promise<TestApp>): TestApp {
  const t = {} as TestApp;
  before(async () => {
    Object.assign(t, await start());
  });
  after(() => (t as Partial<TestApp>).close?.());
  return t;
}

/**
 * {@link appForSuite} with an SDK client of the app (no API key): `t` and `api` are filled in when the app has started,
 * so read them inside tests and hooks.
 */
export function appWithClientForSuite(start: () => Promise<TestApp> = () => startTestApp()): { t: TestApp; api: ParleyClient } {
  const suite = { t: appForSuite(start) } as { t: TestApp; api: ParleyClient };
  before(() => {
    suite.api = new ParleyClient({ baseUrl: suite.t.httpUrl });
  });
  return suite;
}

/**
 * {@link appForSuite} under one of `deployments()`: the app started with its settings, an SDK client sending its
 * headers, and the deployment cleaned up once the app has closed. Read `t` and `api` inside tests and hooks.
 */
export function deploymentAppForSuite(deployment: { env: Record<string, string>; headers: Record<string, string>; cleanup(): Promise<void> }): { t: TestApp; api: ParleyClient } {
  const suite = { t: appForSuite(() => startTestApp(deployment.env)) } as { t: TestApp; api: ParleyClient };
  before(() => {
    suite.api = clientFor(suite.t, deployment.headers);
  });
  after(() => deployment.cleanup());
  return suite;
}
