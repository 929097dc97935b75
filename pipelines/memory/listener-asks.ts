/**
 * What a speaker asks of the one listening about memory itself (trial 9, issue #16 F6 and F9, a home robot): "please
 * remember that I am allergic to nuts" is the speaker's statement "I am allergic to nuts", not a request to remember,
 * and "robot, forget what I just said" withdraws the speaker's last statement, as "scratch that" does (rules 47), and
 * is never a fact of its own.
 */

const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Words that may open either request: "oh, please remember…", "ok, never mind what I said". */
const LEAD = String.raw`(?:(?:oh|ah|and|also|so|ok|okay|hey|sorry|wait|actually|no),?\s+)*`;
/** A subject that opens the clause to be kept: "remember I'm vegan", "don't forget my son is coming". */
const SUBJECT = String.raw`(?:I|I['’]m|I['’]ve|I['’]ll|I['’]d|we|we['’]re|we['’]ve|we['’]ll|my|our|he|he['’]s|she|she['’]s|they|they['’]re|his|her|their)\b`;
/** A verb the clause must hold to be a statement ("that I am…", "that Ben likes…"); "remember that trip?" holds none. */
const FINITE = /\b(?:am|is|are|was|were|have|has|had|will|would|can|could|must|should|do|does|did|need|needs|[a-z]+ed)\b|['’](?:m|s|re|ll|ve|d)\b|n['’]t\b|^\S+\s+[a-z]+s\b/i;

/** "Robot forget what I just said", spoken with no comma: the name called, given as `called`, at the start. */
function calledOpening(called: readonly string[]): string {
  const names = called.map((n) => n.trim()).filter((n) => n.length > 1).map(esc);
  return names.length > 0 ? String.raw`(?:(?:${names.join('|')})\s*[,:]?\s+)?` : '';
}

/**
 * The statement a request to remember asks to keep: "Please remember that I am allergic to nuts", "don't forget that
 * I'm vegan", "remember, I start on Monday": "I am allergic to nuts"…; else null. The clause must be a statement (a
 * finite verb): "remember to buy milk", "don't forget the milk" (requests), "remember that trip?" and "do you remember
 * that…" (questions) are no statement asked to be kept. `called`: names the listener may be called by, unpunctuated.
 */
export function rememberedStatement(sentence: string, called: readonly string[] = []): string | null {
  const ask = new RegExp(String.raw`^\s*${LEAD}${calledOpening(called)}(?:please\s+)?(?:remember|(?:do\s+not|don['’]t|never)\s+forget|keep\s+in\s+mind|bear\s+in\s+mind)`
    + String.raw`(?:,?\s+please)?(?:\s+that\s+|\s*[,:]\s*|\s+(?=${SUBJECT}))(\S.*)$`, 'i');
  const m = ask.exec(sentence);
  const clause = m?.[1]?.trim();
  if (!clause || /\?\s*$/.test(clause) || !FINITE.test(clause)) return null;
  return clause.charAt(0).toUpperCase() + clause.slice(1);
}

/** What a withdrawal names: what the speaker just said. "Forget that" alone is rules 47's (`RETRACT_ALL`). */
const WITHDRAWN = String.raw`(?:what\s+I\s+(?:just\s+)?(?:said|told\s+you)|everything\s+I\s+(?:just\s+)?said|(?:that\s+)?I\s+(?:just\s+|ever\s+)?said\s+(?:that|it|anything)|that|it|the\s+last\s+thing(?:\s+I\s+said)?)`;

/**
 * True when `sentence` is, whole, a withdrawal of what the speaker just said, asked of the listener: "forget what I just
 * said", "forget I said that", "never mind what I said", "ignore that", "disregard that", with a name called or
 * "please" ("robot forget what i just said", "Please ignore that."). Not "I forget what she said" (a statement) nor
 * "don't forget the milk" (a request). `called`: names the listener may be called by, unpunctuated.
 */
export function isWithdrawal(sentence: string, called: readonly string[] = []): boolean {
  const name = called.map((n) => n.trim()).filter((n) => n.length > 1).map(esc);
  const closing = name.length > 0 ? String.raw`(?:,?\s+(?:${name.join('|')}))?` : '';
  const whole = new RegExp(String.raw`^\s*${LEAD}${calledOpening(called)}(?:please\s+)?(?:just\s+)?`
    + String.raw`(?:(?:forget|ignore|disregard|scratch|scrap|cancel)\s+${WITHDRAWN}|never\s*mind(?:\s+${WITHDRAWN})?)`
    + String.raw`(?:,?\s+please)?${closing}\s*[.!]*\s*$`, 'i');
  return whole.test(sentence);
}
