import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { fixtureSamples, loadAudioFixtures } from '../../pipelines/audio/fixtures.js';
import { erasureOwner } from '../../server/routes/participants.js';
import { eraseParticipant } from '../../pipelines/interaction/erase-participant.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { tempDir } from '../helpers/temp-dir.js';
import { TestWsClient } from '../helpers/ws-client.js';

/**
 * A live voice session learns of merges and erasures made by hand on another server process (two apps on
 * one embedded data directory, the file's event bus between them): a voice merged away is heard as the
 * survivor, with its voiceprint staying the survivor's; a voice whose participant was erased becomes a new
 * unnamed speaker, never the erased id.
 */
describe('live speaker tracking after a merge or an erasure on another process', () => {
  const data = tempDir('parley-retired-live-');
  let holder: TestApp;
  let other: TestApp;
  let speech: Float32Array;
  before(async () => {
    holder = await startTestApp({ DATA_DIR: data.dir, PARLEY_INFERENCE_WORKERS: '1', PARLEY_AUDIO_MAX_QUEUED_MS: '600000' });
    other = await startTestApp({ DATA_DIR: data.dir, PARLEY_ASR: 'none' }, false);
    await holder.app.models.inference();
    speech = fixtureSamples(loadAudioFixtures().find((f) => f.file === 'awb.wav')!).subarray(0, 16000 * 2.3);
  });
  after(async () => {
    await other.close();
    await holder.close();
    data.remove();
  });

  /** One turn of the same voice in the live session; its `transcript.final` speaker. */
  const speak = async (c: TestWsClient): Promise<{ id: string; is_new: boolean }> => {
    const seen = new Set(c.events.filter((e) => e.type === 'transcript.final').map((e) => e.utterance_id));
    await c.speak(speech);
    const final = await c.next('transcript.final', (e) => !seen.has(e.utterance_id), 30_000);
    return final.speaker as { id: string; is_new: boolean };
  };

  test('merged by hand elsewhere: the next turn of that voice is the survivor\'s, and so is its voiceprint', async () => {
    const c = await TestWsClient.connect(`${holder.wsUrl}/v1/stream?session_id=live-merge`, {}, { pacing: 'realtime', frameMs: 100, speed: 2 });
    try {
      await c.next('session.started');
      const first = await speak(c);
      assert.equal(first.is_new, true);
      const posted = await other.app.inject({ method: 'POST', url: '/v1/sessions/desk/utterances', payload: { utterances: [{ speaker: 'Cleo', text: 'Hello.' }] } });
      assert.equal(posted.statusCode, 201, posted.body);
      const cleo = (await other.app.stores.graph.findParticipantsByName('default', 'Cleo'))[0]!;
      const merged = await other.app.inject({ method: 'POST', url: `/v1/participants/${first.id}/merge`, payload: { into: cleo.id } });
      assert.equal(merged.statusCode, 200, merged.body);
      const told = await c.next('speaker.merged', () => true, 10_000);
      assert.deepEqual([told.from, told.into], [first.id, cleo.id]);

      const second = await speak(c);
      assert.deepEqual(second, { ...second, id: cleo.id, is_new: false });
      const prints = await holder.app.stores.voiceprints.list('default');
      assert.ok(prints.length > 0 && prints.every((p) => p.participantId === cleo.id), `voiceprints stay the survivor's: ${prints.map((p) => p.participantId).join(', ')}`);
    } finally {
      c.close();
    }
  });

  test('erased elsewhere: the next turn of that voice is a new unnamed participant, not the erased id', async () => {
    const c = await TestWsClient.connect(`${holder.wsUrl}/v1/stream?session_id=live-erase`, {}, { pacing: 'realtime', frameMs: 100, speed: 2 });
    try {
      await c.next('session.started');
      const first = await speak(c);
      const erased = await other.app.inject({ method: 'DELETE', url: `/v1/participants/${first.id}` });
      assert.equal(erased.statusCode, 200, erased.body);
      // The notice crosses processes through the file's bus (read every 100 ms while another handle is open).
      await new Promise((r) => setTimeout(r, 1500));

      const second = await speak(c);
      assert.notEqual(second.id, first.id);
      assert.equal(second.is_new, true);
      assert.deepEqual(c.events.filter((e) => e.type === 'error'), []);
      const people = await holder.app.stores.graph.listParticipants('default');
      assert.equal(people.find((p) => p.id === second.id)?.name, null, 'a new unnamed speaker');
      assert.ok(people.every((p) => p.name !== first.id && p.id !== first.id), 'no participant carries the erased id');
    } finally {
      c.close();
    }
  });

  test('erased while the session still holds the voice (no notice): the turn is stored as a new unnamed speaker, not lost', async () => {
    const c = await TestWsClient.connect(`${holder.wsUrl}/v1/stream?session_id=live-erase-race`, {}, { pacing: 'realtime', frameMs: 100, speed: 2 });
    try {
      await c.next('session.started');
      const first = await speak(c);
      // Erased straight in the stores, with no bus to tell the session: its tracker still names the voice `first.id`,
      // as when the erasure lands while a turn is being identified, or the best-effort notice was missed.
      const { stores, models } = holder.app;
      const erased = await eraseParticipant({ stores, audioSpans: models.audioSpans, embedder: models.textEmbedder, minAsrConfidence: 'auto' }, 'default', first.id, erasureOwner(holder.app));
      assert.ok(erased, 'erased');

      const seen = new Set(c.events.filter((e) => e.type === 'transcript.final').map((e) => e.utterance_id));
      await c.speak(speech);
      const outcome = await Promise.race([
        c.next('transcript.final', (e) => !seen.has(e.utterance_id), 30_000),
        c.nextNew('error', () => true, 30_000),
      ]);
      assert.equal(outcome.type, 'transcript.final', `the turn is stored, not lost: ${JSON.stringify(outcome)}`);
      const second = outcome.speaker as { id: string; is_new: boolean };
      assert.notEqual(second.id, first.id);
      assert.equal(second.is_new, true);
      assert.deepEqual(c.events.filter((e) => e.type === 'error'), []);

      const transcript = await stores.graph.getTranscript('default', 'live-erase-race');
      assert.deepEqual(transcript.map((u) => u.speakerId), [second.id], 'only the turn after the erasure, under the new speaker');
      assert.equal(transcript[0]!.id, outcome.utterance_id);
      const people = await stores.graph.listParticipants('default');
      assert.equal(people.find((p) => p.id === second.id)?.name, null, 'a new unnamed speaker');
      assert.ok(people.every((p) => p.id !== first.id), 'no participant carries the erased id');
      const prints = await stores.voiceprints.list('default');
      assert.ok(prints.every((p) => p.participantId !== first.id), 'no voiceprint is kept under the erased id');
      assert.ok(prints.some((p) => p.participantId === second.id), 'the voice is the new speaker\'s');

      // The session has forgotten the voice: its next turn is the new speaker's, with no second recovery.
      const third = await speak(c);
      assert.deepEqual(third, { ...third, id: second.id, is_new: false });
    } finally {
      c.close();
    }
  });
});
