/**
 * Re-pin test/fixtures/speaker-pins.json (test/pipelines/speaker/speaker-fit-pins.test.ts) from this build.
 *
 *   npm run build --silent && node dist/scripts/pin-speaker-fit.js
 *
 * Run it only on purpose: after a deliberate change of the speaker features, the LDA trainer or the TTS
 * clip recipe (flite / festival / sox), and then refit the speaker parameters with their scripts
 * (train-speaker-embedder, calibrate-speaker, calibrate-speaker-decision, calibrate-speaker-session), so
 * the shipped parameters stay what their scripts produce. Needs flite, festival and sox.
 */
import { writeFileSync } from 'node:fs';
import { hasTts } from '../pipelines/speaker/eval-corpus.js';
import { fixturePins, SPEAKER_PINS_FILE, ttsPins, type SpeakerPins } from '../test/helpers/speaker-pins.js';

if (!hasTts()) {
  console.error('pin-speaker-fit: flite, festival and sox are needed; nothing pinned');
  process.exit(1);
}
const pins: SpeakerPins = { ...fixturePins(), ttsStats: ttsPins() };
// 12 significant digits (the test's tolerance is 1e-9 relative), one line per clip.
const text = JSON.stringify(pins, (_k, v: unknown) => (typeof v === 'number' ? Number(v.toPrecision(12)) : v), 1)
  .replace(/\[\s+([^[\]{}]*?)\s+\]/g, (_m, inner: string) => `[${inner.replace(/\s+/g, ' ')}]`);
writeFileSync(SPEAKER_PINS_FILE, text + '\n');
console.log(`wrote ${SPEAKER_PINS_FILE}`);
