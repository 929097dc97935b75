import { MONTH_NAME } from '../memory/months.js';

/**
 * Days, months and feasts: "May", "June", "Friday", "Easter" are names too, but a text saying them means the date far
 * more often. The one list the name rules read: a one-word label that is one of them is rewritten in a memory only
 * where it is clearly the person (`labelIsAlsoWord`), and "Hi, it's Monday again" introduces no one (embedded rules).
 */
export const CALENDAR_WORDS: ReadonlySet<string> = new Set(
  [...'today tonight tomorrow monday tuesday wednesday thursday friday saturday sunday'.split(' '), ...MONTH_NAME.split('|'),
    'christmas', 'easter'],
);

/** Whether `word` (any case) is one of {@link CALENDAR_WORDS}. */
export function isCalendarWord(word: string): boolean {
  return CALENDAR_WORDS.has(word.toLowerCase());
}
