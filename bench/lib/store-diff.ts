/**
 * What differs between two embedded stores (`DATA_DIR/parley.db`) built from the same input: turns are matched by
 * (tenant, session, seq), facts by their text and fields (speaker and subject by participant name), entities by key,
 * vectors compared bit for bit. Two builds from the same code should not differ (issue #16 item 5). Read-only.
 */
import Database from 'better-sqlite3';
import path from 'node:path';

type Db = Database.Database;

/** A multiset of row keys. */
class Bag {
  readonly counts = new Map<string, number>();
  add(key: string): void { this.counts.set(key, (this.counts.get(key) ?? 0) + 1); }
  get size(): number { let n = 0; for (const c of this.counts.values()) n += c; return n; }
  /** Rows here beyond those in `other`, as [key, extra count]. */
  minus(other: Bag): Array<[string, number]> {
    const out: Array<[string, number]> = [];
    for (const [k, c] of this.counts) { const extra = c - (other.counts.get(k) ?? 0); if (extra > 0) out.push([k, extra]); }
    return out;
  }
}

const total = (rows: Array<[string, number]>): number => rows.reduce((s, [, c]) => s + c, 0);

function bagOf(db: Db, sql: string): Bag {
  const bag = new Bag();
  for (const row of db.prepare(sql).raw().iterate() as Iterable<unknown[]>) bag.add(rowKey(row));
  return bag;
}

/** A row as one comparable string: buffers (vectors) by their bytes. */
function rowKey(row: unknown[]): string {
  return JSON.stringify(row.map((v) => (Buffer.isBuffer(v) ? v.toString('base64') : v)));
}

function cosine(a: Buffer, b: Buffer): number {
  const x = new Float32Array(a.buffer, a.byteOffset, a.byteLength / 4);
  const y = new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4);
  let dot = 0, nx = 0, ny = 0;
  x.forEach((xi, i) => { const yi = y[i] ?? 0; dot += xi * yi; nx += xi * xi; ny += yi * yi; });
  return dot / Math.sqrt(nx * ny);
}

interface Loaded {
  /** Turn vector by "tenant|session|seq". */
  turnVectors: Map<string, Buffer>;
  facts: Bag;
  factTexts: Bag;
  /** Fact vectors by "tenant|content" (a text may have several facts). */
  factVectors: Map<string, Buffer[]>;
}

function load(db: Db): Loaded {
  const turns = new Map<string, string>();
  for (const [t, id, s, q] of db.prepare('select tenant, id, session_id, seq from utterances').raw().iterate() as Iterable<unknown[]>) {
    turns.set(`${t}|${id}`, `${t}|${s}|${q}`);
  }
  const names = new Map<string, string>();
  for (const [t, id, n] of db.prepare('select tenant, id, name from participants').raw().iterate() as Iterable<unknown[]>) {
    names.set(`${t}|${id}`, String(n ?? id));
  }
  const turnVectors = new Map<string, Buffer>();
  const vectorRows = db.prepare("select tenant, id, vector from vectors where collection = 'memory_interaction'").raw().iterate();
  for (const [t, id, v] of vectorRows as Iterable<[string, string, Buffer]>) {
    const turn = turns.get(`${t}|${id}`);
    if (turn) turnVectors.set(turn, v);
  }
  const facts = new Bag();
  const factTexts = new Bag();
  const factRows = db.prepare(`select tenant, content, speaker_id, subject_id, kind, layer, slot, value, valid_from, valid_to,
    superseded_by is null, event_time, valid_until from memory_facts`).raw().iterate();
  for (const [t, content, speaker, subject, ...rest] of factRows as Iterable<unknown[]>) {
    const named = (id: unknown): unknown => (id === null ? null : names.get(`${t}|${id}`) ?? id);
    facts.add(rowKey([t, content, named(speaker), named(subject), ...rest]));
    factTexts.add(rowKey([t, content]));
  }
  const factVectors = new Map<string, Buffer[]>();
  const factVectorRows = db.prepare(`select v.tenant, f.content, v.vector from vectors v
    join memory_facts f on f.tenant = v.tenant and f.id = v.id where v.collection = 'memory_fact'`).raw().iterate();
  for (const [t, content, v] of factVectorRows as Iterable<[string, string, Buffer]>) {
    const key = `${t}|${content}`;
    factVectors.set(key, [...(factVectors.get(key) ?? []), v]);
  }
  return { turnVectors, facts, factTexts, factVectors };
}

/** Tables compared as whole rows: label and query. */
const ROW_SETS: Array<[string, string]> = [
  ['lexical docs (tenant, text, layer)', 'select tenant, text, layer from lexical_docs'],
  ['entities (tenant, key, name, description, memory_count)', 'select tenant, key, name, description, memory_count from lb_entities'],
  ['entity vectors (tenant, entity key, vector)', `select v.tenant, e.key, v.vector from vectors v
    join lb_entities e on e.tenant = v.tenant and e.id = v.id where v.collection = 'left_brain_entity'`],
  ['persona (tenant, kind, target, valence, label, strength, evidence_count)',
    'select tenant, kind, target, valence, label, strength, evidence_count from memory_persona'],
  ['participants (tenant, name, aliases, attributes)', 'select tenant, name, aliases, attributes from participants'],
];

/** Open a store folder's file read-only. */
export function openStoreReadOnly(dir: string): Db {
  return new Database(path.join(dir, 'parley.db'), { readonly: true, fileMustExist: true });
}

/**
 * The report, one line each, comparing store A with store B: counts on each side and how many differ, with up to
 * `examples` differing facts from each side.
 */
export function diffStores(a: Db, b: Db, examples = 15): string[] {
  const out: string[] = [];
  const la = load(a), lb = load(b);
  const common = [...la.turnVectors.keys()].filter((k) => lb.turnVectors.has(k));
  const differ = common.filter((k) => !la.turnVectors.get(k)!.equals(lb.turnVectors.get(k)!));
  const lowest = differ.reduce((m, k) => Math.min(m, cosine(la.turnVectors.get(k)!, lb.turnVectors.get(k)!)), 1);
  out.push(`turn vectors: ${la.turnVectors.size} vs ${lb.turnVectors.size}, common ${common.length}, differ ${differ.length} (lowest cosine ${lowest.toFixed(6)})`);

  const onlyA = la.facts.minus(lb.facts), onlyB = lb.facts.minus(la.facts);
  out.push(`facts: ${la.facts.size} vs ${lb.facts.size}; only in A ${total(onlyA)}, only in B ${total(onlyB)}`);
  out.push(`fact texts (tenant, content): only in A ${total(la.factTexts.minus(lb.factTexts))}, only in B ${total(lb.factTexts.minus(la.factTexts))}`);
  for (const [k] of onlyA.slice(0, examples)) out.push(`  A only: ${k}`);
  for (const [k] of onlyB.slice(0, examples)) out.push(`  B only: ${k}`);

  const single = [...la.factVectors].flatMap(([k, va]) => {
    const vb = lb.factVectors.get(k);
    return va.length === 1 && vb?.length === 1 ? [[va[0]!, vb[0]!] as const] : [];
  });
  const vectorDiffer = single.filter(([va, vb]) => !va.equals(vb)).length;
  out.push(`fact vectors (same text, one each): ${single.length} compared, differ ${vectorDiffer}`);

  for (const [label, sql] of ROW_SETS) {
    const ra = bagOf(a, sql), rb = bagOf(b, sql);
    out.push(`${label}: ${ra.size} vs ${rb.size}; only in A ${total(ra.minus(rb))}, only in B ${total(rb.minus(ra))}`);
  }
  return out;
}
