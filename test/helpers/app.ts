import type { FastifyInstance } from 'fastify';
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

/**
 * {@link startTestApp} for voice tests: one inference worker, the audio backlog bound lifted (behaviour, not speed, on a
 * busy machine), `env` on top; the speech models are loaded before it returns, as the real server does at start-up.
 */
export async function startVoiceTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const t = await startTestApp({ PARLEY_INFERENCE_WORKERS: '1', PARLEY_AUDIO_MAX_QUEUED_MS: '600000', ...env });
  await t.app.models.inference();
  return t;
}
