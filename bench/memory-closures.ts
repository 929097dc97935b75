/**
 * Which facts consolidation closed in a built store, and by what: for judging closures by hand.
 * Reads a store kept by `bench/retrieval-locomo.ts --store DIR` (its SQLite file, read-only) and
 * prints, per closed fact (valid_to set by UPDATE or DELETE): the fact, the turn it came from, the
 * turn that closed it, the decision and why (the closing fact's slot, settles, retraction). Also
 * counts the turns all of whose facts are closed (those retrieval demotes when validity is on) and
 * the facts past their own end (`valid_until`) at `--now`.
 *
 *   npm run build && node dist/bench/memory-closures.js --store DIR [--sample N] [--seed S] [--now ISO] [--jsonl FILE]
 *
 * `--sample N` prints N closures drawn at random (seeded, default seed 1) instead of all of them;
 * `--jsonl FILE` writes every closure as one JSON line (for tallies of judged samples).
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { slotChange } from '../pipelines/memory/changes.js';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

interface Row {
  tenant: string; id: string; content: string; kind: string; slot: string | null; value: string | null;
  refer_ids: string; valid_to: string | null; superseded_by: string | null; valid_until: string | null; subject_id: string;
}

/** One closed fact with what closed it. */
export interface Closure {
  tenant: string;
  factId: string;
  fact: string;
  kind: string;
  slot: string | null;
  said: string;
  decision: 'UPDATE' | 'DELETE';
  /**
   * Read back from the stores (the extraction is not kept once processed): UPDATE `slot` (same slot)
   * or `settles` (an outcome); DELETE `retracts-turn` ("cancel that"), `retraction` ("… anymore"),
   * `slot-ends` ("I quit X") or `settles:cancelled`.
   */
  cause: string;
  closedBy: string;
  closingTurn: string;
}

/** Words that make a turn a retraction in the embedded extractor ("… anymore", "no longer", "after all"). */
const NEGATION = /\b(?:anymore|any more|no longer|after all)\b/i;
/** "Cancel that", "never mind": a turn withdrawing the speaker's previous one. */
const RETRACT_TURN = /^(?:(?:oh|ah|sorry|wait|actually|no),?\s+)*(?:please\s+)?(?:cancel|forget|scratch|ignore|disregard)\s+(?:that|it|what i said|the last thing)\b|^(?:oh,?\s+)?never ?mind\b/i;

const store = arg('store');
if (!store) {
  console.error('usage: node dist/bench/memory-closures.js --store DIR [--sample N] [--seed S] [--now ISO] [--jsonl FILE]\n' +
    '  DIR: a store kept by `node dist/bench/retrieval-locomo.js --split dev --ingest-only --store DIR`');
  process.exit(2);
}
const dbFile = path.join(path.resolve(store), 'parley.db');
if (!existsSync(dbFile)) {
  console.error(`no store at ${dbFile}: build one with \`node dist/bench/retrieval-locomo.js --split dev --ingest-only --store ${store}\``);
  process.exit(2);
}
const db = new Database(dbFile, { readonly: true, fileMustExist: true });
const now = arg('now') ?? new Date().toISOString();

const facts = db.prepare('SELECT tenant, id, content, kind, slot, value, refer_ids, valid_to, superseded_by, valid_until, subject_id FROM memory_facts').all() as Row[];
const byId = new Map(facts.map((f) => [`${f.tenant}\u0000${f.id}`, f]));
const utterance = db.prepare('SELECT text FROM utterances WHERE tenant = ? AND id = ?');
const atTime = db.prepare('SELECT id, text FROM utterances WHERE tenant = ? AND time = ?');
const textOf = (tenant: string, id: string | undefined): string =>
  (id ? (utterance.get(tenant, id) as { text: string } | undefined)?.text : undefined) ?? '?';

const closures: Closure[] = [];
for (const f of facts) {
  if (f.valid_to === null) continue;
  const said = textOf(f.tenant, (JSON.parse(f.refer_ids) as string[])[0]);
  const base = { tenant: f.tenant, factId: f.id, fact: f.content, kind: f.kind, slot: f.slot, said };
  if (f.superseded_by) {
    const by = byId.get(`${f.tenant}\u0000${f.superseded_by}`);
    const turnId = by ? (JSON.parse(by.refer_ids) as string[])[0] : undefined;
    const closingTurn = textOf(f.tenant, turnId);
    // The extraction is not kept once processed: an UPDATE is a slot change or an outcome settling a plan.
    const cause = by?.slot && by.slot === f.slot ? 'slot' : 'settles';
    closures.push({ ...base, decision: 'UPDATE', cause, closedBy: by?.content ?? '?', closingTurn });
    continue;
  }
  // A DELETE leaves no fact behind: the closing turn is the one said at the closing time.
  const turns = atTime.all(f.tenant, f.valid_to) as Array<{ id: string; text: string }>;
  const turn = turns[0];
  const text = turn?.text ?? '';
  const cause = RETRACT_TURN.test(text) ? 'retracts-turn' : NEGATION.test(text) ? 'retraction'
    : slotChange(text)?.value === null ? 'slot-ends' : 'settles:cancelled';
  closures.push({ ...base, decision: 'DELETE', cause, closedBy: '', closingTurn: text || '?' });
}

// Turns all of whose facts are closed: what retrieval demotes when validity is on.
const processed = db.prepare('SELECT tenant, utterance_id, fact_ids FROM memory_processed').all() as Array<{ tenant: string; utterance_id: string; fact_ids: string }>;
let withFacts = 0;
let allClosed = 0;
let allEnded = 0;
for (const p of processed) {
  const ids = JSON.parse(p.fact_ids) as string[];
  if (ids.length === 0) continue;
  withFacts++;
  const fs = ids.map((id) => byId.get(`${p.tenant}\u0000${id}`));
  if (fs.every((f) => f && f.valid_to !== null)) allClosed++;
  else if (fs.every((f) => f && (f.valid_to !== null || (f.valid_until !== null && Date.parse(f.valid_until) <= Date.parse(now))))) allEnded++;
}
const ended = facts.filter((f) => f.valid_to === null && f.valid_until !== null && Date.parse(f.valid_until) <= Date.parse(now)).length;

const tally = new Map<string, number>();
for (const c of closures) tally.set(`${c.decision} ${c.cause}`, (tally.get(`${c.decision} ${c.cause}`) ?? 0) + 1);
console.log(`${facts.length} facts, ${closures.length} closed (${[...tally].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ')}); `
  + `${ended} open facts past their own end at ${now}`);
console.log(`${withFacts} turns with facts: ${allClosed} with every fact closed, ${allEnded} more with every fact closed or past its end`);

const jsonl = arg('jsonl');
if (jsonl) writeFileSync(jsonl, closures.map((c) => JSON.stringify(c)).join('\n') + '\n');

let shown = closures;
const n = arg('sample');
if (n !== undefined) {
  let seed = Number(arg('seed') ?? 1);
  const rand = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const pool = [...closures];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [pool[i], pool[j]] = [pool[j] as Closure, pool[i] as Closure];
  }
  shown = pool.slice(0, Number(n));
}
shown.forEach((c, i) => {
  console.log(`\n#${i + 1} ${c.tenant} ${c.decision} (${c.cause}) [${c.kind}${c.slot ? ` ${c.slot}` : ''}]`);
  console.log(`  fact:    ${c.fact}\n  said:    ${c.said}\n  by fact: ${c.closedBy}\n  by turn: ${c.closingTurn}`);
});
db.close();
