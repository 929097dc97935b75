/**
 * A tag said after a sentence ("i'll send you the contract on friday ... promise", "I'll pick you up at six, okay?"):
 * it vouches for or checks what was said, it is no part of it. A recogniser writes it into the same sentence, so a
 * commitment read to the sentence's end took it in ("Pat will send Rae the contract … an unnamed speaker promise");
 * the fact ends where its clause does (rules 39).
 */

/**
 * A tag after a break (an ellipsis, a comma, a semicolon or a dash): "promise", "I promise", "I swear", "okay", "alright",
 * "deal"; after no break only "I promise" / "I swear" ("I'll keep my promise" keeps its word).
 */
const TRAILING_TAG = new RegExp(String.raw`(?:\s*(?:\.{2,}|…|[,;]|\s[–—-])\s*(?:(?:I\s+)?(?:promise|swear)|ok(?:ay)?|alright|all\s+right|deal)`
  + String.raw`|\s+I\s+(?:promise|swear))\s*[.!?]*\s*$`, 'i');

/**
 * `sentence` without a tag said after it (`TRAILING_TAG`), ended with a full stop ("…, okay?" asked the tag, not the
 * sentence); unchanged when it has none or is only the tag.
 */
export function withoutTrailingTag(sentence: string): string {
  const m = TRAILING_TAG.exec(sentence);
  if (!m || m.index === 0) return sentence;
  return `${sentence.slice(0, m.index).trimEnd()}.`;
}
