/**
 * An app over HTTP whose clock a test moves: sessions said and consolidated in turn, then a participant's derived
 * attributes read at chosen moments, with nothing run in between (temporary states that begin or end by the clock).
 */
import pino from 'pino';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { ParleyClient, type UtteranceInput } from '../../clients/typescript/src/index.js';
import { startTestApp, type TestApp } from './app.js';

/** A listening app, its client, and the clock it reads. */
export interface ClockedApp {
  t: TestApp;
  api: ParleyClient;
  /** Post `utterances` to session `sessionId` and wait until they are consolidated. */
  say(sessionId: string, utterances: UtteranceInput[]): Promise<void>;
  /** The derived attributes of participant `name` with the clock set to `iso` (it stays there). */
  attributesAt(name: string, iso: string): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** Start an app whose clock reads `startIso` until a test moves it (`attributesAt`). */
export async function startClockedApp(startIso: string): Promise<ClockedApp> {
  let clock = Date.parse(startIso);
  const t = await startTestApp({}, true, pino({ level: 'silent' }), { now: () => clock });
  const api = new ParleyClient({ baseUrl: t.httpUrl });
  return {
    t,
    api,
    async say(sessionId, utterances) {
      await api.postUtterances(sessionId, utterances);
      await drainConsolidation(t.app.stores.queue, 60_000);
    },
    async attributesAt(name, iso) {
      clock = Date.parse(iso);
      return (await api.participant(name)).attributes;
    },
    close: () => t.close(),
  };
}
