import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../pipelines/models/repo-root.js';
import { requireDataOrSkip } from './cli.js';

/** One LoCoMo turn as `../shared/data/locomo/locomo_turns.jsonl` has it. */
export interface LocomoTurn {
  conv_id: string;
  session: number;
  session_date_time: string;
  dia_id: string;
  speaker: string;
  addressee: string;
  text: string;
  turn_idx: number;
}

/** The shared data folder (`PARLEY_SHARED_DATA`, else `../shared/data` beside the repository). */
export function sharedDataDir(): string {
  return process.env.PARLEY_SHARED_DATA ?? path.resolve(repoRoot(), '../shared/data');
}

/**
 * LoCoMo turns grouped by conversation (in file order), or null (with the reason printed) when the
 * data is absent. `file` defaults to the shared LoCoMo turns; another set in the same format may be given.
 */
export function loadLocomoTurns(file = path.join(sharedDataDir(), 'locomo', 'locomo_turns.jsonl')): Map<string, LocomoTurn[]> | null {
  if (!existsSync(file)) {
    requireDataOrSkip(file);
    console.log(`SKIP: ${file} not found (set PARLEY_SHARED_DATA to the shared data folder)`);
    return null;
  }
  const byConv = new Map<string, LocomoTurn[]>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const t = JSON.parse(line) as LocomoTurn;
    if (!byConv.has(t.conv_id)) byConv.set(t.conv_id, []);
    byConv.get(t.conv_id)!.push(t);
  }
  return byConv;
}

/**
 * A turn's addressees: LoCoMo names one; a multi-party set may list several ("Ana, Ben"), none, or
 * "all" (bench/data/multiparty), which means everyone else who speaks in that session (`sessionSpeakers`).
 */
export function addresseesOf(t: Pick<LocomoTurn, 'addressee' | 'speaker'>, sessionSpeakers: readonly string[] = []): string[] {
  const named = (t.addressee ?? '').split(',').map((a) => a.trim()).filter(Boolean);
  if (named.length === 1 && named[0]!.toLowerCase() === 'all') return sessionSpeakers.filter((s) => s !== t.speaker);
  return named;
}

/** `1:56 pm on 8 May, 2023` → ISO-8601, plus `offsetS` seconds (turn order within the session). */
export function locomoTime(dateTime: string, offsetS = 0): string {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+(\w+),?\s+(\d{4})/i.exec(dateTime);
  if (!m) return new Date(Date.UTC(2023, 0, 1) + offsetS * 1000).toISOString();
  const months = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
  let hour = Number(m[1]) % 12;
  if (m[3]!.toLowerCase() === 'pm') hour += 12;
  const month = months.indexOf(m[5]!.toLowerCase());
  return new Date(Date.UTC(Number(m[6]), Math.max(0, month), Number(m[4]), hour, Number(m[2])) + offsetS * 1000).toISOString();
}

/** p-th percentile (0–100) of `values`, nearest rank. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export { argNumber } from './cli.js';

/**
 * Whether the set in `dir` may be used for choosing options (`--dev-data`): throws when its README.md
 * declares it held out (in its title, or "**Never used for tuning**"), whose figures are for reporting
 * only; true otherwise.
 */
export function declaredForDevelopment(dir: string): boolean {
  const readme = path.join(dir, 'README.md');
  const text = existsSync(readme) ? readFileSync(readme, 'utf8') : '';
  const title = text.split('\n').find((l) => l.startsWith('# ')) ?? '';
  if (/held[\s-]out/i.test(title) || /\*\*never used for tuning/i.test(text)) throw new Error(`${dir} declares itself held out (README.md): not for choosing options`);
  return true;
}
