import { degrade, FAR_FIELD } from '../../bench/lib/far-field.js';
import { loadLibriSpeech } from '../../pipelines/speaker/eval-corpus.js';
import { SessionSpeakers } from '../../server/ws/session-speakers.js';
import type { VoiceTurnsDeps } from '../../server/ws/voice-turns-host.js';
import type { TestApp } from './app.js';

export type Turn = { speaker: string; audio: Float32Array };

/** Held-out LibriSpeech speakers (never read by the embedder's training or by the choice of a setting) through far-field. */
export function farField(speaker: string, utterances: number, seed: number): Float32Array[] {
  return loadLibriSpeech([speaker]).slice(0, utterances).map((u, k) => degrade(u.audio, seed + k, FAR_FIELD));
}

/** Each recording cut into ~3 s turns (a shorter remainder joins the last one), as the meeting bench cuts them. */
export function turns(speaker: string, audios: Float32Array[]): Turn[] {
  const w = 3 * 16_000;
  return audios.flatMap((audio) => {
    const n = Math.max(1, Math.floor(audio.length / w + 0.5));
    return Array.from({ length: n }, (_, k) => ({ speaker, audio: audio.subarray(k * w, k === n - 1 ? audio.length : (k + 1) * w) }));
  });
}

/**
 * One live session's speaker path of the server (`SessionSpeakers`: the app's embedder, decision, thresholds and
 * settings, its stores; the session id is its tenant too, so no voice is known from another test): every turn
 * identified, then the end-of-session merge. Returns each turn's id as first attributed, and the `speaker.merged` events sent.
 */
export async function speakerSession(t: TestApp, id: string, spoken: Turn[]): Promise<{ ids: string[]; merged: { from: string; into: string }[] }> {
  const merged: { from: string; into: string }[] = [];
  const host = {
    tenant: id, id, log: t.app.log, pendingExternalId: null, agents: new Set<string>(),
    send: ((type: string, payload: Record<string, unknown>) => { if (type === 'speaker.merged') merged.push(payload as { from: string; into: string }); }) as never,
    participantForNewVoice: async () => (await t.app.stores.graph.createParticipant(id, {})).id,
    participantRetired: async () => {}, idsRetired: () => {},
  };
  const speakers = new SessionSpeakers(host, { config: t.config, stores: t.app.stores, models: t.app.models } as unknown as VoiceTurnsDeps);
  const ids: string[] = [];
  for (const turn of spoken) ids.push((await speakers.identify(turn.audio, (turn.audio.length / 16_000) * 1000, 'wideband')).participantId);
  await speakers.merge();
  return { ids, merged };
}

/** Each id's speakers, from the turns it was first given. */
export function owners(spoken: Turn[], ids: string[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const [i, id] of ids.entries()) out.set(id, (out.get(id) ?? new Set()).add(spoken[i]!.speaker));
  return out;
}
