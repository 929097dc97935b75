/**
 * Scoring of one sentence's facts for bench/precise-negatives.ts: the false memories a line forbids (`not`) and, for a
 * line that should leave a memory (`expect`, bench/data/precise-negatives-3.jsonl), whether it was missed or worded
 * wrong. Kept apart from the bench so the rules of what counts read in one place.
 */
import type { ExtractedFact } from '../../pipelines/memory/extractor.js';
import { thingSlotKey } from '../../pipelines/memory/thing-keys.js';

/**
 * Kinds of false memory: `job` (an `occupation` or `works_at` slot), `preference` (a preference fact or a
 * `preference:*`, `favourite:*`, `sport:*` slot), `end` (an end of its own, `validUntil`), `home` (a `lives_in` or
 * `staying_in` slot), `plan` (a plan or commitment fact), `outcome` (a fact that settles an earlier one) and `any` (any
 * fact at all: a question, a filler, a sign-off).
 */
export type Wrong = 'job' | 'preference' | 'end' | 'home' | 'plan' | 'outcome' | 'any';

/**
 * One memory a sentence should leave: the fact's shape (`slot`, exact or, ending in ':', a prefix; `kind`, where
 * `preference` also takes a preference slot; `settles`) and what it must say: every entry of `words` (each a regular
 * expression, alternatives with `|`) found as whole words in its text, an end of its own when `until`, and, when `ends`, an
 * ending of what it names (`endsNamed`: "I don't work at Google anymore", "I don't smoke now", "i left tesco";
 * bench/data/precise-negatives-4.jsonl, -5, -6). Without `ends`, a withdrawal of a value is no memory that it holds. `kind` takes
 * alternatives with `|` ("commitment|plan").
 */
export interface Expected {
  slot?: string; kind?: string; settles?: string; words: string[]; until?: boolean; ends?: boolean;
}

/** What one sentence's facts came to: `missed` (no fact of an expected shape), `wrong` (shape there, text not). */
export interface Verdict { falseMemory: string[]; missed: string[]; wrong: string[] }

/** The kinds of false memory among `facts`. */
export function wrongIn(facts: readonly ExtractedFact[]): Set<Wrong> {
  const out = new Set<Wrong>();
  for (const f of facts) {
    out.add('any');
    if (f.slot === 'occupation' || f.slot === 'works_at') out.add('job');
    if (isPreference(f)) out.add('preference');
    if (f.validUntil) out.add('end');
    if (f.slot === 'lives_in' || f.slot === 'staying_in') out.add('home');
    if (f.kind === 'plan' || f.kind === 'commitment') out.add('plan');
    if (f.settles) out.add('outcome');
  }
  return out;
}

function isPreference(f: ExtractedFact): boolean {
  return f.kind === 'preference' || /^(?:preference|favourite|sport):/.test(f.slot ?? '');
}

/** Whether `f` has the shape `e` asks for. */
function shaped(f: ExtractedFact, e: Expected): boolean {
  if (e.slot && !(e.slot.endsWith(':') ? (f.slot ?? '').startsWith(e.slot) : f.slot === e.slot)) return false;
  if (e.kind && !e.kind.split('|').some((k) => (k === 'preference' ? isPreference(f) : f.kind === k))) return false;
  // An ending is met only by a fact that ends what the line names (`endsNamed`), and a memory held only by one that
  // holds it: "i'm not a nurse now, i'm a midwife" withdrawing the midwife does not say she is one (rules 42).
  if (e.ends ? !endsNamed(f, e) : withdrawsValue(f)) return false;
  return !e.settles || f.settles === e.settles;
}

/** How a liking is held: a value that names no thing. */
const POLARITY = /^(?:like|love|dislike|prefer)$/;

/** A withdrawal of one named value ("I'm not a nurse now": occupation, "nurse"): no memory that it holds. */
function withdrawsValue(f: ExtractedFact): boolean {
  return f.retraction && f.slot !== null && f.value !== null;
}

