/**
 * What goes to the extractor with an utterance, and how its facts are kept once extracted: the turns before it,
 * the names of the people in them, how unnamed speakers are written, and participant ids never shown in memory text.
 */
import { namesRelation } from './relation-apposition.js';
import type { GraphStore } from '../../graph/graph-store.js';
import type { MemoryStore } from '../../graph/memory-store.js';
import type { TenantId, Utterance } from '../../graph/types.js';
import { CALLER, UNNAMED, type ExtractionResult, type Extractor } from './extractor.js';
import { withProperNounCase } from './proper-noun-case.js';
import { DEFAULT_MIN_ASR_CONFIDENCE, doubtfulSpeech, type MinAsrConfidence } from './doubtful-speech.js';

/**
 * A sentence that starts with a capitalised word other than "I", after any connective ("And Maya likes dinosaurs", fix9):
 * it may report on someone by name.
 */
const REPORT_START = /(?:^|[.!?]\s+)(?:(?:[Aa]nd|[Bb]ut|[Ss]o|[Oo]h|[Aa]lso|[Pp]lus|[Ww]ell)\b[\s,]*)*(?!I\b)[A-Z][a-z'-]+\s+[a-z]/;

/** The stores and extractor an extraction reads and keeps (a `ConsolidationDeps` has them). */
export interface ExtractionDeps {
  graph: GraphStore;
  memory: MemoryStore;
  extractor: Extractor;
}

/**
 * An extraction as kept (`extractOnce`): with the names the extractor was given (participant id → display name, null for
 * none), so the write, under the subjects' locks, can tell a name that changed since (a rename) and write the new one.
 * Absent from extractions kept by earlier versions.
 */
export interface KeptExtraction extends ExtractionResult {
  shownNames?: Record<string, string | null>;
}

/**
 * What the extractor finds in `u` and its context, with every participant id in fact text replaced
 * by how that participant is shown; kept in the memory store before anything is written, so a run
 * of the job again after a crash replays the very same facts (same ids, nothing twice) instead of
 * asking the extractor again, which an LLM may answer in other words.
 */
export async function extractOnce(
  deps: ExtractionDeps, tenant: TenantId, u: Utterance, contextTurns: number, minAsrConfidence: MinAsrConfidence = DEFAULT_MIN_ASR_CONFIDENCE,
): Promise<KeptExtraction> {
  const kept = await deps.memory.keptExtraction(tenant, u.id);
  if (kept !== null) return JSON.parse(kept) as KeptExtraction;
  const previous = await previousTurns(deps.graph, tenant, u, contextTurns, minAsrConfidence);
  const names = await participantNames(deps.graph, tenant, [u, ...previous]);
  if (REPORT_START.test(u.text) || namesRelation(u.text)) {
    // "Lena moved to Boulder", "my wife Maria ordered…": the extractor needs the name of whoever a turn reports on.
    for (const p of await deps.graph.findParticipantsInText(tenant, u.text)) if (p.name && !(p.id in names)) names[p.id] = p.name;
  }
  const unnamed = await unnamedDisplay(deps.graph, tenant, u, previous, names);
  const extraction = await deps.extractor.extract({ current: u, previous, names, unnamed });
  // Memory text never shows a raw participant id, whatever the extractor wrote.
  const shown = (id: string): string => names[id] ?? unnamed[id] ?? UNNAMED;
  for (const f of extraction.facts) f.content = withoutParticipantIds(f.content, shown);
  // A recogniser that writes no capitals: "lisbon" is stored as the place "Lisbon".
  withProperNounCase(extraction, u.text);
  // Two deliveries of the job at once: both go on with the extraction kept first.
  const keeping: KeptExtraction = { ...extraction, shownNames: names };
  return JSON.parse(await deps.memory.keepExtraction(tenant, u.id, JSON.stringify(keeping))) as KeptExtraction;
}

/**
 * The `n` turns before `u` in its session, oldest first, from the seq index (constant cost however far behind the queue
 * is), back to the latest doubtful one (`doubtfulSpeech` under `minAsrConfidence`), which is left out with all before it:
 * heard too badly to remember, it is a gap, not context. What it really said may be what `u` answers, acts on ("order
 * it"), cancels ("cancel that") or names with a pronoun, so neither its words nor an earlier turn in its place are read.
 */
async function previousTurns(graph: GraphStore, tenant: TenantId, u: Utterance, n: number, minAsrConfidence: MinAsrConfidence): Promise<Utterance[]> {
  if (n <= 0) return [];
  const turns = await graph.recentUtterances(tenant, u.sessionId, n, u.seq);
  return turns.slice(turns.findLastIndex((t) => doubtfulSpeech(t, minAsrConfidence)) + 1);
}

/** A participant id as `newId('p')` makes them. */
const PARTICIPANT_ID = /\bp_[0-9a-f]{32}\b/g;

/** A participant id in brackets, as the LLM extractor labels a name ("Ana (p_…)"). */
const LABEL = /\s*\((p_[0-9a-f]{32})\)/g;

/**
 * `text` with every participant id replaced by how that participant is shown; an id in brackets right after that very
 * name ("Ana (p_…)", copied from the LLM extractor's labels) is left out, not written as "Ana (Ana)".
 */
export function withoutParticipantIds(text: string, shown: (id: string) => string): string {
  const unlabelled = text.replace(LABEL, (label, id: string, offset: number) =>
    (text.slice(0, offset).toLowerCase().endsWith(shown(id).toLowerCase()) ? '' : label));
  return unlabelled.replace(PARTICIPANT_ID, (id, offset: number) => {
    const s = shown(id);
    // At the start of a sentence, capitalised.
    const start = offset === 0 || /[.!?]\s*$/.test(unlabelled.slice(0, offset));
    return start ? s.charAt(0).toUpperCase() + s.slice(1) : s;
  });
}

/**
 * How the unnamed speakers of `u`'s session are written: in a phone session (Twilio) they are the
 * remote party, "the caller"; elsewhere the extractor's default ("an unnamed speaker").
 */
async function unnamedDisplay(
  graph: GraphStore, tenant: TenantId, u: Utterance, previous: Utterance[], names: Record<string, string | null>,
): Promise<Record<string, string>> {
  const session = await graph.getSession(tenant, u.sessionId);
  if (session?.metadata.channel !== 'twilio') return {};
  const out: Record<string, string> = {};
  for (const x of [u, ...previous]) if (!names[x.speakerId]) out[x.speakerId] = CALLER;
  return out;
}

async function participantNames(graph: GraphStore, tenant: TenantId, us: Utterance[]): Promise<Record<string, string | null>> {
  const ids = new Set(us.flatMap((u) => [u.speakerId, ...u.addresseeIds]));
  const names: Record<string, string | null> = {};
  await Promise.all([...ids].map(async (id) => {
    names[id] = (await graph.getParticipant(tenant, id))?.name ?? null;
  }));
  return names;
}
