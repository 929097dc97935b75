/** One sentence extracted alone by the embedded rules, as the rules tests read it. */
import { EmbeddedExtractor } from '../../pipelines/memory/embedded-extractor.js';
import type { ExtractedFact, ExtractionResult } from '../../pipelines/memory/extractor.js';

/** A participant: id and name. */
export type Said = readonly [id: string, name: string];

/**
 * What the embedded rules extract from `text`, said by `speaker` to `addressee` at `time` (ISO), with no turn before it.
 * `others`: participants the sentence may name besides the two (in the names the extractor is given, in no turn).
 */
export async function extractSaid(text: string, time: string, speaker: Said, addressee: Said, others: readonly Said[] = []): Promise<ExtractionResult> {
  return new EmbeddedExtractor().extract({
    current: { id: 'u1', speakerId: speaker[0], addresseeIds: [addressee[0]], text, time, sessionId: 's' } as never,
    previous: [],
    names: Object.fromEntries([speaker, addressee, ...others]),
  });
}

/**
 * The facts' texts of `text` said by Tom (`tom`) to Ana (`ana`) at `time`, after `before` said by Ana to Tom in the same
 * session: how a fact reads with a previous turn to resolve it.
 */
export async function contentsAfter(before: string, text: string, time: string): Promise<string[]> {
  const turn = (id: string, speakerId: string, said: string, seq: number) => ({ id, sessionId: 's', speakerId,
    addresseeIds: [speakerId === 'ana' ? 'tom' : 'ana'], text: said, startMs: null, endMs: null, time, confidence: null, audioRef: null, seq });
  const { facts } = await new EmbeddedExtractor().extract({ current: turn('u2', 'tom', text, 2), previous: [turn('u1', 'ana', before, 1)],
    names: { ana: 'Ana', tom: 'Tom' } });
  return facts.map((f) => f.content);
}

/** The facts of {@link extractSaid}. */
export async function factsSaid(text: string, time: string, speaker: Said, addressee: Said, others: readonly Said[] = []): Promise<ExtractedFact[]> {
  return (await extractSaid(text, time, speaker, addressee, others)).facts;
}

/** A fact as the rules tests compare it: its text, kind and event time (null when it has none). */
export type ReadFact = [content: string, kind: string, eventTime: string | null];

/** The facts of {@link extractSaid} read as {@link ReadFact}s. */
export async function readSaid(text: string, time: string, speaker: Said, addressee: Said, others: readonly Said[] = []): Promise<ReadFact[]> {
  return (await factsSaid(text, time, speaker, addressee, others)).map((f) => [f.content, f.kind, f.eventTime ?? null]);
}

/** The facts' texts of {@link extractSaid}, each followed by its event time in brackets ("… [2026-12-11T…]", "… []"). */
export async function datedSaid(text: string, time: string, speaker: Said, addressee: Said, others: readonly Said[] = []): Promise<string[]> {
  return (await factsSaid(text, time, speaker, addressee, others)).map((f) => `${f.content} [${f.eventTime ?? ''}]`);
}

/**
 * The facts that hold a slot or end one, as the rules tests compare them: "slot=value", an ending of the whole slot
 * "slot ended", and a withdrawal that ends the slot only where it holds the value named ("i left tesco", "I'm not a
 * photographer anymore", "I don't live in London anymore": every withdrawal naming a value of a slot not keyed by its
 * thing, as the decider reads them since rules 42; decide.ts `namedValue`) "slot ended if =value".
 */
export function slotsOf(facts: readonly ExtractedFact[]): string[] {
  const named = (f: ExtractedFact): boolean => f.value !== null && !/^(?:preference|sport|favourite|allergy|plan):/.test(f.slot ?? '');
  return facts.filter((f) => f.slot).map((f) => (f.retraction && named(f) ? `${f.slot} ended if =${f.value}`
    : f.retraction || f.value === null ? `${f.slot} ended` : `${f.slot}=${f.value}`));
}
