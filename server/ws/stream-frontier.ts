import type { GraphStore } from '../../graph/graph-store.js';
import type { SessionRecord } from '../../graph/types.js';

/**
 * The latest `end_ms` among the session's stored utterances, on its transcript clock (newest first, a
 * page at a time, until one has one); 0 when none has one.
 */
export async function storedTranscriptEndMs(graph: GraphStore, tenant: string, sessionId: string): Promise<number> {
  let before: number | undefined;
  for (;;) {
    const page = await graph.recentUtterances(tenant, sessionId, 200, before);
    const ends = page.flatMap((u) => (u.endMs === null ? [] : [u.endMs]));
    if (ends.length > 0) return Math.max(...ends);
    if (page.length < 200 || page[0] === undefined) return 0;
    before = page[0].seq;
  }
}

/**
 * Where, on the session's latest audio stream (ms into it: the clock of its `audio_start_ms`), nothing is
 * stored, for a new audio stream that takes over from it (after a crash, a restart, the resume window,
 * another server): the end of the last turn that stream stored, or 0 when it stored none. Derived from
 * the store alone (where the stream began on the transcript clock, recorded before it stored anything,
 * and the stored turns), so a turn stored just before a crash is never named, and one not stored always
 * is; what lies between its end and the next turn is silence, harmless to send again. Null when the
 * session has had no audio stream, or one recorded by an older version (nothing can be named).
 */
export async function unstoredStreamFromMs(graph: GraphStore, tenant: string, record: SessionRecord): Promise<number | null> {
  if (record.audioStreamMs === null) return null;
  const end = await storedTranscriptEndMs(graph, tenant, record.id);
  return Math.max(0, Math.floor(end - record.audioStreamMs));
}
