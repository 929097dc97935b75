/**
 * What kind of thing a noun names, by WordNet (rules 35): a job-holder ("a lifeguard", not "a mess" or "a sucker") and a
 * likeable kind ("jazz", "decaf", "thrillers", not "the plan" or "Tuesday"). Each reads the noun's most common sense
 * (`WordNet.nounKinds`); a word WordNet does not list falls back to what the caller knew before.
 */
import { defaultWordNet, type WordNet } from '../retrieval/wordnet.js';
import { DONE, GONE, PLAYED } from './standing-slots.js';

/** What the kinds ask WordNet. */
export type NounKinds = Pick<WordNet, 'nounKinds'> & Partial<Pick<WordNet, 'baseForms'>>;

/**
 * Hypernyms (or the word itself) that make a person a job-holder: someone who works, by trade or profession, or who
 * guards, leads, writes or broadcasts ("firefighter" → defender, "tour guide" → leader, "dj" → broadcaster).
 */
const JOB_KINDS: ReadonlySet<string> = new Set(['worker', 'professional', 'employee', 'skilled worker', 'businessperson',
  'capitalist', 'operator', 'serviceman', 'creator', 'performer', 'expert', 'official', 'scientist', 'keeper', 'writer',
  'engineer', 'military officer', 'enlisted person', 'educator', 'health professional', 'defender', 'leader', 'broadcaster',
  'mediator', 'linguist']);
/** The hypernyms of one who works for a living, for a job read from a word's less common sense ("model" → assistant → worker). */
const WORKS: ReadonlySet<string> = new Set(['worker', 'professional', 'employee', 'skilled worker']);
/**
 * Commonest senses that make a word said of a person a figure of speech, or a person of no trade ("I'm a man"); an act
 * too ("I'm a help": helpful, no trade; rules 37).
 */
const FIGURATIVE = /^noun\.(?:person|animal|object|plant|body|substance|act)$/;
/**
 * Job-holders WordNet files elsewhere ("engineer", "student" directly under person; "cleaner", "builder" with a
 * commoner sense that is a thing; "elf", a seasonal job, an imaginary being).
 */
const JOB_WORDS: ReadonlySet<string> = new Set(['engineer', 'student', 'apprentice', 'courier', 'cleaner', 'builder', 'elf']);
/** A word for a person by its ending ("postwoman", "chairperson"): the fallback for a word WordNet does not list. */
const PERSON_NOUN = /[a-z](?:wo)?(?:man|person)$/;

/**
 * The senses of a phrase as one word when WordNet lists it ("ski instructor", "red wine", "hip hop" as "hip-hop"), else
 * of its last word.
 */
function sensesOf(phrase: string, words: NounKinds): ReturnType<WordNet['nounKinds']> {
  const whole = words.nounKinds(phrase);
  if (whole.length > 0 || !phrase.includes(' ')) return whole;
  const hyphened = words.nounKinds(phrase.replace(/\s+/g, '-'));
  return hyphened.length > 0 ? hyphened : words.nounKinds(phrase.split(' ').pop()!);
}

/**
 * True when a noun phrase said after "I'm a …" names a job-holder: its head's most common sense is a person by
 * occupation (a hypernym in `JOB_KINDS`: "lifeguard" → attendant → worker); "a mess", "a sucker", "a night owl", "a
 * grandmother" are none. A word WordNet does not list ("barista") is one when the tagger reads a noun or it ends as a
 * word for a person does ("postwoman"). `bare`: the phrase is all that follows "I'm a" ("I'm a model"), so a one-word
 * phrase whose commonest sense is no person is read by any job-holder sense it has.
 */
