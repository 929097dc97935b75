/**
 * The grid loop the speaker benches share (bench/speaker-absorb.ts, bench/speaker-defer.ts): each variant of the
 * tracker's options scored on every scenario's seeded runs against the same runs' "off" (the current default) and one
 * id per session, paired bootstrap intervals per scenario, the objective (mean Δ within-session utterance accuracy over
 * the meeting scenarios) and the common part of the adoption rule: eligible only when the pooled meeting Δ has its lower
 * end above 0 and no scenario loses across- or within-session utterance accuracy beyond its interval. A bench adds its
 * own text per scenario and its own further conditions (`extraScenario`, `extraRule`).
 */
import { bootstrapDelta } from './bootstrap.js';
import { scoreRuns, type RunFigures } from './speaker-meeting-runs.js';
import type { Scenario } from './speaker-revise-data.js';
import type { RunOptions } from './speaker-sessions.js';

export type Delta = { mean: number; lo: number; hi: number };

export const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
export const pc = (v: number): string => (100 * v).toFixed(1);
export const p = (v: number): string => `${v >= 0 ? '+' : ''}${pc(v)}`;
export const ci = (x: Delta): string => `${p(x.mean)} [${p(x.lo)}, ${p(x.hi)}]`;
const row = (f: RunFigures[]): string => `utt ${pc(mean(f.map((x) => x.utterance)))} / within ${pc(mean(f.map((x) => x.withinUtterance)))}, ids ${mean(f.map((x) => x.ids)).toFixed(1)}:${f[0]!.speakers}`;

export interface VariantGrid<V> {
  modelId: string;
  scen: Scenario[];
  /** The current default's options ("off"). */
  off: RunOptions;
  heldOut: boolean;
  runs: number;
  variants: readonly V[];
  optionsOf: (v: V) => RunOptions;
  /** The scenarios a variant runs on (absent: `scen`): the same sessions with other vectors, e.g. a fused print. */
  scenOf?: (v: V) => readonly Scenario[];
  /**
   * A variant's runs of scenario `k` scored otherwise than by `scoreRuns` over `optionsOf` (e.g. a per-session choice
   * between two runs); null or absent: by `scoreRuns`.
   */
  score?: (v: V, k: number) => Promise<RunFigures[]> | null;
  /** Text after a scenario's "off" row (absent: none). */
  extraOff?: (off: RunFigures[]) => string;
  /** Text ending a scenario's line for a variant; `d` pairs a figure of the variant's runs with the same of "off". */
  extraScenario: (on: RunFigures[], off: RunFigures[], d: (g: (x: RunFigures) => number) => Delta) => string;
  /** Further conditions over all scenarios: whether the variant stays eligible, and a line to print (absent: none). */
  extraRule?: (on: RunFigures[][], off: RunFigures[][]) => { eligible: boolean; text: string };
}

/** Scores every variant, printing as it goes, then the variants by objective. */
export async function runVariantGrid<V>(g: VariantGrid<V>): Promise<void> {
  const meetings = g.scen.flatMap((s, k) => (s.name.endsWith('meeting') ? [k] : []));
  const offFigures: RunFigures[][] = [];
  const one: RunFigures[][] = [];
  for (const s of g.scen) {
    offFigures.push(await scoreRuns(s.runs, g.modelId, g.off));
    one.push(await scoreRuns(s.runs, g.modelId, null));
  }
  console.log(`${g.heldOut ? 'HELD-OUT' : 'training (out of fold)'}; ${g.runs} seeded runs per scenario`);
  for (const [k, s] of g.scen.entries()) {
    console.log(`  ${s.name.padEnd(22)} off ${row(offFigures[k]!)}; ${g.extraOff ? `${g.extraOff(offFigures[k]!)}; ` : ''}one id per session ${row(one[k]!)}`);
  }

  const results: { v: V; objective: number; eligible: boolean }[] = [];
  for (const v of g.variants) {
    const on: RunFigures[][] = [];
    for (const [k, s] of (g.scenOf?.(v) ?? g.scen).entries()) on.push(await (g.score?.(v, k) ?? scoreRuns(s.runs, g.modelId, g.optionsOf(v))));
    const within = (f: RunFigures[][]): number[] => meetings.flatMap((k) => f[k]!.map((x) => x.withinUtterance));
    const pooled = bootstrapDelta(within(on), within(offFigures));
    const objective = mean(meetings.map((k) => mean(on[k]!.map((x) => x.withinUtterance)) - mean(offFigures[k]!.map((x) => x.withinUtterance))));
    let eligible = pooled.lo > 0;
    console.log(`\n${JSON.stringify(v)}: objective (mean Δ within utt over meetings) ${p(objective)}; pooled meetings Δ within utt ${ci(pooled)}`);
    for (const [k, s] of g.scen.entries()) {
      const d = (f: (x: RunFigures) => number): Delta => bootstrapDelta(on[k]!.map(f), offFigures[k]!.map(f));
      const du = d((x) => x.utterance);
      const dw = d((x) => x.withinUtterance);
      if (du.hi < 0 || dw.hi < 0) eligible = false;
      const vsOne = bootstrapDelta(on[k]!.map((x) => x.withinUtterance), one[k]!.map((x) => x.withinUtterance));
      console.log(`  ${s.name.padEnd(22)} on ${row(on[k]!)}; Δ utt ${ci(du)}; Δ within utt ${ci(dw)}; Δ within time ${ci(d((x) => x.withinTime))}; on − one id, within utt ${ci(vsOne)}; ${g.extraScenario(on[k]!, offFigures[k]!, d)}`);
    }
    const extra = g.extraRule?.(on, offFigures);
    if (extra) {
      if (!extra.eligible) eligible = false;
      console.log(extra.text);
    }
    results.push({ v, objective, eligible });
  }
  results.sort((a, b) => b.objective - a.objective);
  console.log('\nby objective:');
  for (const r of results) console.log(`  ${p(r.objective)} ${r.eligible ? 'eligible' : '        '} ${JSON.stringify(r.v)}`);
}
