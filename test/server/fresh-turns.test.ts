import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { ParleyClient } from '../../clients/typescript/src/index.js';
import type { JobHandler, WorkerOptions } from '../../graph/job-queue.js';
import { openStores } from '../../graph/open-stores.js';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { CONSOLIDATION_JOB } from '../../pipelines/memory/consolidate.js';
import { LEFT_BRAIN_JOB } from '../../pipelines/retrieval/left-brain-job.js';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { tempDir } from '../helpers/temp-dir.js';
import { TestWsClient, type ServerEvent } from '../helpers/ws-client.js';

/** Consolidation jobs wait at this gate while it is held: the turns are stored, their jobs have not run. */
class ConsolidationGate {
  #held: Promise<void> | null = null;
  #open: () => void = () => undefined;

  hold(): void {
    this.#held ??= new Promise<void>((resolve) => { this.#open = resolve; });
  }

  release(): void {
    this.#open();
    this.#held = null;
  }

  async pass(): Promise<void> {
    if (this.#held) await this.#held;
  }
}

/** Consolidated earlier: turns with vectors, facts and entity entries, which a question matches only loosely. */
const EARLIER = [
  { speaker: 'Ana', text: 'Hello Ben, how was Lisbon?' },
  { speaker: 'Ben', text: 'It was sunny.' },
  { speaker: 'Ana', text: 'What did you have for dinner there?' },
  { speaker: 'Ben', text: 'Grilled fish by the river.' },
];

/** Said just now, consolidation held back. */
const RECENT = [
  { speaker: 'Ana', text: 'My cat Miko loves tuna.' },
  { speaker: 'Ben', text: 'It was sunny.' },
  { speaker: 'Ana', text: 'We should paint the fence this weekend.' },
];

const MIKO = 'My cat Miko loves tuna.';
const QUESTION = 'what does Miko like to eat?';

type Item = { layer: string; text: string; source_text?: string | null };

/** The text of the first turn among `items` (a fact counts as the turn it came from). */
function firstTurn(items: Item[]): string | undefined {
  const first = items.find((i) => i.layer === 'interaction' || i.source_text);
  return first?.layer === 'interaction' ? first.text : first?.source_text ?? undefined;
}

describe('turns whose consolidation has not run yet are ranked on their merits (PARLEY_RETRIEVAL_FRESH_TURNS=32)', () => {
  const gate = new ConsolidationGate();
  const tmp = tempDir('parley-fresh-');
  let app: FastifyInstance;
  let api: ParleyClient;
  let wsUrl: string;

  before(async () => {
    const config = loadConfig({ DATA_DIR: tmp.dir, PORT: '0', LOG_LEVEL: 'silent', PARLEY_RETRIEVAL_FRESH_TURNS: '32' });
    const logger = pino({ level: 'silent' });
    const stores = openStores(config, logger);
    const processJobs = stores.queue.process.bind(stores.queue);
    stores.queue.process = <T>(name: string, handler: JobHandler<T>, options?: WorkerOptions): void => processJobs<T>(name, name === CONSOLIDATION_JOB
      ? async (job, signal) => {
        await gate.pass();
        await handler(job, signal);
      }
      : handler, options);
    app = await buildApp(config, { logger, stores });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = address && typeof address === 'object' ? address.port : 0;
    api = new ParleyClient({ baseUrl: `http://127.0.0.1:${port}` });
    wsUrl = `ws://127.0.0.1:${port}`;
    await api.postUtterances('earlier', EARLIER);
    await drainConsolidation(app.stores.queue, 120_000);
    await app.stores.queue.drain(LEFT_BRAIN_JOB, 120_000);
    gate.hold();
  });

  after(async () => {
    gate.release();
    await app.close();
    tmp.remove();
  });

  test('POST /v1/query: the turn that answers comes first', async () => {
    await api.postUtterances('http-now', RECENT);
    assert.ok((await app.stores.queue.pending(CONSOLIDATION_JOB)) >= RECENT.length, 'the jobs are held');
    const { evidence } = await api.query({ question: QUESTION });
    assert.equal(firstTurn(evidence as Item[]), MIKO, JSON.stringify(evidence.map((e) => e.text)));
  });

  /** A socket on session `id` that said `RECENT`, each turn stored (its consolidation held). */
  async function saidRecently(id: string): Promise<TestWsClient> {
    const c = await TestWsClient.connect(`${wsUrl}/v1/stream?session_id=${id}`);
    await c.next('session.started');
    for (const turn of RECENT) {
      c.sendJson({ type: 'utterance', ...turn });
      await c.next('transcript.final', (e) => e.text === turn.text);
    }
    assert.ok((await app.stores.queue.pending(CONSOLIDATION_JOB)) >= RECENT.length, 'the jobs are held');
    return c;
  }

  test('WebSocket query: the turn that answers comes first', async () => {
    const c = await saidRecently('ws-query');
    c.sendJson({ type: 'query', id: 'q-fresh', question: QUESTION });
    const result = await c.next('query.result', (e) => e.id === 'q-fresh');
    const evidence = result.evidence as Item[];
    assert.equal(firstTurn(evidence), MIKO, JSON.stringify(evidence.map((e) => e.text)));
    c.close();
  });

  test('memory.context of a turn asking it: the turn that answers comes first', async () => {
    const c = await saidRecently('ws-context');
    c.sendJson({ type: 'utterance', speaker: 'Ben', text: QUESTION });
    const final = await c.next('transcript.final', (e) => e.text === QUESTION);
    const context = await c.next('memory.context', (e: ServerEvent) => e.turn_id === final.turn_id && e.speculative === false);
    const items = context.items as Item[];
    assert.equal(firstTurn(items), MIKO, JSON.stringify(items.map((e) => e.text)));
    c.close();
  });

  test('a turn forgotten before its job ran is no evidence', async () => {
    const { utterance_ids: [id] } = await api.postUtterances('forget-now', [{ speaker: 'Ana', text: 'My cat Miko hates tuna now.' }]);
    assert.ok(id);
    assert.ok((await api.query({ question: QUESTION, k: 20 })).evidence.some((e) => e.id === id), 'found while its job waits');
    await api.forgetUtterance(id);
    const { evidence } = await api.query({ question: QUESTION, k: 20 });
    assert.ok(!evidence.some((e) => e.id === id || e.text.includes('hates')), JSON.stringify(evidence.map((e) => e.text)));
  });

  // The reference the tests above hold fresh turns to: consolidated, the same question ranks the same turn first.
  test('once the jobs ran, the same question ranks the same turn first', async () => {
    gate.release();
    await drainConsolidation(app.stores.queue, 120_000);
    await app.stores.queue.drain(LEFT_BRAIN_JOB, 120_000);
    const { evidence } = await api.query({ question: QUESTION });
    assert.equal(firstTurn(evidence as Item[]), MIKO, JSON.stringify(evidence.map((e) => e.text)));
  });
});