export function holdsAJob(phrase: string, isNounPhrase: (phrase: string) => boolean, words: NounKinds = defaultWordNet(), bare = false): boolean {
  const p = phrase.toLowerCase().trim();
  // "a terrible cook", "a worse driver", "a pretty bad singer": how well one does a thing, no trade (rules 41).
  if (judgesSkill(p)) return false;
  const senses = sensesOf(p, words);
  if (senses.length === 0) return isNounPhrase(phrase) || PERSON_NOUN.test(p);
  const head = p.split(' ').pop()!;
  const job = (s: { lexFile: string; ancestors: string[] }): boolean => s.lexFile === 'noun.person' && [head, ...s.ancestors].some((a) => JOB_KINDS.has(a));
  if (JOB_WORDS.has(head) || senses.some(job)) return true;
  // "I'm a model": a bare word whose commonest sense is no person at all (an idea) is read by its job-holder sense
  // (rules 36); "I'm a man", whose commonest sense is a person of no trade, keeps it.
  // Only a sense that works for a living counts there: "I'm a star" (a performer, an expert) is praise, no job.
  const works = (s: { lexFile: string; ancestors: string[] }): boolean => s.lexFile === 'noun.person' && s.ancestors.some((a) => WORKS.has(a));
  // A person called by a living or natural thing's name is a figure of speech ("I'm a rock", "a rat", "a snake").
  return bare && !p.includes(' ') && !senses.some((s) => FIGURATIVE.test(s.lexFile)) && words.nounKinds(p, true).some(works);
}

/**
 * Words before a person noun that judge how well one does the thing ("a terrible cook", "a worse driver", "the best
 * dancer", "a slow reader"), with the degree words that may come before them ("a pretty bad singer", "an even worse
 * baker"). "A senior nurse", "a part-time photographer", "a trainee chef" say which job, and judge nothing; nor does
 * a word of the list before a job that is no skill noun ("a fast food worker", "a natural gas engineer", "a patient
 * transport driver", "a patient advocate"; rules 41b): the judged noun is one of things anyone does, and ends the phrase.
 */
const SKILL_JUDGED = /^(?:(?:pretty|really|very|quite|rather|fairly|so|such|even|much|far|truly|absolutely|totally|a\s+bit|kind\s+of|sort\s+of)\s+)*(?:good|bad|great|terrible|awful|horrible|dreadful|lousy|rubbish|crap|shocking|hopeless|useless|decent|excellent|amazing|brilliant|fantastic|poor|okay|ok|mediocre|average|better|worse|best|worst|slow|fast|quick|careful|reckless|nervous|natural|born|competent|incompetent|clumsy|messy|impatient|patient|confident|shy)\s+(?:cook|driver|singer|dancer|learner|listener|reader|writer|speller|speaker|talker|swimmer|runner|player|baker|eater|sleeper|cyclist|skier|loser|winner|liar|parker|navigator|parent|judge)s?$/;

/** True when a phrase after "I'm a" judges how well one does a thing ("terrible cook", "worse driver"): no job (rules 41). */
export function judgesSkill(phrase: string): boolean {
  return SKILL_JUDGED.test(phrase.toLowerCase().trim());
}

/** Hypernyms of a likeable kind: a drink or a food, music, a book or film kind, a sport, a game, a pastime. */
const LIKEABLE_KINDS: ReadonlySet<string> = new Set(['beverage', 'food', 'music', 'music genre', 'literary composition',
  'fiction', 'writing style', 'drama', 'movie', 'show', 'broadcast', 'sport', 'game', 'diversion', 'exercise', 'dance',
  'art', 'cuisine', 'dish']);
/** Head nouns that name a likeable kind outright ("Italian food"; WordNet files "food" as a substance, not a food). */
const KIND_HEADS: ReadonlySet<string> = new Set(['food', 'cuisine', 'music', 'cooking']);
/**
 * How a thing is said to be liked: drunk or eaten (`consumed`), liked outright ("I love", "I'm into": `liked`), or
 * done ("I'm listening to", "reading", "watching": `done`), which says what one does, not what one likes.
 */
