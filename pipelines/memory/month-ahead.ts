/**
 * A month named alone, read ahead ("in December", "this December", "next December"; life5): chrono, reading forward,
 * takes a month's first day and, that day being past, next year's month, so "for two weeks in December" said on
 * 5 December read as December of the next year. A month named while we are in it is this month, its rest still ahead;
 * only "next December" said in December is next year's. Any other month: the next one to come, as chrono reads it.
 */

/** "next" just before a month's name ("next December"): the month after this one of its name. */
const NEXT_BEFORE = /\bnext\s+$/i;

/**
 * The year of the month `month` (0–11) named alone ahead, said at `refMs` (UTC) with the words `before` it: this
 * year's when it is this month (unless "next" leads it) or one still to come this year, else next year's.
 */
export function monthAheadYear(month: number, refMs: number, before: string): number {
  const ref = new Date(refMs);
  const year = ref.getUTCFullYear();
  const now = ref.getUTCMonth();
  if (month === now) return NEXT_BEFORE.test(before) ? year + 1 : year;
  return month > now ? year : year + 1;
}
