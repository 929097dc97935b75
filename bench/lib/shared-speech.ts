/** The check every speaker bench makes first: the shared speech set present, or a SKIP (an error when data is required). */
import { hasSharedSpeech } from '../../pipelines/speaker/eval-corpus.js';
import { requireDataOrSkip } from './cli.js';

/**
 * Go on when the shared speech set is present; otherwise print that `bench` skipped and exit 0 (with
 * `PARLEY_BENCH_REQUIRE_DATA=1`, exit 1 with the reason on stderr: `requireDataOrSkip`).
 */
export function skipWithoutSharedSpeech(bench: string): void {
  if (hasSharedSpeech()) return;
  requireDataOrSkip('the shared speech data (../shared/data/speech)');
  console.log(`${bench}: skipped, ../shared/data/speech is absent (set PARLEY_SHARED_DATA)`);
  process.exit(0);
}
