/**
 * trial12 F12: the doubtful-speech gate's cut per turn. `auto` (the default) gates only what the room cut was measured on,
 * pocketsphinx on wideband audio; a number gates every recognised turn; a client's text is never gated.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  DEFAULT_MIN_ASR_CONFIDENCE, doubtfulSpeech, minAsrConfidenceFor, ROOM_SPEECH_MIN_ASR_CONFIDENCE,
} from '../../../pipelines/memory/doubtful-speech.js';

const room = { asr: 'pocketsphinx', sampleRate: 16000 };
const wideRoom = { asr: 'pocketsphinx', sampleRate: 48000 };
const phone = { asr: 'pocketsphinx', sampleRate: 8000 };
const moonshine = { asr: 'moonshine', sampleRate: 16000 };
const moonshinePhone = { asr: 'moonshine', sampleRate: 8000 };

describe('doubtful speech, per turn (trial12 F12)', () => {
  test('the default is auto', () => {
    assert.equal(DEFAULT_MIN_ASR_CONFIDENCE, 'auto');
  });

  test('auto: the room cut for pocketsphinx on wideband audio, none for phone lines, other recognisers and unknown turns', () => {
    assert.equal(minAsrConfidenceFor({ heardBy: room }, 'auto'), ROOM_SPEECH_MIN_ASR_CONFIDENCE);
    assert.equal(minAsrConfidenceFor({ heardBy: wideRoom }, 'auto'), ROOM_SPEECH_MIN_ASR_CONFIDENCE);
    assert.equal(minAsrConfidenceFor({ heardBy: phone }, 'auto'), 0);
    assert.equal(minAsrConfidenceFor({ heardBy: moonshine }, 'auto'), 0);
    assert.equal(minAsrConfidenceFor({ heardBy: moonshinePhone }, 'auto'), 0);
    assert.equal(minAsrConfidenceFor({}, 'auto'), 0, 'stored before heardBy was kept, or sent over HTTP: unknown, no gate');
  });

  test('a number is the cut of every recognised turn, whatever heard it', () => {
    for (const heardBy of [room, phone, moonshine, undefined]) {
      assert.equal(minAsrConfidenceFor(heardBy ? { heardBy } : {}, 0.2), 0.2);
      assert.equal(minAsrConfidenceFor(heardBy ? { heardBy } : {}, 0), 0);
    }
  });

  test('the far-field misheard turn at 0.11 is doubtful in a room, not on a phone line; a client\'s text never is', () => {
    assert.equal(doubtfulSpeech({ confidence: 0.11, heardBy: room }, 'auto'), true);
    assert.equal(doubtfulSpeech({ confidence: 0.11, heardBy: phone }, 'auto'), false);
    assert.equal(doubtfulSpeech({ confidence: 0.11, heardBy: moonshine }, 'auto'), false);
    assert.equal(doubtfulSpeech({ confidence: 0.11 }, 'auto'), false);
    assert.equal(doubtfulSpeech({ confidence: 0.11, heardBy: phone }, 0.35), true, 'an explicit number gates phone turns too');
    assert.equal(doubtfulSpeech({ confidence: 0.6, heardBy: room }, 'auto'), false);
    assert.equal(doubtfulSpeech({ confidence: null, heardBy: room }, 'auto'), false);
    assert.equal(doubtfulSpeech({ confidence: 0.11, heardBy: room }, 0), false, '0: no gate');
  });
});
