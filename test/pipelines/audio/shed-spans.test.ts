/**
 * The spans a stream keeps of its shed audio (to say where unstored audio begins) stay bounded on a stream that sheds
 * again and again and never stores a turn; the notices still list every span exactly, and `UnstoredAudio` still names
 * the same resend point.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PIPELINE_SAMPLE_RATE } from '../../../pipelines/audio/audio-format.js';
import { MAX_KEPT_SPANS, ShedSpans } from '../../../pipelines/audio/shed-spans.js';
import { UnstoredAudio } from '../../../server/ws/unstored-audio.js';

const PER_MS = PIPELINE_SAMPLE_RATE / 1000;

/** 20 ms shed every second of stream, `n` times: separate spans. */
function shedEverySecond(spans: ShedSpans, n: number): void {
  for (let i = 0; i < n; i++) spans.add(i * 1000 * PER_MS, 20 * PER_MS);
}

test('a stream that never stores a turn keeps a bounded list of shed spans', () => {
  const spans = new ShedSpans();
  const audio = new UnstoredAudio();
  audio.newStream(spans);
  const n = MAX_KEPT_SPANS * 40;
  let listed = 0;
  for (let i = 0; i < n; i += 100) {
    for (let j = i; j < Math.min(n, i + 100); j++) spans.add(j * 1000 * PER_MS, 20 * PER_MS);
    const notice = spans.takeEpisode();
    assert.deepEqual(notice[0], { fromMs: i * 1000, untilMs: i * 1000 + 20 }, 'notices list each span as shed');
    listed += notice.length;
  }
  assert.equal(listed, n);
  assert.ok(spans.keptCount <= MAX_KEPT_SPANS, `kept ${spans.keptCount}`);
  assert.equal(spans.firstFrom(0), 0, 'the earliest shed audio still begins where it did');
  assert.equal(spans.firstFrom((n - 1) * 1000 - 500), (n - 1) * 1000, 'the latest spans stay exact');
  assert.equal(spans.firstFrom(n * 1000), null, 'nothing shed after the last span');
  assert.equal(audio.fromMs(), 0, 'the resend point is unchanged: the start of the stream');
});

test('joined spans never place shed audio later than it was', () => {
  const spans = new ShedSpans();
  shedEverySecond(spans, MAX_KEPT_SPANS + 10);
  for (let ms = 0; ms < (MAX_KEPT_SPANS + 9) * 1000; ms += 250) {
    const exact = ms % 1000 < 20 ? ms : (Math.floor(ms / 1000) + 1) * 1000;
    const first = spans.firstFrom(ms);
    assert.ok(first !== null && first <= exact, `at ${ms}: ${first}, shed from ${exact}`);
  }
});
