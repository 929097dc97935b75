/**
 * A booking a receptionist or an agent made for the one they speak to (rules 90, newcomer trial): "I have booked you in
 * with Dr. Patel on Tuesday at 10am", "I booked you a table for two on Friday", "you're all set for Tuesday at 10am" are
 * the caller's bookings, told as "you're booked…" so that the fact reads "Ana is booked in with Dr. Patel…", not as the
 * receptionist's act ("Jo has booked Ana in…", and a day read as past).
 */

/** The speaker's booking of the listener: "I booked you", "I've (just) booked you", "I have now booked you", "I've got you booked". */
const BOOKED_YOU = /\bI(?:['’]ve|\s+have)?\s+(?:(?:just|now|already|gone ahead and)\s+)?(?:booked\s+you|got\s+you\s+booked)\b(\s+in\b)?(?:\s+(?=(?:a|an|the|for|on|with|at)\b))?/i;
/** "You're all set for Tuesday at 10am": the booking said done. */
const ALL_SET = /\byou(?:['’]re|\s+are)\s+all\s+set\s+for\b/i;

/** `sentence` with a booking made for the listener told as the listener's ("you're booked in…"); as said otherwise. */
export function withListenerBooked(sentence: string): string {
  const booked = sentence.replace(BOOKED_YOU, (_m, inWord: string | undefined, offset: number, all: string) => {
    const rest = all.slice(offset + _m.length);
    // "booked you a table": the thing booked is what the listener is booked for.
    const forThing = !inWord && /^(?:a|an|the)\b/i.test(rest);
    return inWord ? "you're booked in " : forThing ? "you're booked for " : "you're booked ";
  });
  return booked.replace(ALL_SET, "you're booked in for").replace(/\s{2,}/g, ' ');
}
