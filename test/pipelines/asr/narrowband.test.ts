import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { NARROWBAND_OPTIONS, narrowbandAsrConfig } from '../../../pipelines/asr/narrowband.js';
import { PocketsphinxAsr } from '../../../pipelines/asr/pocketsphinx-asr.js';
import { fixtureSamples, loadAudioFixtures } from '../../../pipelines/audio/fixtures.js';

describe('narrowband recogniser settings', () => {
  test('pocketsphinx gets the narrowband options under the operator\'s own; other backends need no second recogniser', () => {
    const c = narrowbandAsrConfig({ kind: 'pocketsphinx', maxDecoders: 2 });
    assert.deepEqual(c, { kind: 'pocketsphinx', maxDecoders: 2, options: { ...NARROWBAND_OPTIONS } });
    const own = narrowbandAsrConfig({ kind: 'pocketsphinx', options: { '-ds': '3' } });
    assert.equal(own?.kind === 'pocketsphinx' ? own.options?.['-ds'] : null, '3', 'the operator\'s option wins');
    assert.equal(narrowbandAsrConfig({ kind: 'openai', apiKey: 'k' }), null);
    const unspotted = narrowbandAsrConfig({ kind: 'pocketsphinx', nameSpotting: { maxNames: 10 }, narrowbandNameSpotting: false });
    assert.equal(unspotted?.kind === 'pocketsphinx' ? unspotted.nameSpotting : null, false, 'narrowbandNameSpotting false: no spotting on phone lines');
    const spotted = narrowbandAsrConfig({ kind: 'pocketsphinx', nameSpotting: { maxNames: 10 } });
    assert.deepEqual(spotted?.kind === 'pocketsphinx' ? spotted.nameSpotting : null, { maxNames: 10 });
    const moon = { kind: 'moonshine', model: 'moonshine-tiny', modelDir: '/m/moonshine-tiny' } as const;
    assert.deepEqual(narrowbandAsrConfig({ kind: 'pocketsphinx', narrowbandRecogniser: moon }), moon, 'a named phone-line recogniser serves 8 kHz streams');
  });

  test('the narrowband options load in pocketsphinx and recognise speech', async () => {
    const c = narrowbandAsrConfig({ kind: 'pocketsphinx', maxDecoders: 1 });
    assert.ok(c && c.kind === 'pocketsphinx');
    const asr = PocketsphinxAsr.load(c);
    try {
      const f = loadAudioFixtures().find((x) => x.file === 'awb.wav')!;
      const turn = asr.startTurn();
      const x = fixtureSamples(f);
      for (let i = 0; i < x.length; i += 1600) turn.accept(x.subarray(i, i + 1600));
      const { text } = await turn.finish();
      assert.match(text, /weather|sister|coffee/);
    } finally {
      await asr.close();
    }
  });
});
