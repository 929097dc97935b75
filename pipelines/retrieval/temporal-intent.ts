/**
 * Whether a question asks about what holds now or what held before: `current` ("Where does Lena live
 * now?", "Is Ben still at Acme?", "What does Ana currently drink?"), `past` ("Where did Lena live
 * before?", "Where did she use to work?", "her previous job", "last year"), or null (no cue: current
 * memories rank first, replaced ones follow, marked). `answerQuestion` reads it without the times the
 * question names: "last year" or "two months ago" is judged as of that time, not as a past cue.
 */
export type TemporalIntent = 'current' | 'past' | null;

const PAST = [
  /\bbefore\b/, /\bused\s+to\b/, /\buse\s+to\b/, /\bpreviously\b/, /\bprevious\b/, /\bformerly\b/, /\bformer\b/,
  /\bearlier\b/, /\boriginally\b/, /\bin\s+the\s+past\b/, /\bprior\b/,
  /\blast\s+(?:year|month|week|time|summer|winter|spring|autumn|fall)\b/, /\bno\s+longer\b/, /\banymore\b/, /\bany\s+more\b/,
  /\bago\b/, /\bback\s+then\b/, /\bat\s+first\b/,
];
const CURRENT = [
  /\bnow\b/, /\bcurrently\b/, /\bcurrent\b/, /\bstill\b/, /\bthese\s+days\b/, /\bat\s+the\s+moment\b/, /\bat\s+present\b/,
  /\bpresently\b/, /\bnowadays\b/, /\btoday\b/, /\blatest\b/, /\bright\s+now\b/,
];

/** The question's temporal intent; a past cue wins over a current one ("where did she live before she moved now?"). */
export function temporalIntent(question: string): TemporalIntent {
  const q = question.toLowerCase().replace(/[’]/g, "'");
  if (PAST.some((re) => re.test(q))) return 'past';
  if (CURRENT.some((re) => re.test(q))) return 'current';
  return null;
}
