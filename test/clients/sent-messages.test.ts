import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClientMessage, ClientMessages, ServerEvents } from '../../clients/typescript/src/generated/api.js';
import { SentMessages } from '../../clients/typescript/src/sent-messages.js';

/** A message as the socket pump hands it over: the object sent and its wire text. */
const sent = (message: ClientMessage) => ({ kind: 'json' as const, message, text: JSON.stringify(message) });

const utterance = (text: string, utteranceId?: string): ClientMessages['utterance'] =>
  ({ type: 'utterance', speaker: 'Tex', text, ...(utteranceId !== undefined ? { utterance_id: utteranceId } : {}) });

let seq = 0;
/** The server's `transcript.final` of turn `turnId`, stored as `utteranceId`. */
const final = (turnId: string, utteranceId: string, text: string): ServerEvents['transcript.final'] => ({
  type: 'transcript.final', session_id: 's', seq: ++seq, turn_id: turnId, utterance_id: utteranceId, text,
  start_ms: null, end_ms: null, confidence: null, speaker: { id: 'p_1', name: 'Tex', confidence: 1, is_new: false }, addressees: [],
});

test('SentMessages: two id-less utterances with the same text are two messages; the one never acknowledged is reported as the object sent', () => {
  const messages = new SentMessages();
  const first = utterance('Yes.');
  const second = utterance('Yes.');
  messages.record(sent(first));
  messages.record(sent(second));
  messages.acknowledge(final('turn_1', 'u_server_1', 'Yes.'));
  const { resend, lost } = messages.resume();
  assert.deepEqual(resend, []);
  assert.equal(lost.length, 1);
  assert.equal(lost[0]!.message, second, 'the server answers in arrival order: the first was stored, the second is the one lost');
  assert.deepEqual(lost[0], { type: 'utterance', text: 'Yes.', message: second });
});

test('SentMessages: a spoken turn with the same words acknowledges no text utterance', () => {
  const messages = new SentMessages();
  const typed = utterance('Yes.');
  messages.record(sent(typed));
  messages.acknowledge({ type: 'vad.speech_started', session_id: 's', seq: ++seq, turn_id: 'turn_4', audio_start_ms: 0 });
  messages.acknowledge(final('turn_4', 'u_spoken', 'Yes.'));
  assert.deepEqual(messages.resume().lost.map((l) => l.message), [typed], 'the typed one was never acknowledged');
});

test('SentMessages: a second acknowledgement of an utterance id (sent twice) is not taken for an id-less utterance of the same text', () => {
  const messages = new SentMessages();
  const withId = utterance('Yes.', 'm-1');
  const without = utterance('Yes.');
  messages.record(sent(withId));
  messages.record(sent(withId));
  messages.record(sent(without));
  messages.acknowledge(final('turn_1', 'm-1', 'Yes.'));
  messages.acknowledge(final('turn_1', 'm-1', 'Yes.'));
  const { resend, lost } = messages.resume();
  assert.deepEqual(resend, []);
  assert.deepEqual(lost.map((l) => l.message), [without]);
});

test('SentMessages: what goes out again is the message as sent (the same object and wire text), in the order first sent; queries are reported', () => {
  const messages = new SentMessages();
  const one = utterance('Memo 1.', 'm-1');
  const two = utterance('Memo 2.', 'm-2');
  const query: ClientMessages['query'] = { type: 'query', id: 'q-1', question: 'What is the memo?' };
  for (const m of [one, query, two]) messages.record(sent(m));
  const { resend, lost } = messages.resume();
  assert.deepEqual(resend.map((r) => r.message), [one, two]);
  assert.equal(resend[0]!.message, one);
  assert.equal(resend[1]!.text, JSON.stringify(two));
  assert.deepEqual(lost, [{ type: 'query', id: 'q-1', message: query }]);
  assert.equal(messages.resent, 2);
  assert.deepEqual(messages.lost, lost);
});
