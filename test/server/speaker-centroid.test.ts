import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { degrade, FAR_FIELD } from '../../bench/lib/far-field.js';
import { hasSharedSpeech, loadLibriSpeech } from '../../pipelines/speaker/eval-corpus.js';
import { SessionSpeakers } from '../../server/ws/session-speakers.js';
import type { VoiceTurnsDeps } from '../../server/ws/voice-turns-host.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const skip = hasSharedSpeech() ? false : 'shared speech data absent (../shared/data/speech)';

type Turn = { speaker: string; audio: Float32Array };

/** Held-out LibriSpeech speakers (never read by the embedder's training or by the choice of the setting) through far-field. */
function farField(speaker: string, utterances: number, seed: number): Float32Array[] {
  return loadLibriSpeech([speaker]).slice(0, utterances).map((u, k) => degrade(u.audio, seed + k, FAR_FIELD));
}

/** Each recording cut into ~3 s turns (a shorter remainder joins the last one), as the meeting bench cuts them. */
function turns(speaker: string, audios: Float32Array[]): Turn[] {
  const w = 3 * 16_000;
  return audios.flatMap((audio) => {
    const n = Math.max(1, Math.floor(audio.length / w + 0.5));
    return Array.from({ length: n }, (_, k) => ({ speaker, audio: audio.subarray(k * w, k === n - 1 ? audio.length : (k + 1) * w) }));
  });
}

/** One live session's speaker path of the server (`SessionSpeakers` with the app's embedder, decision, settings and stores). */
async function session(t: TestApp, id: string, spoken: Turn[]): Promise<{ ids: string[]; merged: { from: string; into: string }[] }> {
  const merged: { from: string; into: string }[] = [];
  const host = {
    tenant: id, id, log: t.app.log, pendingExternalId: null,
    send: ((type: string, payload: Record<string, unknown>) => { if (type === 'speaker.merged') merged.push(payload as { from: string; into: string }); }) as never,
    participantForNewVoice: async () => (await t.app.stores.graph.createParticipant(id, {})).id,
    participantRetired: async () => {},
  };
  const speakers = new SessionSpeakers(host, { config: t.config, stores: t.app.stores, models: t.app.models } as unknown as VoiceTurnsDeps);
  const ids: string[] = [];
  for (const turn of spoken) ids.push((await speakers.identify(turn.audio, (turn.audio.length / 16_000) * 1000, 'wideband')).participantId);
  await speakers.merge();
  return { ids, merged };
}

/** Each id's speakers, from the turns it was given. */
function owners(spoken: Turn[], ids: string[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const [i, id] of ids.entries()) out.set(id, (out.get(id) ?? new Set()).add(spoken[i]!.speaker));
  return out;
}

const show = (o: Map<string, Set<string>>): string => JSON.stringify([...o].map(([k, s]) => [k, [...s]]));

/**
 * The server's speaker path on real far-field recordings of held-out speakers, with prototypes updated as
 * seconds-weighted centroids (`PARLEY_SPEAKER_CENTROID`, the default) and with the EMA it replaced. (The session was
 * picked on held-out speakers to show the difference; no setting was chosen on it. With the roles swapped, 3080
 * dominating and 3005 the guest, the centroid gave the guest's three turns to the dominant voice's id where the EMA
 * gave them an id of their own: in the benchmark such joins did not rise on held-out meetings, docs/BENCHMARKS.md
 * "speech18", but they happen.)
 */
describe('server: centroid prototype updates in a far-field meeting, real recordings', { skip }, () => {
  let t: TestApp;
  let ema: TestApp;
  // Speaker 3005 dominates (12 turns around 3 of 3080's); far-field, seeded.
  const a = turns('3005', farField('3005', 4, 900));
  const b = turns('3080', farField('3080', 2, 950));
  const meeting = [...a.slice(0, 6), ...b.slice(0, 3), ...a.slice(6, 12)];
  before(async () => {
    t = await startTestApp({}, false);
    ema = await startTestApp({ PARLEY_SPEAKER_CENTROID: 'false' }, false);
  });
  after(async () => {
    await t.close();
    await ema.close();
  });

  test('by default the dominant voice is split over fewer ids than with the EMA, and no id holds both voices', async () => {
    assert.equal(t.config.speakerCentroid, true);
    assert.deepEqual(t.app.models.speakerCentroid, { capSeconds: 10, onMatch: true });
    const on = owners(meeting, (await session(t, 'centroid-on', meeting)).ids);
    const off = owners(meeting, (await session(ema, 'centroid-off', meeting)).ids);
    const dominant = (o: Map<string, Set<string>>): number => [...o.values()].filter((s) => s.has('3005')).length;
    assert.ok(dominant(on) < dominant(off), `centroid ${show(on)} against EMA ${show(off)}`);
    assert.ok([...on.values()].every((s) => s.size === 1), `one voice per id: ${show(on)}`);
  });
});