export type LikedBy = 'consumed' | 'liked' | 'done';
/** Meals are eaten, not liked ("I'm eating lunch at my desk"). */
const MEAL = 'meal';
/** Sports and exercise the standing slots know ("yoga", "tennis"), whatever WordNet's commonest sense of them. */
const SPORT = new RegExp(String.raw`^(?:${PLAYED}|${GONE}|${DONE})$`, 'i');
/** Words in a clause that say a named thing is a show, a book or music ("the Max show", "the new Dune book"). */
const NAMED_KIND = /\b(?:show|series|book|books|novel|novels|album|albums|band|podcast|film|films|movie|movies|music|songs|game|games|sitcom|drama)\b/i;
/** Determiners and possessives before the thing. */
const DETERMINER = /^(?:(?:my|your|his|her|our|their|the|a|an|some|this|that|these|those|lots\s+of|a\s+lot\s+of)\s+)+/i;
/** The head of a thing ends before a preposition ("lunch at my desk", "week three of the course"). */
const AFTER_HEAD = /\s+(?:at|in|on|of|from|with|about|for|to|by|during|after|before|while|since)\b.*$/i;

/**
 * True when a thing said to be liked, drunk, read or watched is of a likeable kind (rules 35): its head noun's most
 * common sense is a drink or food (not a meal), music, a book or film kind, a sport, a game or a pastime ("jazz",
 * "decaf", "thrillers", "salsa", "chess"), a sport the standing slots know, or an activity said by its verb ("baking").
 * A capitalised thing is one when `clause` says it is a show, a book or music, or WordNet lists it as a likeable kind
 * ("Italian food"); a name it does not list ("Max") is none. A lower-case word WordNet
 * does not list ("kombucha") is one unless it is only done (`said` 'done': "listening to a podcast"); "the plan",
 * "Tuesday", "the contract", "my weight" are none. With a drink or food verb (`said` 'consumed' or true) a plant counts
 * too ("rooibos"). A head noun that is a kind word ("Italian food", "Thai cuisine") is one.
 */
export function likeableThing(thing: string, clause: string, said: boolean | LikedBy = 'liked', words: NounKinds = defaultWordNet()): boolean {
  const by: LikedBy = said === true ? 'consumed' : said === false ? 'liked' : said;
  const consumed = by === 'consumed';
  const phrase = thing.trim().replace(DETERMINER, '').replace(AFTER_HEAD, '').trim();
  // "reading up on taxes", "watching out for…": a particle, no thing (rules 37).
  if (phrase === '' || /^(?:for|to|at|in|on|with|about|up|out)\b/i.test(thing.trim())) return false;
  // A capitalised thing is likeable when the clause says it is a show, a book or music, or when WordNet knows it
  // as a likeable kind ("Italian food", "Thai curry"); a name it does not list ("Max") is none.
  const named = /[A-Z]/.test(phrase.charAt(0));
  if (named && NAMED_KIND.test(clause)) return true;
  const p = phrase.toLowerCase();
  if (SPORT.test(p)) return true;
  const head = p.split(' ').pop()!;
  // "Italian food", "Thai cuisine", "Korean music": a kind word as the head, whatever comes before it (rules 36).
  if (KIND_HEADS.has(head)) return true;
  // An activity said by its verb ("baking", "knitting"): a gerund of a verb WordNet lists, whatever its noun senses.
  if (/ing$/.test(head) && (words.baseForms?.(head, 'verb').length ?? 0) > 0) return true;
  const senses = sensesOf(p, words);
  // A word WordNet does not list has no kind of its own: a liking or drink / food verb gives it one ("I'm into kombucha",
  // "drinking kombucha"); an activity verb on one thing does not ("listening to a podcast about taxes" is no taste; the
  // caller passes a kind said bare, "listening to synthwave", as liked; rules 36).
  if (senses.length === 0) return !named && by !== 'done' && /^[a-z][a-z-]*$/.test(head);
  return senses.some((s) => !s.ancestors.includes(MEAL)
    && (s.lexFile === 'noun.food' || (consumed && s.lexFile === 'noun.plant') || s.ancestors.some((a) => LIKEABLE_KINDS.has(a))));
}
