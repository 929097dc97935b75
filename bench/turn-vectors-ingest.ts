/**
 * What writing each turn's vector at store time (`pipelines/interaction/turn-vectors.ts`) costs the ingest: the first
 * `--turns` LoCoMo turns (default 300), one `InteractionIngest.ingest` call per turn as a live client sends them, into
 * two embedded stores side by side: with store-time vectors (the server's default, its configured text embedder) and
 * without (the baseline: store + keyword index + enqueue). The two alternate turn by turn (which goes first alternates
 * too), so the machine's load falls on both alike; no consolidation runs.
 *
 * Adoption rule (fixed before the run): store-time vectors stay on by default if the median paired extra latency
 * per single-turn call is under 20 ms with its 95 % interval's upper end under 30 ms; otherwise they become opt-in.
 *
 *   npm run build && node dist/bench/turn-vectors-ingest.js [--turns N]
 */
import { pino } from 'pino';
import { openStores } from '../graph/open-stores.js';
import { InteractionIngest } from '../pipelines/interaction/ingest.js';
import { TurnVectors } from '../pipelines/interaction/turn-vectors.js';
import { createTextEmbedder } from '../server/plugins/models.js';
import { loadConfig } from '../server/config.js';
import { tempDir } from '../test/helpers/temp-dir.js';
import { argNumber, loadLocomoTurns, locomoTime, percentile } from './lib/locomo.js';

const T = 'default';

/** Bootstrap 95 % interval of the median of `values` (2,000 resamples, fixed seed). */
function medianInterval(values: number[]): [number, number] {
  let seed = 42;
  const random = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const medians: number[] = [];
  for (let r = 0; r < 2000; r++) {
    const sample = values.map(() => values[Math.floor(random() * values.length)]!);
    medians.push(percentile(sample, 50));
  }
  return [percentile(medians, 2.5), percentile(medians, 97.5)];
}

async function main(): Promise<void> {
  const all = loadLocomoTurns();
  if (!all) return;
  const n = argNumber('--turns', 300);
  const turns = [...all.values()].flat().slice(0, n);
  const logger = pino({ level: 'silent' });
  const open = (): { ingest: (withVectors: boolean) => InteractionIngest; close(): Promise<void> } => {
    const tmp = tempDir('parley-bench-turn-vectors-');
    const config = loadConfig({ DATA_DIR: tmp.dir, PORT: '0', LOG_LEVEL: 'silent', PARLEY_ASR: 'none' });
    const stores = openStores(config, logger);
    const embedder = createTextEmbedder(config);
    return {
      ingest: (withVectors) => new InteractionIngest({
        ...stores, logger,
        ...(withVectors ? { turnVectors: new TurnVectors({ ...stores, embedder, logger, minAsrConfidence: config.memoryMinAsrConfidence }) } : {}),
      }),
      close: async () => {
        await stores.close();
        await embedder.close();
        tmp.remove();
      },
    };
  };
  const withStores = open();
  const withoutStores = open();
  const variants = { with: withStores.ingest(true), without: withoutStores.ingest(false) };
  const times = { with: [] as number[], without: [] as number[] };
  // One warm-up turn each: the embedder's model loads on its first call.
  await variants.with.ingest(T, 'warm-up', [{ speaker: 'A', text: 'Hello there.' }]);
  await variants.without.ingest(T, 'warm-up', [{ speaker: 'A', text: 'Hello there.' }]);
  for (const [i, t] of turns.entries()) {
    const input = { speaker: t.speaker, addressees: [t.addressee], text: t.text, time: locomoTime(t.session_date_time, t.turn_idx * 30) };
    const order = i % 2 === 0 ? (['with', 'without'] as const) : (['without', 'with'] as const);
    for (const v of order) {
      const t0 = performance.now();
      await variants[v].ingest(T, `s${t.session}`, [input]);
      times[v].push(performance.now() - t0);
    }
  }
  const diffs = times.with.map((ms, i) => ms - times.without[i]!);
  const [lo, hi] = medianInterval(diffs);
  const row = (name: string, v: number[]): string =>
    `| ${name} | ${v.length} | ${percentile(v, 50).toFixed(2)} | ${percentile(v, 95).toFixed(2)} | ${Math.max(...v).toFixed(2)} |`;
  console.log(`embedder: ${(await import('../server/config.js')).loadConfig({ DATA_DIR: '/tmp', PORT: '0' }).textEmbedder}`);
  console.log('| ingest | turns | p50 ms | p95 ms | max ms |\n|---|---|---|---|---|');
  console.log(row('with store-time vectors', times.with));
  console.log(row('baseline: without (same run)', times.without));
  console.log(`paired extra latency per turn: median ${percentile(diffs, 50).toFixed(2)} ms (95 % bootstrap interval ${lo.toFixed(2)}–${hi.toFixed(2)}), p95 ${percentile(diffs, 95).toFixed(2)} ms`);
  await withStores.close();
  await withoutStores.close();
}

await main();
