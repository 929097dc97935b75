/**
 * An event told as off in the words speech recognition writes, read as the rules read it written out (rules 115): "the
 * concerts off on friday" (the apostrophe of "concert's" dropped) is "the concert is off on friday", and "I called the
 * concert off today" (the particle after its object) is "I called off the concert today".
 */
import { eventNoun } from './changes.js';
import { WEEKDAY_NAME } from './months.js';

/**
 * A clause's subject, an event's noun with an "s" glued on, then "off" (ASR's "concert's off", "dinner's off"), only where
 * "off" ends what is said of it: before the end, a stop, a day or a time ("on friday", "tonight", "this week"), "now" or
 * "again"; not before a word "off" would take ("the trains off the line", "the meetings off-site", "the concerts off
 * limits", "the shows off broadway"; rules 115 after review).
 */
const GLUED_OFF = new RegExp(String.raw`(^|[,.;:!?]\s*|\b(?:and|but|so|oh|well|sadly|actually|unfortunately|apparently)\s+)((?:the|our|my|your)\s+)?([a-z]+)s\s+off`
  + String.raw`(?=\s*(?:$|[,.;:!?])|\s+(?:(?:on|for|until|till)\s+)?(?:(?:this|next)\s+)?(?:${WEEKDAY_NAME}|today|tonight|tomorrow|week|weekend|now|again)\b)`, 'gi');

/**
 * "Call" with its object before "off": "called the concert off", "call Tom's party off", "calling our trip to Rome off",
 * up to four words of object, opened by a determiner or a possessive (not "it": "call it off" names no thing to read), none a
 * joining word ("I called the restaurant and dinner's off tonight" stays; rules 115 after review).
 */
const CALL_THING_OFF = /\b(call(?:s|ed|ing)?)\s+((?:the|my|our|your|his|her|their|this|that|[\p{L}-]+['’]s)\s+(?:(?!(?:and|to|but|so|or|because|said|says|say|then)\b)[\p{L}'’-]+\s+){0,3}?)off\b(?!\s+(?:to|the|of|at|from|into|with|in|my|your|our|his|her|their|its|a|an)\b)/giu;

/**
 * `text` with an event told off as ASR writes it read as written out: "the concerts off on friday" as "the concert is off
 * on friday", "dinners off tonight" as "dinner is off tonight" (the plural "the concerts were great" and a word that names
 * no event, "the lights off", stay), and "called the concert off" as "called off the concert".
 */
export function withToldOff(text: string): string {
  const glued = text.replace(GLUED_OFF, (all, before: string, det: string | undefined, stem: string) =>
    eventNoun(stem.toLowerCase()) && !/s$/i.test(stem) ? `${before}${det ?? ''}${stem} is off` : all);
  return glued.replace(CALL_THING_OFF, (_all, verb: string, thing: string) => `${verb} off ${thing.trimEnd()}`);
}
