/**
 * What scoring not-yet-consolidated turns at question time (`pipelines/retrieval/fresh-turns.ts`) costs a question:
 * the first `--consolidated` turns of LoCoMo conv-26 (default 150) stored and consolidated, the next `--pending` (default
 * 32) stored with their jobs not run, then its first `--questions` questions (default 40) answered by the agentic loop
 * twice over the same stores: with fresh-turn scoring (as `PARLEY_RETRIEVAL_FRESH_TURNS=32` runs it) and without (the baseline), alternating
 * which goes first. The first question of each is a warm-up (the fresh side embeds the pending turns then, into the
 * question cache): reported apart. Latency only; no answer quality is claimed.
 *
 * Adoption rule (fixed before the run): fresh-turn scoring stays on by default if the median paired extra latency per
 * question (cache warm) is under 25 ms with its 95 % interval's upper end under 40 ms; otherwise it becomes opt-in.
 *
 *   npm run build && node dist/bench/fresh-turns-query.js [--consolidated N] [--pending N] [--questions N]
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { answerQuestion } from '../pipelines/retrieval/agentic-query.js';
import { withFreshTurns } from '../pipelines/retrieval/fresh-turns.js';
import { Retriever } from '../pipelines/retrieval/retriever.js';
import { embeddedMemory } from '../test/helpers/memory-fixture.js';
import { argNumber, loadLocomoTurns, locomoTime, percentile, sharedDataDir } from './lib/locomo.js';

const T = 'bench';
const CONV = 'conv-26';

/** Bootstrap 95 % interval of the median of `values` (2,000 resamples, fixed seed). */
function medianInterval(values: number[]): [number, number] {
  let seed = 42;
  const random = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const medians: number[] = [];
  for (let r = 0; r < 2000; r++) medians.push(percentile(values.map(() => values[Math.floor(random() * values.length)]!), 50));
  return [percentile(medians, 2.5), percentile(medians, 97.5)];
}

async function main(): Promise<void> {
  const turns = loadLocomoTurns()?.get(CONV);
  const qaFile = path.join(sharedDataDir(), 'locomo', 'locomo_qa.jsonl');
  if (!turns || !existsSync(qaFile)) return;
  const nConsolidated = argNumber('--consolidated', 150);
  const nPending = argNumber('--pending', 32);
  const questions = readFileSync(qaFile, 'utf8').split('\n').filter(Boolean)
    .map((l) => JSON.parse(l) as { conv_id: string; question: string })
    .filter((q) => q.conv_id === CONV).slice(0, argNumber('--questions', 40) + 1).map((q) => q.question);
  const m = embeddedMemory();
  const people = new Map<string, string>();
  const idOf = async (name: string): Promise<string> => {
    if (!people.has(name)) people.set(name, (await m.graph.createParticipant(T, { name })).id);
    return people.get(name)!;
  };
  const opened = new Set<string>();
  for (const [i, t] of turns.slice(0, nConsolidated + nPending).entries()) {
    const session = `s${t.session}`;
    const time = locomoTime(t.session_date_time, t.turn_idx * 30);
    if (!opened.has(session)) await m.graph.openSession(T, session, time);
    opened.add(session);
    const [u] = await m.graph.addUtterances(T, [{
      sessionId: session, speakerId: await idOf(t.speaker), addresseeIds: [await idOf(t.addressee)], text: t.text,
      startMs: null, endMs: null, time, confidence: null, audioRef: null,
    }]);
    if (i < nConsolidated) await m.consolidate(T, session, u!.id);
  }
  const plain = new Retriever(m, m.entities, m.embedder);
  const fresh: Retriever = new Retriever({ ...m, vectors: withFreshTurns(m.vectors, m.graph, (text) => fresh.embed(text)) }, m.entities, m.embedder);
  const times = { fresh: [] as number[], plain: [] as number[] };
  const warmUp = { fresh: 0, plain: 0 };
  for (const [i, question] of questions.entries()) {
    const order = i % 2 === 0 ? (['fresh', 'plain'] as const) : (['plain', 'fresh'] as const);
    for (const side of order) {
      const t0 = performance.now();
      await answerQuestion(side === 'fresh' ? fresh : plain, T, { question, k: 10 });
      const ms = performance.now() - t0;
      if (i === 0) warmUp[side] = ms;
      else times[side].push(ms);
    }
  }
  const diffs = times.fresh.map((ms, i) => ms - times.plain[i]!);
  const [lo, hi] = medianInterval(diffs);
  const row = (name: string, v: number[], first: number): string =>
    `| ${name} | ${v.length} | ${percentile(v, 50).toFixed(1)} | ${percentile(v, 95).toFixed(1)} | ${first.toFixed(1)} |`;
  console.log(`${CONV}: ${nConsolidated} turns consolidated, ${nPending} pending`);
  console.log('| questions | n | p50 ms | p95 ms | warm-up question ms |\n|---|---|---|---|---|');
  console.log(row('with fresh-turn scoring', times.fresh, warmUp.fresh));
  console.log(row('baseline: without (same run)', times.plain, warmUp.plain));
  console.log(`paired extra latency per question: median ${percentile(diffs, 50).toFixed(1)} ms (95 % bootstrap interval ${lo.toFixed(1)}–${hi.toFixed(1)}), p95 ${percentile(diffs, 95).toFixed(1)} ms`);
  await m.close();
}

await main();
