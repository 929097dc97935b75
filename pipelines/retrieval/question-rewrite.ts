import { nameWords } from '../../graph/name-words.js';
import type { Participant } from '../../graph/types.js';

/**
 * Words that shape a question but carry no topic: wh-words, auxiliaries and modals, pronouns,
 * determiners, prepositions and conjunctions.
 */
const FUNCTION_WORDS = new Set((
  'a an the and or but nor so yet if then than as at by for from in into of off on onto out over to up with ' +
  'about above after again against before below between during through under until upon via ' +
  'what when where which who whom whose why how whatever whenever ' +
  'am is are was were be been being do does did doing done has have had having ' +
  'can could shall should will would may might must ' +
  'i me my mine myself you your yours yourself he him his himself she her hers herself it its itself ' +
  'we us our ours ourselves they them their theirs themselves ' +
  'this that these those there here some any each every all both either neither ' +
  'not no nor also ever just very too s t ll d re ve'
).split(' '));

/**
 * Words that frame a question rather than name its topic ("How long…", "What kind of…", "Did X
 * go to…", "Would X likely…", "Did **anyone** cancel this week?"): dropped from the query unless nothing else is left.
 * "anyone" / "anybody" ask who, as "who" does (trial12 F11: kept, the word no memory holds halved every item's match);
 * "someone" and "something" stay words (LoCoMo asks by them: "When did someone write Joanna a letter?").
 */
const QUESTION_FRAME = new Set((
  'kind type sort way long many much often time times likely probably ' +
  'go goes going went gone get gets got getting make makes made take takes took thing things ' +
  'tell told say said think thought know knew anyone anybody'
).split(' '));

/**
 * Adverb particles among the function words: in a question with no other content word they are its topic ("When is
 * Chidi **out**?", "Is the deal **off**?", "When is the trial **over**?"); elsewhere they stay function words. ("in" and
 * "on" are stop words of every lexical index, so they could not be searched.)
 */
const PARTICLES = new Set('out off up over'.split(' '));

/**
 * Temporal cues of a question ("Where is Ana **now**?", "Is Ben **still** at Acme?", "…**at the moment**?"): they ask
 * when (`temporalIntent`, `validityAsked` read them from the question itself), never what, so they are no query words;
 * kept as words, "now" matched any turn that says it ("My back is fine now") above the subject's own memories.
 */
const TEMPORAL_CUES = new Set('now currently current still anymore nowadays presently'.split(' '));
/** Temporal cues of several words, taken out of the question before its words are read (their words may be content elsewhere). */
const TEMPORAL_PHRASES = /\b(?:at\s+the\s+moment|at\s+present|these\s+days|any\s+more|no\s+longer|right\s+now|for\s+now|as\s+of\s+now)\b/gi;

/** Options of `rewriteQuestion`. */
export interface RewriteOptions {
  /** Keep temporal cues ("now", "still", "at the moment") as query words (as before); default false. */
  keepTemporalCues?: boolean;
  /**
   * The participant asking, when known: a first-person word names them ("what is **my** insurance?" is about the asker).
   * "I", "my", "mine" and "myself" make the asker a subject wherever they stand; "me" names the asker as a name in its
   * place would ("What did Ana tell **me**?": an addressee).
   */
  askerId?: string | null;
}

/** First-person words that make the asker the question's subject ("What is **my** insurance?", "When did **I** book it?"). */
const FIRST_PERSON_SUBJECT = new Set('i my mine myself'.split(' '));
/** Words before which "mine" is the noun ("visit **the mine**"), not the pronoun. */
const MINE_NOUN_AFTER = new Set('the a an this that these those our your his her their its my'.split(' '));
/** Words before which "I" is a numeral ("Type I", "World War I", "Part I"), not the pronoun. */
const I_NUMERAL_AFTER = new Set('type war part phase chapter stage class grade level act book volume section'.split(' '));

/** Whether `words[i]` (one of {@link FIRST_PERSON_SUBJECT} or "me") names the asker: not "the mine", not "Type I". */
function namesAsker(words: readonly string[], i: number): boolean {
  const w = words[i]!;
  if (w === 'mine') return !MINE_NOUN_AFTER.has(words[i - 1] ?? '');
  if (w === 'i') return !I_NUMERAL_AFTER.has(words[i - 1] ?? '');
  return w === 'me' || FIRST_PERSON_SUBJECT.has(w);
}

