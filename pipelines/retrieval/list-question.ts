/** Words a list or aggregate question opens with after "what" / "which" that are no plural noun. */
const NOT_PLURAL = new Set('is was has does goes this his its us bus gas yes less unless plus'.split(' '));

/**
 * Whether a question asks for a list or an aggregate, whose answer is told across several sessions: "What activities
 * does Melanie partake in?", "What books has Melanie read?", "What kind of art…", "What has Maria done to…", "Where has
 * Melanie camped?", "How many times…", "What do Jon and Gina both have in common?".
 */
export function asksForList(question: string): boolean {
  const q = question.trim().toLowerCase().replace(/\s+/g, ' ');
  if (/\bhow many\b|\bboth\b|\bin common\b/.test(q)) return true;
  if (/^(?:in )?(?:what|which) (?:kinds?|types?|sorts?) of\b/.test(q)) return true;
  if (/^(?:what|which|where|who) (?:has|have) \w+(?: and \w+)? (?!\w+ing\b)\w+/.test(q)) return true;
  // "What activities does…", "What LGBTQ+ events has…", "Which European countries has…": a plural noun within the first
  // two words, followed by an auxiliary (a verb in -s, "Which song motivates Melanie…", "What Jon thinks…", is no plural).
  const w = q.split(' ');
  const plural = (x: string | undefined): boolean => x !== undefined && /^[a-z]{3,}s$/.test(x) && !/(?:ss|us|is)$/.test(x) && !NOT_PLURAL.has(x);
  if (!/^(?:what|which)$/.test(w[0] === 'in' ? w[1] ?? '' : w[0] ?? '')) return false;
  const at = w[0] === 'in' ? 2 : 1;
  return [at, at + 1].some((i) => plural(w[i]) && AUXILIARIES.has(w[i + 1] ?? ''));
}

/** Auxiliaries after the plural noun of a list question ("What books **has** Melanie read?"). */
const AUXILIARIES = new Set('do does did has have had are were is was can could will would should'.split(' '));
