/**
 * The scripted conversations of bench/data/scenarios*.jsonl and how a memory bench plays them: each scenario in a tenant
 * of its own, each turn stored as its speaker's utterance to its addressee and consolidated, in order.
 */
import { readFileSync } from 'node:fs';
import type { MemoryBuild } from './memory-build.js';

export interface Turn {
  scenario: string; turn: number; speaker: string; addressee: string; text: string; informative: boolean;
  /** With `closes`: how turn `closes`'s fact ends up after this turn (`open`: a stay beside a home leaves it open). */
  closes?: number; expect?: 'UPDATE' | 'DELETE' | 'open';
  /** The session the turn is said in (default `s`) and when (default 1 December 2026 10:00 UTC plus `turn` minutes). */
  session?: string; at?: string;
  /** A temporary state: the ISO-8601 end its fact must carry. */
  until?: string;
  /**
   * After the scenario's turns, with ended states swept at `at` (a build with the sweep): `who`'s derived attribute
   * `attribute` is `value` (null: none), e.g. Berkeley again once the Lisbon month is over.
   */
  holds?: { at: string; who: string; attribute: string; value: string | null }[];
}

/**
 * One turn's outcome: each field is 1 (right), 0 (wrong) or null (the turn does not count there); `held`, one per
 * `holds` check.
 */
/**
 * Display names at the start: callers and customers are unknown until they introduce themselves; the
 * clinic's agent is Rita; anyone else starts with the name the file gives them.
 */
export const START_NAMES: Record<string, string | null> = { Agent: 'Rita', Caller: null, Customer: null };

/** The turns of a scenarios file. */
export function readTurns(file: string): Turn[] {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Turn);
}

type Graph = InstanceType<MemoryBuild['SqliteGraphStore']>;
type Handler = ReturnType<MemoryBuild['createConsolidationHandler']>;

/**
 * One scenario's turns (all of one `scenario`) through `handler` in tenant `tenant`, `before` and `after` each turn's
 * consolidation (`after` is handed the utterance ids by turn number so far). Returns the participants by the file's names
 * and the utterance ids by turn number.
 */
export async function playScenario(
  rig: { graph: Graph; handler: Handler }, tenant: string, turns: Turn[],
  hooks: { before?: (t: Turn) => Promise<void>; after?: (t: Turn, utteranceId: string, utterances: ReadonlyMap<number, string>) => Promise<void> } = {},
): Promise<{ ids: Map<string, string>; utterance: Map<number, string> }> {
  const { graph, handler } = rig;
  const ids = new Map<string, string>();
  const utterance = new Map<number, string>();
  const who = async (name: string): Promise<string> => {
    if (!ids.has(name)) ids.set(name, (await graph.createParticipant(tenant, { name: name in START_NAMES ? START_NAMES[name]! : name })).id);
    return ids.get(name)!;
  };
  const opened = new Set<string>();
  for (const t of turns) {
    const time = t.at ?? new Date(Date.parse('2026-12-01T10:00:00.000Z') + t.turn * 60_000).toISOString();
    const sessionId = t.session ?? 's';
    if (!opened.has(sessionId)) await graph.openSession(tenant, sessionId, time);
    opened.add(sessionId);
    const [u] = await graph.addUtterances(tenant, [{ sessionId, speakerId: await who(t.speaker), addresseeIds: [await who(t.addressee)],
      text: t.text, startMs: null, endMs: null, time, confidence: null, audioRef: null }]);
    utterance.set(t.turn, u!.id);
    await hooks.before?.(t);
    await handler({ id: `${tenant}-${t.turn}`, name: 'memory.consolidate', attempt: 1, data: { tenant, sessionId, utteranceId: u!.id } },
      new AbortController().signal);
    await hooks.after?.(t, u!.id, utterance);
  }
  return { ids, utterance };
}
