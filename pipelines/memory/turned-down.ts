/**
 * A thing turned down (text6, issue #16 item 2): "No coffee for me, thanks" and "I'll pass on coffee" tell that the speaker
 * turned coffee down (the first left no memory, the second an open promise "Ana will pass on coffee"); "I want tea, not
 * coffee" and "I'll have not coffee but tea" tell of tea, with coffee turned down ("Ana wants tea" and "Ana turned down
 * coffee", not "Ana wants tea, not coffee"). A preference said so ("I prefer tea, not coffee") keeps its words
 * (rejected-alternative.ts), and a correction of another thing ("the meeting is on Tuesday, not Monday") is no choice.
 */

/** Words said around a refusal that are no part of the thing refused. */
const POLITE = String.raw`(?:[,\s]+(?:thanks|thank\s+you|thanks\s+though|please|this\s+time|tonight|today|for\s+now|though|I['’]m\s+(?:good|fine|ok|okay)))*`;
/** "No coffee for me, thanks", "no dessert for us tonight". */
const NO_FOR_ME = new RegExp(String.raw`^(?:(?:oh|um|uh|ah|no|nah|thanks|sorry),?\s+)*no\s+((?:[\w'’-]+\s+){0,3}?[\w'’-]+)\s+for\s+(me|us)\b${POLITE}\s*[.!]*$`, 'i');
/** "I'll pass on coffee", "I think I'll pass on the dessert, thanks". */
const PASS_ON = new RegExp(String.raw`^(?:(?:oh|um|uh|ah|no|nah|thanks|sorry),?\s+)*(?:I\s+think\s+)?(I|we)(?:['’]ll|\s+will|['’]d|\s+would|['’]m\s+going\s+to|\s+am\s+going\s+to)\s+(?:have\s+to\s+)?pass\s+on\s+((?:[\w'’-]+\s+){0,3}?[\w'’-]+)${POLITE}\s*[.!]*$`, 'i');

/** Verbs by which the speaker takes one thing over another ("I want…", "we'll have…", "I'd like…"). */
const CHOOSING = String.raw`(?:I|we)(?:\s+(?:want|need|chose|picked|ordered)|(?:['’]d|\s+would)\s+(?:like|rather\s+have)|(?:['’]ll|\s+will)\s+(?:have|take|get|order|go\s+(?:for|with))|(?:['’]m|['’]re|\s+am|\s+are)\s+(?:having|taking|getting|ordering|drinking|eating|going\s+(?:for|with)))`;
/** "I'll have not coffee but tea": the choice and what it turned down, each at most four words. */
const NOT_BUT = new RegExp(String.raw`^(.*\b${CHOOSING}\s+|)not\s+((?:[\w'’-]+\s+){0,3}?[\w'’-]+)\s*,?\s+but\s+(?!(?:I|we|you|he|she|they|it)\b)((?:[\w'’-]+\s+){0,3}?[\w'’-]+)(${POLITE})\s*([.!]*)$`, 'i');
/** A choice said with the thing turned down after it ("I want tea, not coffee"). */
const CHOSEN_NOT = new RegExp(String.raw`\b${CHOOSING}\s+[^,.;!?]+,\s*(?:and\s+|but\s+)?not\s+[^,.;!?]+`, 'i');
/** The thing turned down closing a fact's text: ", not coffee". */
const NOT_AT_END = /,\s*(?:and\s+|but\s+)?not\s+([^,.;!?]+?)\s*$/i;

/** What `sentence` turns down, said as "I / we turned down…", or null: "No coffee for me" → "I turned down coffee". */
export function refusal(sentence: string): string | null {
  const no = NO_FOR_ME.exec(sentence.trim());
  // "No problem for me", "no more for me": nothing named is turned down.
  if (no && !/^(?:thanks|problem|worries|way|idea|one|more|rush|hurry|pressure|change|difference|need)$/i.test(no[1]!)) return `${/^us$/i.test(no[2]!) ? 'We' : 'I'} turned down ${no[1]}`;
  const pass = PASS_ON.exec(sentence.trim());
  if (pass && !/^(?:it|that|this|them)$/i.test(pass[2]!)) return `${pass[1]} turned down ${pass[2]}`;
  return null;
}

/**
 * `sentence` with a choice said as "not Y but X" turned to "X, not Y" ("I'll have not coffee but tea" → "I'll have tea,
 * not coffee"; "Not coffee but tea, please" → "I'd like tea, not coffee"), so the thing chosen is read as the fact; else
 * itself. "I'm not tired but I'll stay home" is no choice (a clause after "but").
 */
export function chosenFirst(sentence: string): string {
  const m = NOT_BUT.exec(sentence.trim());
  if (!m) return sentence;
  const [, lead, refused, chosen, , stop] = m as unknown as [string, string, string, string, string, string];
  // "please", "thanks": no part of what is chosen.
  return `${lead === '' ? "I'd like " : lead}${chosen}, not ${refused}${stop}`;
}

/** True when `sentence` is a choice with the thing turned down after it ("I want tea, not coffee"). */
export function choiceWithRefusal(sentence: string): boolean {
  return CHOSEN_NOT.test(sentence);
}

/** A fact's text without the thing turned down that closes it, and that thing: "Ana wants tea, not coffee" → coffee. */
export function withoutRefused(content: string): { kept: string; refused: string } | null {
  const m = NOT_AT_END.exec(content);
  return m ? { kept: content.slice(0, m.index), refused: m[1]! } : null;
}
