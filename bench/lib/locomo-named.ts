import type { LexicalDoc, LexicalIndex } from '../../graph/lexical-index.js';
import type { SqliteDatabase } from '../../graph/sqlite/database.js';
import type { LocomoTurn } from './locomo.js';

/**
 * The "speaker: turn" documents of the `BM25, speaker name + turn` baseline live in the tenant's own
 * lexical index under this layer (so they count in the tenant's BM25 statistics, as they always have).
 */
export const NAMED_LAYER = 'bench-named';
/** A named document's id: the turn's utterance id behind this prefix, so it never clashes with the turn's. */
export const NAMED_PREFIX = 'named:';

/** The turns of the conversations asked, and how they map to the store. */
export interface NamedTurnsInput {
  byConv: Map<string, LocomoTurn[]>;
  /** `conv|dia_id` → utterance id. */
  diaToUtt: Map<string, string>;
  tenantOf: (conv: string) => string;
}

/** The named documents of a conversation's ingested turns. */
function namedDocs(input: NamedTurnsInput, conv: string): LexicalDoc[] {
  return (input.byConv.get(conv) ?? []).flatMap((t) => {
    const id = input.diaToUtt.get(`${conv}|${t.dia_id}`);
    return id ? [{ id: `${NAMED_PREFIX}${id}`, text: `${t.speaker}: ${t.text}`, layer: NAMED_LAYER }] : [];
  });
}

/**
 * The conversations of `convs` whose named documents the embedded store `db` does not hold in full
 * (a store ingested before they were written with it). Reads only.
 */
export function convsLackingNamedTurns(db: SqliteDatabase, input: NamedTurnsInput, convs: readonly string[]): string[] {
  const count = db.prepare('SELECT count(*) FROM lexical_docs WHERE tenant = ? AND layer = ?').pluck();
  return convs.filter((conv) => (count.get(input.tenantOf(conv), NAMED_LAYER) as number) !== namedDocs(input, conv).length);
}

/** Write the named documents of `convs` (replacing any of the same id); returns how many. */
export async function indexNamedTurns(lexical: LexicalIndex, input: NamedTurnsInput, convs: readonly string[]): Promise<number> {
  let n = 0;
  for (const conv of convs) {
    const docs = namedDocs(input, conv);
    await lexical.index(input.tenantOf(conv), docs);
    n += docs.length;
  }
  return n;
}
