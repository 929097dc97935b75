/**
 * Every LoCoMo turn of some conversations through one build's embedded extractor alone (no consolidation), in order, with
 * the turn before as context (up to three, within a session), as the extractor sees them in production: for benches
 * that read what the rules write (`we-plans-locomo`, `fact-wording`).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Utterance } from '../../graph/types.js';
import type { EmbeddedExtractor } from '../../pipelines/memory/embedded-extractor.js';
import type { ExtractedFact } from '../../pipelines/memory/extractor.js';
import { addresseesOf, locomoTime, type LocomoTurn } from './locomo.js';

/** An extractor class of this build or of another (`loadExtractor`). */
export type ExtractorClass = typeof EmbeddedExtractor;

/** The embedded extractor of another build's dist/ folder `dir` (`--baseline DIR`). */
export async function loadExtractor(dir: string): Promise<ExtractorClass> {
  const mod = (await import(pathToFileURL(path.resolve(dir, 'pipelines/memory/embedded-extractor.js')).href)) as { EmbeddedExtractor: ExtractorClass };
  return mod.EmbeddedExtractor;
}

/** One turn and the facts the extractor returned for it. */
export interface ExtractedTurn { turn: LocomoTurn; facts: ExtractedFact[] }

/** Every turn of `convs` (each a conversation's turns, in order) through a new `Extractor`. */
export async function extractLocomo(Extractor: ExtractorClass, convs: readonly LocomoTurn[][]): Promise<ExtractedTurn[]> {
  const extractor = new Extractor();
  const out: ExtractedTurn[] = [];
  for (const turns of convs) {
    const speakers = [...new Set(turns.map((t) => t.speaker))];
    const names = Object.fromEntries(speakers.map((s) => [s, s]));
    const previous: Utterance[] = [];
    for (const t of turns) {
      const u: Utterance = {
        id: `${t.conv_id}:${t.dia_id}`, sessionId: `${t.conv_id}:${t.session}`, speakerId: t.speaker,
        addresseeIds: addresseesOf(t, speakers), text: t.text, startMs: null, endMs: null,
        time: locomoTime(t.session_date_time, t.turn_idx * 30), confidence: null, audioRef: null, seq: t.turn_idx + 1,
      };
      if (previous.length > 0 && previous[previous.length - 1]!.sessionId !== u.sessionId) previous.length = 0;
      const { facts } = await extractor.extract({ current: u, previous: previous.slice(-3), names });
      out.push({ turn: t, facts });
      previous.push(u);
    }
  }
  return out;
}
