import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { encodeMulaw } from '../../pipelines/audio/pcm-codecs.js';
import { encodeWav, parseWav } from '../../pipelines/audio/wav.js';
import { fixtureSamples, loadAudioFixtures } from '../../pipelines/audio/fixtures.js';
import { narrowbandModelId } from '../../pipelines/speaker/voice-bands.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

// With both an explicit `asker` and `audio`, the voice match used to be reported as the asker (and
// the explicit one searched as): the explicit asker wins, and the voice is not matched.
describe('POST /v1/query with an asker and audio', () => {
  let t: TestApp;
  let audio: string;
  let ana: string;
  let ben: string;
  before(async () => {
    t = await startTestApp({}, false);
    const posted = await t.app.inject({
      method: 'POST', url: '/v1/sessions/asker-voice/utterances',
      payload: { utterances: [{ speaker: 'Ana', text: 'I walk my dog every morning.' }, { speaker: 'Ben', text: 'I play chess on Sundays.' }] },
    });
    assert.equal(posted.statusCode, 201);
    const graph = t.app.stores.graph;
    ana = (await graph.findParticipantsByName('default', 'Ana'))[0]!.id;
    ben = (await graph.findParticipantsByName('default', 'Ben'))[0]!.id;
    const fixture = loadAudioFixtures().find((f) => f.file === 'rms.wav');
    assert.ok(fixture);
    const samples = fixtureSamples(fixture);
    const embedder = t.app.models.speakerEmbedder;
    await t.app.stores.voiceprints.upsert('default', { participantId: ana, modelId: embedder.modelId, vector: await embedder.embed(samples), updateCount: 1 });
    audio = encodeWav(samples, 16000).toString('base64');
  });
  after(async () => { await t.close(); });

  const ask = async (body: Record<string, unknown>): Promise<{ status: number; json: Record<string, unknown> }> => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/query', payload: { question: 'What do I do in the morning?', ...body } });
    return { status: res.statusCode, json: res.json() as Record<string, unknown> };
  };

  test('audio alone: the voice names the asker', async () => {
    const r = await ask({ audio });
    assert.equal(r.status, 200);
    assert.equal((r.json.asker as { id: string }).id, ana);
  });

  test('an explicit asker (id or name) wins over the voice, reported with full confidence', async () => {
    for (const asker of [ben, 'Ben']) {
      const r = await ask({ asker, audio });
      assert.equal(r.status, 200);
      assert.deepEqual(r.json.asker, { id: ben, confidence: 'high', score: 1 }, `asker ${asker}`);
      assert.equal(typeof (r.json.timings as Record<string, number>).asker_ms, 'number');
    }
  });

  test('a caller known only by a voiceprint of phone audio is named by voice', async () => {
    const posted = await t.app.inject({
      method: 'POST', url: '/v1/sessions/asker-phone/utterances', payload: { utterances: [{ speaker: 'Cleo', text: 'I swim on Fridays.' }] },
    });
    assert.equal(posted.statusCode, 201);
    const cleo = (await t.app.stores.graph.findParticipantsByName('default', 'Cleo'))[0]!.id;
    const fixture = loadAudioFixtures().find((f) => f.file === 'slt.wav');
    assert.ok(fixture);
    const samples = fixtureSamples(fixture);
    const embedder = t.app.models.speakerEmbedder;
    await t.app.stores.voiceprints.upsert('default', {
      participantId: cleo, modelId: narrowbandModelId(embedder.modelId), vector: await embedder.embed(samples), updateCount: 1,
    });
    const r = await ask({ audio: encodeWav(samples, 16000).toString('base64') });
    assert.equal(r.status, 200);
    assert.equal((r.json.asker as { id: string } | null)?.id, cleo);
  });

  test('with an explicit asker the audio is still checked: a bad one is a 400', async () => {
    const r = await ask({ asker: ben, audio: Buffer.from('not a wav').toString('base64') });
    assert.equal(r.status, 400);
    assert.equal((r.json.error as { code: string }).code, 'PARLEY_ERR_BAD_AUDIO');
  });

  test('a WAVE_FORMAT_EXTENSIBLE PCM sample names the asker as the plain one does; a cut one is a 400 saying so', async () => {
    const plain = Buffer.from(audio, 'base64');
    const r = await ask({ audio: extensible(plain).toString('base64') });
    assert.equal(r.status, 200, JSON.stringify(r.json));
    assert.equal((r.json.asker as { id: string }).id, ana);
    const cut = await ask({ audio: plain.subarray(0, plain.length / 2).toString('base64') });
    assert.equal(cut.status, 400);
    assert.equal((cut.json.error as { code: string }).code, 'PARLEY_ERR_BAD_AUDIO');
    assert.match((cut.json.error as { message: string }).message, /audio is not a readable WAV: truncated: the data chunk declares \d+ bytes but the file holds \d+/);
  });

  // Format 7 used to be refused (400 "unsupported WAV format 0x0007 (mu-law)").
  test('a G.711 mu-law WAV (format 7, as phone recorders write it) names the asker as the PCM one does', async () => {
    const { samples, sampleRate } = parseWav(Buffer.from(audio, 'base64'));
    const r = await ask({ audio: mulawWav(encodeMulaw(samples), sampleRate).toString('base64') });
    assert.equal(r.status, 200, JSON.stringify(r.json));
    assert.equal((r.json.asker as { id: string }).id, ana);
  });
});

/** A mono G.711 mu-law WAV (format 7, 8 bits) of `bytes`. */
function mulawWav(bytes: Uint8Array, sampleRate: number): Buffer {
  const head = Buffer.alloc(44);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(36 + bytes.length, 4);
  head.write('WAVEfmt ', 8, 'latin1');
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(7, 20);
  head.writeUInt16LE(1, 22);
  head.writeUInt32LE(sampleRate, 24);
  head.writeUInt32LE(sampleRate, 28);
  head.writeUInt16LE(1, 32);
  head.writeUInt16LE(8, 34);
  head.write('data', 36, 'latin1');
  head.writeUInt32LE(bytes.length, 40);
  return Buffer.concat([head, bytes]);
}

/** The 16-bit mono PCM WAV `plain` (as encodeWav writes it) with a WAVE_FORMAT_EXTENSIBLE fmt chunk. */
function extensible(plain: Buffer): Buffer {
  const data = plain.subarray(44);
  const head = Buffer.alloc(68);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(60 + data.length, 4);
  head.write('WAVEfmt ', 8, 'latin1');
  head.writeUInt32LE(40, 16);
  plain.copy(head, 20, 20, 36);
  head.writeUInt16LE(0xfffe, 20);
  head.writeUInt16LE(22, 36);
  head.writeUInt16LE(16, 38);
  head.writeUInt32LE(4, 40);
  head.writeUInt16LE(1, 44);
  Buffer.from('000000001000800000aa00389b71', 'hex').copy(head, 46);
  head.write('data', 60, 'latin1');
  head.writeUInt32LE(data.length, 64);
  return Buffer.concat([head, data]);
}