/** A question split into what it is about and whom it names. */
export interface RewrittenQuestion {
  /** The question as asked. */
  question: string;
  /** Content words in order of first appearance, lower-case, names removed. */
  terms: string[];
  /** `terms` joined by spaces: the query sent to keyword and vector search. */
  text: string;
  /** Participant ids named (by name or alias) in the question. */
  participantIds: string[];
  /** Lower-case name words found in the question. */
  nameWords: string[];
  /**
   * Participants named as the question's subject ("What did **Ana** promise Ben?", "Did **Lena**
   * move?"): a name that opens the question or follows an auxiliary, or joins such a name with
   * "and"/"or". A name in object position ("…promise **Ben**") is not a subject.
   */
  subjectIds: string[];
  /**
   * Participants named as whom something was said or given to ("What did Ana promise **Ben**?", "Who
   * told **Ben** …?", "…said to **Ana** and **Caroline**"): a name, not possessive and not a subject,
   * after a verb of telling or giving, or after such a verb or one of saying followed by "to" (not
   * "important to", "according to"), or joined to such a name with "and"/"or".
   */
  addresseeIds: string[];
  /**
   * The asker (`RewriteOptions.askerId`) when a first-person word made them a subject ("What is **my** insurance?") and
   * no name did: also in `subjectIds`, but `boostedSubjects` reads the names' roles without them.
   */
  askerSubjectId?: string | null;
}

/** Verbs after which a (non-possessive) name is the one spoken or given to. */
const ADDRESS_VERBS = new Set((
  'tell tells told telling ask asks asked asking promise promises promised remind reminds reminded warn warns warned ' +
  'thank thanks thanked invite invites invited give gives gave given show shows showed shown send sends sent ' +
  'recommend recommends recommended advise advises advised assure assured update updated offer offers offered'
).split(' '));

/** Verbs of saying that take their addressee after "to" ("say to Ben", "make an offer to Ben"). */
const SAY_TO_VERBS = new Set([...ADDRESS_VERBS, ...(
  'say says said talk talks talked speak speaks spoke write writes wrote mention mentions mentioned explain explains ' +
  'explained make makes made suggest suggests suggested describe describes described introduce introduced complain complained'
).split(' ')]);

/** Auxiliaries and modals after which a name is the subject of the question. */
const AUXILIARIES = new Set('am is are was were do does did has have had can could shall should will would may might must'.split(' '));

/** Lower-case word tokens, a trailing possessive removed. */
export function tokens(text: string): string[] {
  return nameWords(text);
}

/** True for a word that carries content (not a function word, longer than one character). */
export function isContentWord(w: string): boolean {
  return w.length > 1 && !FUNCTION_WORDS.has(w);
}

/**
 * Rewrite a question for retrieval: drop wh-words, auxiliaries and other function words, and take
 * out participant names (a name rarely appears in its owner's own turns, so it is used as a
 * speaker filter instead of a keyword). Multi-word names match word by word. Only participants holding
 * a word of the question matter, so `participants` may be just those (`GraphStore.findParticipantsByWords`
 * with the question's `tokens`), in the order the store lists them: the result is the same.
 */
