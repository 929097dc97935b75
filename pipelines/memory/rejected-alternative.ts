/**
 * A preference said with the alternative turned down (life5): "tea, not coffee", "tea to coffee", "tea rather than
 * coffee", "tea instead of coffee". The thing preferred is the liking; the alternative is no liking, and no part of the
 * preferred thing's slot ("I prefer tea to coffee" was `preference:tea to coffee`), and its "not" is no negation of
 * the sentence ("For now I prefer tea, not coffee" lost its "for now").
 */

/** The alternative turned down after what is preferred, to the end of its clause. */
const TURNED_DOWN = /(?:\s*,\s*(?:and\s+|but\s+)?not\s+|\s+(?:rather\s+than|instead\s+of)\s+)([^,.;!?]+?)\s*(?=[,.;!?]|$)/i;
/** "prefer X to Y": "to" after what is preferred, only after "prefer" ("I prefer to walk to work" turns nothing down). */
const PREFER_TO = /\b(prefer(?:s|red)?\s+(?!to\s)[^,.;!?]+?)\s+to\s+([^,.;!?]+?)\s*(?=[,.;!?]|$)/i;

/** `said` without the alternative turned down after a preference, and that alternative; null when none is said. */
export function withoutTurnedDown(said: string): { kept: string; turnedDown: string } | null {
  const to = PREFER_TO.exec(said);
  if (to) return { kept: `${said.slice(0, to.index)}${to[1]}${said.slice(to.index + to[0].length)}`, turnedDown: to[2]!.trim() };
  const m = TURNED_DOWN.exec(said);
  if (!m || m.index === 0) return null;
  return { kept: `${said.slice(0, m.index)}${said.slice(m.index + m[0].length)}`, turnedDown: m[1]!.trim() };
}
