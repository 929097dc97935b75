import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jointEmbedders, loadBenchSpeakerEmbedder } from '../../bench/lib/speaker-meeting-embedders.js';
import { ParleyError } from '../../graph/core/errors.js';
import type { SpeakerEmbedder } from '../../pipelines/speaker/speaker-embedder.js';

/** An embedder that returns [tag, first sample] and refuses audio whose first sample is `refuse`; counts its calls. */
function fake(tag: number, refuse: number): SpeakerEmbedder & { calls: number } {
  const e = {
    modelId: `fake-${tag}`, dimension: 2, calls: 0,
    embed: async (audio: Float32Array): Promise<Float32Array> => {
      e.calls++;
      if (audio[0] === refuse) throw new ParleyError('PARLEY_ERR_BAD_AUDIO', 'refused');
      return Float32Array.of(tag, audio[0]!);
    },
  };
  return e;
}

test('joint views give each embedder\'s vector, embed a piece once per embedder, and refuse what either refuses', async () => {
  const [a, b] = [fake(1, 0.5), fake(2, 0.25)];
  const { views, costs } = jointEmbedders([a, b]);
  const audio = Float32Array.of(0.1, 0, 0, 0.5, 0, 0.25, 0);
  assert.deepEqual([...(await views[0]!.embed(audio.subarray(0, 2)))], [1, Math.fround(0.1)]);
  // Another subarray of the same place: cached, not embedded again.
  assert.deepEqual([...(await views[1]!.embed(audio.subarray(0, 2)))], [2, Math.fround(0.1)]);
  assert.deepEqual([a.calls, b.calls], [1, 1]);
  for (const piece of [audio.subarray(3, 5), audio.subarray(5, 7)])
    for (const v of views) await assert.rejects(v.embed(piece), (e: unknown) => e instanceof ParleyError && e.code === 'PARLEY_ERR_BAD_AUDIO');
  assert.deepEqual(costs.map((c) => c.seconds * 16_000), [6, 6], 'each embedder timed on the three pieces it was given');
  assert.deepEqual(views.map((v) => v.modelId), ['fake-1', 'fake-2']);
});

test('another error than bad audio is not hidden, and an unknown --embedder is refused naming the known ones', async () => {
  const broken: SpeakerEmbedder = { modelId: 'broken', dimension: 1, embed: async () => { throw new Error('native failure'); } };
  await assert.rejects(jointEmbedders([broken]).views[0]!.embed(new Float32Array(4)), /native failure/);
  await assert.rejects(loadBenchSpeakerEmbedder('ecapa'), /moonshine-l1/);
});