export function rewriteQuestion(question: string, participants: readonly Participant[], options: RewriteOptions = {}): RewrittenQuestion {
  const keepCues = options.keepTemporalCues ?? false;
  // A phrase is replaced by a placeholder word of its own, so a name keeps its place (a name after "at the moment" is no subject).
  const read = keepCues ? question : question.replace(TEMPORAL_PHRASES, ' when ');
  const words = tokens(read);
  const byWord = new Map<string, Set<string>>();
  for (const p of participants) {
    for (const name of [p.name, ...p.aliases]) {
      if (!name) continue;
      for (const w of tokens(name)) {
        if (!isContentWord(w)) continue;
        const ids = byWord.get(w) ?? new Set<string>();
        ids.add(p.id);
        byWord.set(w, ids);
      }
    }
  }
  const named = resolveNameRuns(words, byWord);
  const askerId = options.askerId ?? null;
  const participantIds = new Set<string>();
  const subjectIds = new Set<string>();
  const nameSubjectIds = new Set<string>();
  const addresseeIds = new Set<string>();
  const nameWords = new Set<string>();
  const terms: string[] = [];
  const particles: string[] = [];
  const possessive = (read.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? []).map((w) => /['’]s$/.test(w));
  let subjectEnds = -1;
  let addresseeEnds = -1;
  words.forEach((w, i) => {
    const me = askerId !== null && namesAsker(words, i) ? new Set([askerId]) : undefined;
    const ids = named[i] ?? me;
    if (ids) {
      if (!me) nameWords.add(w);
      for (const id of ids) participantIds.add(id);
      const before = words[i - 1];
      const subject = FIRST_PERSON_SUBJECT.has(w) || i === 0 || (before !== undefined && AUXILIARIES.has(before)) || subjectEnds === i - 1 ||
        (subjectEnds === i - 2 && (before === 'and' || before === 'or'));
      if (subject) {
        for (const id of ids) subjectIds.add(id);
        if (!me) for (const id of ids) nameSubjectIds.add(id);
        subjectEnds = i;
      } else if (!possessive[i] && ((before !== undefined && ADDRESS_VERBS.has(before)) ||
        (before === 'to' && SAY_TO_VERBS.has(words[i - 2] ?? '')) || addresseeEnds === i - 1 ||
        (addresseeEnds === i - 2 && (before === 'and' || before === 'or')))) {
        for (const id of ids) addresseeIds.add(id);
        addresseeEnds = i;
      }
    } else if (isContentWord(w) && !terms.includes(w) && (keepCues || !TEMPORAL_CUES.has(w))) terms.push(w);
    else if (PARTICLES.has(w) && !particles.includes(w)) particles.push(w);
  });
  // Frame words stay only when nothing else is left, and then a particle rather than them ("When did Ben go out?" → out).
  const focused = terms.filter((w) => !QUESTION_FRAME.has(w));
  if (focused.length > 0) terms.splice(0, terms.length, ...focused);
  else if (particles.length > 0) terms.splice(0, terms.length, ...particles);
  const askerSubjectId = askerId !== null && subjectIds.has(askerId) && !nameSubjectIds.has(askerId) ? askerId : null;
  return {
    question, terms, text: terms.join(' '), participantIds: [...participantIds], nameWords: [...nameWords], subjectIds: [...subjectIds],
    addresseeIds: [...addresseeIds], askerSubjectId,
  };
}

/**
 * The participants each word names (undefined: none), a full name narrowing the words it shares: in a run of name
 * words, a participant whose matched words another participant's in the same run strictly include is not named there
 * ("Sam Lee": "sam" names Sam Lee, not Sam Patel; "Sam" alone names both; "Sam Lee, Maria" names Sam Lee and Maria).
 */
function resolveNameRuns(words: readonly string[], byWord: ReadonlyMap<string, ReadonlySet<string>>): (Set<string> | undefined)[] {
  const out: (Set<string> | undefined)[] = words.map((w) => (byWord.has(w) ? new Set(byWord.get(w)) : undefined));
  for (let start = 0; start < words.length; start++) {
    if (!out[start]) continue;
    let end = start;
    while (out[end + 1]) end++;
    const held = new Map<string, Set<string>>();
    for (let i = start; i <= end; i++) {
      for (const id of out[i]!) held.set(id, (held.get(id) ?? new Set<string>()).add(words[i]!));
    }
    const narrower = (a: Set<string>, b: Set<string>): boolean => a.size < b.size && [...a].every((w) => b.has(w));
    const dropped = new Set([...held].filter(([, mine]) => [...held.values()].some((other) => narrower(mine, other))).map(([id]) => id));
    for (let i = start; i <= end; i++) for (const id of dropped) out[i]!.delete(id);
    start = end;
  }
  return out;
}

/**
 * Whom the named-speaker boost lifts: the question's subjects (`subjectIds`). A question whose names the subject
 * rule does not reach ("What inspired **Caroline's** painting?", "…the challenges **John** faced") is still about
 * the people it names: with `fallback` (default), and none of them a subject, every named participant who is not
 * an addressee is boosted, except in a question asking for a person (`who`: "Who said Ben would come?" asks for
 * someone else). `fallback` false: the subjects only (none, no boost). An asker who is a subject by a first-person
 * word only (`askerSubjectId`) is boosted besides, and the names' roles are read without them ("Do I have **Maria's**
 * insurance?" boosts Maria and the asker).
 */
export function boostedSubjects(
  q: Pick<RewrittenQuestion, 'participantIds' | 'subjectIds' | 'addresseeIds' | 'askerSubjectId'>, who: boolean, fallback = true,
): string[] {
  const self = q.askerSubjectId ?? null;
  const subjects = q.subjectIds.filter((s) => s !== self);
  const named = subjects.length > 0 || !fallback || who ? subjects : q.participantIds.filter((p) => p !== self && !q.addresseeIds.includes(p));
  return self === null ? named : [...named, self];
}
