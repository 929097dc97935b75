import { ParleyError } from '../../graph/core/errors.js';

/** The deepest a listing pages by offset (`GET /v1/memories`, `GET /v1/interactions`): ten million items. */
export const MAX_PAGE_OFFSET = 10_000_000;

/**
 * The `next_cursor` of a listing paged by position: opaque to clients, it holds how many items of the
 * listing came before the next page (`o`) and which listing it pages (`l`), so a cursor of another
 * listing is refused instead of read as a position.
 */
export function encodeOffsetCursor(listing: string, offset: number): string {
  return Buffer.from(JSON.stringify({ l: listing, o: offset })).toString('base64url');
}

/**
 * The position a `cursor` of `listing` stands for; 0 without one.
 * @throws ParleyError `PARLEY_ERR_BAD_REQUEST` for a cursor this API did not give for that listing.
 */
export function decodeOffsetCursor(listing: string, cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    const { l, o } = (value ?? {}) as { l?: unknown; o?: unknown };
    if (l === listing && Number.isSafeInteger(o) && (o as number) >= 0 && (o as number) <= MAX_PAGE_OFFSET) return o as number;
  } catch {
    // not JSON: refused below
  }
  throw new ParleyError('PARLEY_ERR_BAD_REQUEST', `cursor is not a next_cursor this API gave for ${listing}`);
}

/** The cursor of the page after one that started at `offset` and held `count` items, when `more` follow; else null. */
export function nextOffsetCursor(listing: string, offset: number, count: number, more: boolean): string | null {
  return more && offset + count <= MAX_PAGE_OFFSET ? encodeOffsetCursor(listing, offset + count) : null;
}
