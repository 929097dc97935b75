import type { GraphStore } from '../../graph/graph-store.js';
import type { TenantId, Utterance } from '../../graph/types.js';
import { questionsAnswered } from './answered-question.js';
import { contentWords } from './hydrate.js';
import { isFillerWord } from '../memory/filler-words.js';
import { withoutPhatic } from '../memory/call-phrases.js';

/**
 * Words that carry no memory on their own: acknowledgements, greetings, interjections. A turn made only of
 * these, fillers (`isFillerWord`) and function words ("Noted.", "Okay, sounds good!", "Thanks, bye") answers nothing,
 * but in a small or fresh store, and boosted as a turn of the asking session or as the neighbour of a match, it
 * used to take evidence places from real memories. Kept apart from the filler list on purpose: these words carry no
 * content, but a memory's text keeps them ("Yes, I do", "Oh, and Ana called", "hmm" as a reply), where a hesitation
 * ("um", "erm") or a laugh ("haha") is left out of it (rules 38).
 */
const ACKNOWLEDGEMENTS = new Set((
  'ok okay okey k noted sure thanks thank thx ty yes yeah yep yup ya no nope nah right alright all got it great cool ' +
  'fine good perfect understood understand sounds sound hmm hm mm mhm uhm er oh ah aha huh wow bye goodbye ' +
  'hello hi hey see later will do done sorry please welcome absolutely totally exactly indeed course agreed true ' +
  'really nice lovely awesome certainly definitely gotcha roger copy that\'s thats ll ve re don let go then ' +
  'much very too also just well now there here'
).split(' '));

/** Backchannels beside them ("Good to hear.", "Glad to hear it!", "Makes sense.", "Congrats!"): no content either. */
const BACKCHANNELS = new Set('hear heard glad makes make sense congratulations congrats cheers'.split(' '));

/**
 * The words of a turn that may carry content: not acknowledgements, fillers or function words (a number: see `hasContent`),
 * nor a service call's formulas ("Parcelo support, Raj speaking", "thanks for calling Brightside, how can I help you";
 * `withoutPhatic`, calls2): a turn of those alone tells nothing.
 */
function contentful(text: string, backchannels = true): string[] {
  return [...contentWords(withoutPhatic(text))].filter((w) => !ACKNOWLEDGEMENTS.has(w) && !isFillerWord(w) && !(backchannels && BACKCHANNELS.has(w)));
}

/**
 * Whether a turn can be evidence for a question: it holds at least one content word, or a number
 * ("5" answers "how many?"). Applied to the turns of `/v1/query`, the `query` message and `memory.context`.
 * A word of `names` (the people's names: "Okay, bye **Ben**!", "Thanks, **Ana**") is no content either.
 */
export function hasContent(text: string, names: ReadonlySet<string> = new Set()): boolean {
  if (/\p{N}/u.test(text)) return true;
  return contentful(text).some((w) => !names.has(w));
}

/**
 * The ids of `turns` with content (`hasContent`), people's names not counting as content: a turn whose only other
 * words are acknowledgements or greetings ("Okay, bye Ben!", "Thanks Ana.") says nothing of Ben or Ana. The store is
 * asked once, for the few words of the turns that might be names alone (none: no store read).
 */
export async function contentTurnIds(
  graph: Pick<GraphStore, 'findParticipantsByWords'>, tenant: TenantId, turns: readonly { id: string; text: string }[],
  options: EvidenceOptions = {},
): Promise<Set<string>> {
  const out = new Set<string>();
  const asContent = options.namesAsContent === true;
  // A turn of more than a few content words holds content whatever its names (a name is one or two words).
  const maybe: { id: string; words: string[] }[] = [];
  for (const u of turns) {
    if (/\p{N}/u.test(u.text)) { out.add(u.id); continue; }
    const words = contentful(u.text, !asContent);
    if (words.length === 0) continue;
    if (asContent || words.length > NAME_WORDS) out.add(u.id);
    else maybe.push({ id: u.id, words });
  }
  if (maybe.length === 0) return out;
  const names = new Set<string>();
  for (const p of await graph.findParticipantsByWords(tenant, [...new Set(maybe.flatMap((m) => m.words))])) {
    for (const n of [p.name, ...p.aliases]) for (const w of n ? contentWords(n) : []) names.add(w);
  }
  for (const m of maybe) if (m.words.some((w) => !names.has(w))) out.add(m.id);
  return out;
}

/** How turns are judged evidence. */
export interface EvidenceOptions {
  /** People's names and backchannels ("Good to hear.") count as content, as before; default false. */
  namesAsContent?: boolean;
}

/** Most contentful words a turn may hold and still be made of names alone. */
const NAME_WORDS = 3;

/**
 * The ids of `turns` that can be evidence: those with content ({@link contentTurnIds}: names are no content), and a content-free reply ("No.",
 * "Yes, I do.") to another speaker's question just before it ("Do you eat meat?"): read with that question it is
 * the answer, so it is kept for the pairing that reads them together. Only a standalone filler is left out. The
 * question lookup is made for the content-free turns alone (none: no store read).
 */
export async function evidenceIds(
  graph: Pick<GraphStore, 'recentUtterances' | 'findParticipantsByWords'>, tenant: TenantId, turns: readonly Utterance[],
  options: EvidenceOptions = {},
): Promise<Set<string>> {
  const out = await contentTurnIds(graph, tenant, turns, options);
  const bare = turns.filter((u) => !out.has(u.id));
  if (bare.length > 0) for (const id of (await questionsAnswered(graph, tenant, bare)).keys()) out.add(id);
  return out;
}

/** A turn's or question's words, lower case, without punctuation: "Where did Kim move?" → "where did kim move". */
export function plainWords(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** Whether a stored turn says the question itself (same words, case and punctuation aside): the turn that asked it. */
export function asksQuestion(turnText: string, question: string): boolean {
  const asked = plainWords(question);
  return asked !== '' && plainWords(turnText) === asked;
}

/** How many of a session's latest turns are searched for the one that asked a question. */
export const ASKING_TURN_WINDOW = 16;

/**
 * The turn of `sessionId` that asked `question` (none or one id): the newest of its last {@link ASKING_TURN_WINDOW} with the
 * question's words (the question just stored before it was asked, as an agent framework does). Over
 * HTTP there is no `utterance_id` of the asking turn to go by, so the words decide, as on the socket.
 */
export async function askingTurnIds(
  graph: { recentUtterances(tenant: string, sessionId: string, n: number): Promise<{ id: string; text: string }[]> },
  tenant: string, sessionId: string, question: string,
): Promise<string[]> {
  if (plainWords(question) === '') return [];
  return newestAsking(await graph.recentUtterances(tenant, sessionId, ASKING_TURN_WINDOW), question);
}

/**
 * The turn of `turns` (oldest first) that asked `question` (none or one id): the newest that says it
 * (`asksQuestion`); an earlier turn with the same words (anyone's) stays evidence. The one rule of HTTP
 * (`askingTurnIds`) and of a live session's recent turns (`RecentTurns.asking`).
 */
export function newestAsking(turns: readonly { id: string; text: string }[], question: string): string[] {
  const asking = turns.filter((u) => asksQuestion(u.text, question)).at(-1);
  return asking ? [asking.id] : [];
}
