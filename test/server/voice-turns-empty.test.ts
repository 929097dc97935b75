/**
 * trial11 F3: a caller's turn with partials, then no transcript.final and nothing logged. A turn recognised as no words
 * gets no transcript.final (docs/PROTOCOL.md) but is logged at info with its turn id; a final kept from the latest
 * partial is stored, and logged.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AudioSessionEvent } from '../../pipelines/audio/audio-events.js';
import { ArrivalClock } from '../../server/ws/arrival-clock.js';
import { VoiceTurns } from '../../server/ws/voice-turns.js';
import type { VoiceTurnsDeps, VoiceTurnsHost } from '../../server/ws/voice-turns-host.js';

/** A host that records what the voice side sends, logs and queues; nothing is stored. */
function host(): { session: VoiceTurnsHost; infos: [Record<string, unknown>, string][]; sent: string[]; queued: number } {
  let turns = 0;
  const rec = { infos: [] as [Record<string, unknown>, string][], sent: [] as string[], queued: 0 };
  const session = {
    tenant: 't', id: 's', pendingExternalId: null, agents: new Set<string>(),
    log: { info: (o: Record<string, unknown>, m: string) => rec.infos.push([o, m]), warn: () => {}, error: () => {}, debug: () => {} },
    send: (type: string) => rec.sent.push(type),
    notify: () => {},
    nextTurnId: () => `turn-${++turns}`,
    enqueue: () => { rec.queued += 1; },
  };
  return { session: session as unknown as VoiceTurnsHost, get infos() { return rec.infos; }, get sent() { return rec.sent; }, get queued() { return rec.queued; } };
}

const final = (turnId: number, text: string, fromPartial?: true): AudioSessionEvent => ({
  type: 'final', turnId, text, startMs: 500, endMs: 2000, confidence: 0, audio: new Float32Array(16), audioOffsetMs: 300, asr: 'pocketsphinx',
  ...(fromPartial ? { fromPartial } : {}),
});

describe('voice turns that end with no words (trial11 F3)', () => {
  test('an empty final sends no transcript.final and is logged at info with its turn id; one kept from a partial is stored', () => {
    const h = host();
    const deps = { audioNow: () => 0 } as unknown as VoiceTurnsDeps;
    const voice = new VoiceTurns(h.session, deps, { encoding: 'mulaw', sampleRate: 8000 } as never);
    const onEvent = (e: AudioSessionEvent): void => (voice as unknown as { onEvent: (e: AudioSessionEvent, o: number, a: ArrivalClock) => void })
      .onEvent(e, 1000, new ArrivalClock(() => 0));
    onEvent({ type: 'speech_started', turnId: 1, audioStartMs: 500 });
    onEvent(final(1, '  '));
    assert.deepEqual(h.sent, ['vad.speech_started']);
    assert.equal(h.queued, 0, 'nothing to store');
    assert.deepEqual(h.infos, [[{ turnId: 'turn-1', startMs: 1500, endMs: 3000 }, 'turn recognised as no words: not stored, no transcript.final']]);
    onEvent({ type: 'speech_started', turnId: 2, audioStartMs: 2500 });
    onEvent(final(2, 'hello what was what did one hundred', true));
    assert.equal(h.queued, 1, 'stored, as any turn with words');
    assert.deepEqual(h.infos[1], [{ turnId: 'turn-2' }, 'the recogniser\'s final had no words: the turn is stored with its latest partial text']);
  });
});
