import { inferAddressees, type PresentParticipant } from './addressee-inference.js';
import type { UtteranceEvidence } from './merge.js';

/** A stored utterance as the end-of-session merge reads it. */
export interface TranscriptLine {
  speakerId: string;
  text: string;
  startMs: number | null;
  endMs: number | null;
}

/**
 * Cannot-link evidence for a session's transcript: each utterance with the participants it names
 * vocatively ("Ana, can you…") among `people` (the session's participants with their names and
 * aliases). Inferred addressees (replies, group address) are not evidence: a fragment of one person
 * often "replies" to another fragment of the same person. A speaker is never their own addressee.
 */
export function withNamedAddressees(lines: readonly TranscriptLine[], people: readonly PresentParticipant[]): UtteranceEvidence[] {
  return lines.map((u) => {
    const r = inferAddressees({ speakerId: u.speakerId, text: u.text, recent: [], present: people });
    return { speakerId: u.speakerId, startMs: u.startMs, endMs: u.endMs, namedAddresseeIds: r.reason === 'vocative' ? r.addresseeIds : [] };
  });
}