/**
 * Whether `f` ends what `e` names (rules 42: any withdrawal met `ends`, whatever it withdrew). A withdrawal of a named
 * value ("i left tesco", "I'm not a photographer anymore") ends that value only: its value must say the words. A slot
 * ended whole (stored with no value, or withdrawn with none: "I don't work at Google anymore", "i'm retired now") ends
 * whatever the slot holds, so it meets a line that names the slot, or whose words its key says ("preference:coffee"). A withdrawal with no slot ("I don't smoke now") ends
 * the statement it names: its text must say the words.
 */
function endsNamed(f: ExtractedFact, e: Expected): boolean {
  const saidIn = (text: string): boolean => e.words.every((w) => new RegExp(`\\b(?:${w})\\b`, 'i').test(text));
  // A slot's key names its thing singular ("preference:video game", thing-keys.ts): a word said plain ("video games") is
  // read as keyed the same way (rules 43: the judge missed "i'm not into video games anymore" by the plural alone).
  const keyed = (key: string): boolean => e.words.every((w) => new RegExp(`\\b(?:${w})\\b`, 'i').test(key)
    || (/^[a-z' -]+$/i.test(w) && new RegExp(`\\b${thingSlotKey(w)}\\b`).test(key)));
  // A liking's value is how it is held ("like"): its thing is its slot's key ("preference:running").
  if (f.slot && f.value !== null) return f.retraction && (POLARITY.test(f.value) ? keyed(f.slot.replace(/^[a-z_]+:/, '')) : saidIn(f.value));
  if (f.slot) return e.slot !== undefined || keyed(f.slot.replace(/^[a-z_]+:/, ''));
  return f.retraction && saidIn(f.content);
}

/**
 * Slips a person would not write in a fact: a filler or laugh, the speaker's own "I / my / me" left in, a stutter (a
 * word said twice), the speaker's name (Ana, as the bench names her) before a bare verb ("Ana love jazz").
 */
const SLIP = /\b(?:um+|uh+|er+m?|lol|haha|i|i'm|i've|my|me)\b|\b(\w+) \1\b|\bana (?:love|like|start|guess|think|want|need|have|go|do|work|live|hate|teach)\b/i;

/**
 * Whether `f` says what `e` asks, in words a person would write: the words in its slot's value where it fills one
 * with a thing ("preference:for_now = jazz" does not say techno, whatever its text holds), else in its text.
 */
function says(f: ExtractedFact, e: Expected): boolean {
  if (SLIP.test(f.content)) return false;
  if (e.until && !f.validUntil) return false;
  // A liking's value is how it is held ("love"): its thing is in its text.
  const said = f.slot && f.value && !POLARITY.test(f.value) ? f.value : f.content;
  return e.words.every((w) => new RegExp(`\\b(?:${w})\\b`, 'i').test(said));
}

/** One sentence's verdict: the forbidden kinds it gave (`not`; neither field: all of job, preference, end). */
export function judge(facts: readonly ExtractedFact[], not: readonly Wrong[] | undefined, expect: readonly Expected[] | undefined): Verdict {
  const shown = facts.map((f) => `${f.slot ?? f.kind}${f.settles ? `/${f.settles}` : ''}: "${f.content}"${f.validUntil ? ` until ${f.validUntil.slice(0, 10)}` : ''}`).join('; ');
  const forbidden = new Set<Wrong>(not ?? (expect ? [] : ['job', 'preference', 'end']));
  const falseMemory = [...wrongIn(facts)].filter((w) => forbidden.has(w)).map((w) => `${w}: ${shown}`);
  const missed: string[] = [];
  const wrong: string[] = [];
  for (const e of expect ?? []) {
    const candidates = facts.filter((f) => shaped(f, e));
    if (candidates.length === 0) missed.push(`no ${JSON.stringify(e)} in [${shown}]`);
    else if (!candidates.some((f) => says(f, e))) wrong.push(`${JSON.stringify(e)} not said by [${shown}]`);
  }
  return { falseMemory, missed, wrong };
}
