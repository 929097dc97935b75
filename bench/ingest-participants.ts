/**
 * How the text path scales with the number of participants a tenant holds (a call-center tenant
 * gains one per caller): for each size, N named participants are written straight into the embedded
 * graph store, then 40 utterances of a two-party call that name people are ingested one at a time
 * (`InteractionIngest.ingest`, what POST /v1/sessions/:id/utterances and the WebSocket run).
 * Reports ingest p50/p95, and the name-mention check (`mentionedParticipants`) over every participant
 * against the baseline measured in the same run: a whole-word pattern built for every participant.
 *
 * With `--baseline DIR` (the dist/ folder of another build, e.g. main before a change built in a scratch
 * worktree) that build runs in the same process on a store of its own holding the same participants;
 * each line is ingested by both, in turn, and the table gives both builds' ingest times and the paired
 * difference per line with its 95 % bootstrap interval (the name-scan columns are then left out).
 *
 *   npm run build && node dist/bench/ingest-participants.js [--sizes 0,1000,10000,50000] [--baseline DIR]
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { openStores } from '../graph/open-stores.js';
import { mentionedParticipants, mentionsName, type KnownParticipant } from '../pipelines/interaction/addressee.js';
import { InteractionIngest } from '../pipelines/interaction/ingest.js';
import { loadConfig } from '../server/config.js';
import { tempDir } from '../test/helpers/temp-dir.js';
import { percentile } from './lib/locomo.js';
import { argString } from './lib/cli.js';
import { bootstrapDelta } from './lib/bootstrap.js';

const sizes = argString('sizes', '0,1000,10000,50000').split(',').map(Number);
const baselineDir = argString('baseline', '');
const FIRST = ['Ana', 'Ben', 'Carla', 'Dev', 'Eli', 'Fay', 'Gus', 'Hana', 'Ivo', 'Jun'];
const LINES = [
  'Hi, this is Ana from support, how can I help?',
  'Hello Ana, I would like to change my delivery address please',
  'Of course. Can you confirm the name on the order?',
  'It is under Ben Caller12, my husband placed it',
  'Thanks Ben, I have found it. What is the new address?',
  'Twelve Harbour Street, the flat above the bakery',
  'Done. Anything else today?',
  'No, that is all, thank you Ana',
];

/** The behaviour before the substring screen: a whole-word pattern for every name of every participant. */
function baselineMentioned(text: string, participants: KnownParticipant[]): string[] {
  return participants
    .filter((p) => [p.name, ...p.aliases].some((n) => !!n && n.trim().length > 1 && mentionsName(text, n)))
    .map((p) => p.id);
}

function timeIt(fn: () => unknown, times: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < times; i++) {
    const t0 = performance.now();
    fn();
    out.push(performance.now() - t0);
  }
  return out;
}

const tmp = tempDir('parley-bench-participants-');
const logger = pino({ level: 'silent' });
const stores = openStores(loadConfig({ DATA_DIR: tmp.dir, PARLEY_RUN_JOBS: 'false' }), logger);
const ingest = new InteractionIngest({ ...stores, logger });

/** The build to compare with, loaded from its own dist/ folder, on a store of its own. */
async function openBaseline(dir: string): Promise<{ graph: typeof stores.graph; ingest: InteractionIngest; close: () => Promise<void> }> {
  const load = async <M>(file: string): Promise<M> => (await import(pathToFileURL(path.resolve(dir, file)).href)) as M;
  const opened = (await load<typeof import('../graph/open-stores.js')>('graph/open-stores.js')).openStores(
    (await load<typeof import('../server/config.js')>('server/config.js')).loadConfig({ DATA_DIR: baseTmp.dir, PARLEY_RUN_JOBS: 'false' }), logger);
  const Ingest = (await load<typeof import('../pipelines/interaction/ingest.js')>('pipelines/interaction/ingest.js')).InteractionIngest;
  return { graph: opened.graph, ingest: new Ingest({ ...opened, logger }), close: () => opened.close(1000) };
}
const baseTmp = tempDir('parley-bench-participants-base-');
const base = baselineDir ? await openBaseline(baselineDir) : null;
const f1 = (x: number): string => x.toFixed(1);
const rows: string[] = [];
let made = 0;
try {
  for (const n of sizes) {
    const t0 = performance.now();
    while (made < n) {
      await stores.graph.createParticipant('default', { name: `${FIRST[made % FIRST.length]} Caller${made}` });
      await base?.graph.createParticipant('default', { name: `${FIRST[made % FIRST.length]} Caller${made}` });
      made++;
    }
    process.stderr.write(`${n} participants written in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    const ingestMs: number[] = [];
    const baseIngestMs: number[] = [];
    for (let i = 0; i < 40; i++) {
      const line = [{ speaker: i % 2 === 0 ? 'Agent' : 'Customer', text: LINES[i % LINES.length]! }];
      // The two builds take turns going first, so neither always runs on a warmer machine.
      for (const which of i % 2 === 0 ? ['now', 'base'] : ['base', 'now']) {
        if (which === 'base' && !base) continue;
        const started = performance.now();
        await (which === 'now' ? ingest : base!.ingest).ingest('default', `call-${n}`, line);
        (which === 'now' ? ingestMs : baseIngestMs).push(performance.now() - started);
      }
    }
    if (base) {
      const d = bootstrapDelta(ingestMs, baseIngestMs);
      rows.push(`| ${n + 2} | ${f1(percentile(ingestMs, 50))} | ${f1(percentile(ingestMs, 95))} | ${f1(percentile(baseIngestMs, 50))} | ${f1(percentile(baseIngestMs, 95))} | ${f1(d.mean)} [${f1(d.lo)}, ${f1(d.hi)}] |`);
      continue;
    }
    const everyone = await stores.graph.listParticipants('default');
    const text = LINES[3]!;
    const scanMs = timeIt(() => mentionedParticipants(text, everyone), 10);
    // V8 caches compiled patterns by source, so the baseline's first call (every pattern new, as for
    // names not seen since the cache was last cleared) and its repeats (all cached) are both reported.
    const baseMs = timeIt(() => baselineMentioned(text, everyone), 4);
    if (mentionedParticipants(text, everyone).join() !== baselineMentioned(text, everyone).join()) {
      throw new Error(`the screened scan and the baseline disagree at ${n} participants`);
    }
    rows.push(`| ${everyone.length} | ${f1(percentile(ingestMs, 50))} | ${f1(percentile(ingestMs, 95))} | ${f1(percentile(scanMs, 50))} | ${f1(baseMs[0]!)} | ${f1(percentile(baseMs.slice(1), 50))} |`);
  }
  if (base) {
    console.log('| participants in the tenant | ingest p50 ms | ingest p95 ms | baseline build ingest p50 ms | baseline build p95 ms | mean difference per line ms [95 % CI] |');
  } else {
    console.log('| participants in the tenant | ingest p50 ms | ingest p95 ms | name scan p50 ms | baseline scan (pattern per participant), first call ms | baseline scan, repeated, p50 ms |');
  }
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
} finally {
  await stores.close(1000);
  await base?.close();
  tmp.remove();
  baseTmp.remove();
}
