/**
 * Scans a whole store for what an erasure must have removed: every table of the SQLite file (each TEXT
 * cell, and each BLOB's bytes for the erased texts), or every node of a tenant in Neo4j, as rows of cells.
 */
import type { SqliteDatabase } from '../../graph/sqlite/database.js';

/** One stored record (a table row, a node), as the text of each cell, named `where`. */
export interface ScannedRow {
  where: string;
  cells: string[];
  /** Raw bytes of BLOB cells (SQLite only): searched for the erased texts, not the name. */
  blobs: Buffer[];
}

/** Every row of every table of the file (FTS5 virtual tables included, through their own SELECT). */
export function sqliteRows(db: SqliteDatabase): ScannedRow[] {
  const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).all() as { name: string }[];
  const out: ScannedRow[] = [];
  for (const { name } of tables) {
    for (const row of db.prepare(`SELECT * FROM "${name}"`).raw().all() as unknown[][]) {
      out.push({
        where: name,
        cells: row.filter((c): c is string => typeof c === 'string'),
        blobs: row.filter((c): c is Buffer => Buffer.isBuffer(c)),
      });
    }
  }
  return out;
}

/** Nodes as `dumpNeo4j` returns them (`[labels, properties]` pairs), every property a cell. */
export function neo4jRows(dump: string): ScannedRow[] {
  const nodes = JSON.parse(dump) as [string[], Record<string, unknown>][];
  return nodes.map(([labels, props]) => ({
    where: labels.join(':'),
    cells: Object.values(props).flatMap((v) => (Array.isArray(v) ? v : [v])).filter((c) => typeof c !== 'number').map((c) => String(c)),
    blobs: [],
  }));
}

/** What must be gone, and what may stay. */
export interface ErasedPerson {
  /** Display name, matched as a whole word, case-insensitive. */
  name: string;
  /** Texts of their utterances and ids of what was erased (utterances, facts): matched anywhere. */
  secrets: string[];
  /** Other people's utterances (id and text): their rows, and their text inside any cell, may name the person. */
  surviving: { id: string; text: string }[];
}

/** Hex digits in a run at least this long are an id's (ours hold 32, a uuid's groups 8 and 12), not a code someone said. */
const ID_RUN = 8;
/** A uuid as text (8-4-4-4-12 hex digits). */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * Whether `where` holds `secret`: a cell's text case aside, bytes (a blob, a file) as they are, the secret as its UTF-8
 * bytes. A secret of digits only (a locker code) counts only as a number of its own, outside a run of hex digits as long
 * as an id's: random ids (`bus_…`, uuids) hold any four digits now and then ("…a92744718fc…" is no "4471"), which made a
 * clean erasure read as a leak on a CI run; a byte next to it that only looks like a hex digit ("4471a") hides nothing.
 */
export function holdsSecret(where: string | Buffer, secret: string): boolean {
  // A buffer read one byte to one character (latin1), and the secret's UTF-8 bytes so too: bytes compared as bytes.
  const text = typeof where === 'string' ? where.toLowerCase() : where.toString('latin1');
  const s = typeof where === 'string' ? secret.toLowerCase() : Buffer.from(secret).toString('latin1');
  if (!/^\d+$/.test(s)) return text.includes(s);
  const hex = (c: string | undefined): boolean => c !== undefined && /[0-9a-f]/i.test(c);
  // A uuid's 4-digit groups stand between dashes (an erasure lease's owner is a uuid): the whole uuid is the id's run.
  const uuids = [...text.matchAll(UUID)].map((m) => [m.index, m.index + m[0].length] as const);
  for (let at = text.indexOf(s); at >= 0; at = text.indexOf(s, at + 1)) {
    const end = at + s.length;
    if (/\d/.test(text[at - 1] ?? '') || /\d/.test(text[end] ?? '')) continue;
    if (uuids.some(([from, to]) => at >= from && end <= to)) continue;
    let from = at;
    let to = end;
    while (hex(text[from - 1])) from -= 1;
    while (hex(text[to])) to += 1;
    if (to - from < ID_RUN) return true;
  }
  return false;
}

/**
 * Leaks of an erased person, as `where: cell` lines: a cell holding one of their secrets, or their name
 * anywhere except in the text of a surviving utterance or a row that belongs to one (its keyword entry).
 */
export function leaksOf(rows: ScannedRow[], person: ErasedPerson): string[] {
  const name = new RegExp(`\\b${person.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i');
  const survivingIds = new Set(person.surviving.map((s) => s.id));
  const leaks: string[] = [];
  for (const row of rows) {
    const ownedBySurvivor = row.cells.some((c) => survivingIds.has(c));
    for (const cell of row.cells) {
      const secret = person.secrets.find((s) => holdsSecret(cell, s));
      let rest = cell;
      for (const s of person.surviving) rest = rest.split(s.text).join(' ');
      if (secret !== undefined || (!ownedBySurvivor && name.test(rest))) leaks.push(`${row.where}: ${cell.slice(0, 160)}`);
    }
    for (const blob of row.blobs) {
      const secret = person.secrets.find((s) => holdsSecret(blob, s));
      if (secret !== undefined) leaks.push(`${row.where}: blob holding ${secret}`);
    }
  }
  return leaks;
}
