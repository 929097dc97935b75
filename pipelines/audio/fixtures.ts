import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../models/repo-root.js';
import { readWav } from './wav.js';

/** One utterance of a fixture file; times in ms from the file start. */
export interface FixtureUtterance { text: string; start_ms: number; end_ms: number }
/** A multi-utterance fixture WAV made by `scripts/make-fixtures.sh`. */
export interface AudioFixture { file: string; voice: string; utterances: FixtureUtterance[]; path: string }

/** The fixtures under `test/fixtures/audio/` with their true speech spans (for tests and benchmarks). */
export function loadAudioFixtures(): AudioFixture[] {
  const dir = path.join(repoRoot(), 'test', 'fixtures', 'audio');
  const list = JSON.parse(readFileSync(path.join(dir, 'utterances.json'), 'utf8')) as Omit<AudioFixture, 'path'>[];
  return list.map((f) => ({ ...f, path: path.join(dir, f.file) }));
}

/** A fixture's 16 kHz samples. */
export function fixtureSamples(f: AudioFixture): Float32Array {
  return readWav(f.path).samples;
}
