import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClientMessage, ClientMessages, ServerEvents } from '../../clients/typescript/src/generated/api.js';
import { SentMessages, withUtteranceId } from '../../clients/typescript/src/sent-messages.js';

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

test('withUtteranceId: an utterance without an id gets one of the client\'s, in the form the server accepts; one with an id and other messages are unchanged', () => {
  const bare = utterance('Yes.');
  const given = withUtteranceId(bare) as ClientMessages['utterance'];
  assert.match(given.utterance_id!, /^sdk-[A-Za-z0-9_.:-]{1,124}$/);
  assert.equal(bare.utterance_id, undefined, 'the application\'s object is not changed');
  assert.notEqual((withUtteranceId(bare) as ClientMessages['utterance']).utterance_id, given.utterance_id, 'each send has its own id');
  const own = utterance('Yes.', 'm-1');
  assert.equal(withUtteranceId(own), own);
  const query: ClientMessages['query'] = { type: 'query', id: 'q-1', question: 'What?' };
  assert.equal(withUtteranceId(query), query);
});

test('SentMessages: a late transcript.final of an old socket\'s utterance, answered on the new socket, acknowledges that utterance, never a newer one', () => {
  const messages = new SentMessages();
  messages.resume();
  const old = utterance('Old memo.', 'sdk-old');
  messages.record(sent(old));
  const { resend } = messages.resume();
  assert.deepEqual(resend.map((r) => r.message), [old], 'unacknowledged at the drop: sent again');
  const socket = messages.currentSocket;
  for (const r of resend) messages.record(r);
  const newer = utterance('New memo.', 'sdk-new');
  messages.record(sent(newer));
  // The server answers the old socket's message late, on the new socket.
  messages.acknowledge(final('turn_1', 'sdk-old', 'Old memo.'), socket);
  const after = messages.resume();
  assert.deepEqual(after.resend.map((r) => r.message), [newer], 'the newer one still waits and is sent again; the old one (stored) is not');
  assert.deepEqual(after.lost, []);
});

test('SentMessages: the acknowledgement of a resent utterance, which may answer its earlier send, forgets none sent before it', () => {
  const messages = new SentMessages();
  messages.resume();
  const a = utterance('Memo A.', 'sdk-a');
  const b = utterance('Memo B.', 'sdk-b');
  for (const m of [a, b]) messages.record(sent(m));
  const { resend } = messages.resume();
  const socket = messages.currentSocket;
  for (const r of resend) messages.record(r);
  messages.acknowledge(final('turn_b', 'sdk-b', 'Memo B.'), socket);
  assert.deepEqual(messages.resume().resend.map((r) => r.message), [a], 'A, resent before B and not yet answered, still waits');
});

test('SentMessages: an utterance the server refused (an error naming no id) is forgotten once a later one of that socket is acknowledged; a stored one is never taken for it', () => {
  const messages = new SentMessages();
  messages.resume();
  const socket = messages.currentSocket;
  const refused = { ...utterance('Bad times.', 'sdk-bad'), start_ms: 10, end_ms: 5 };
  const stored = utterance('Good memo.', 'sdk-good');
  const waiting = utterance('Still waiting.', 'sdk-wait');
  for (const m of [refused, stored, waiting]) messages.record(sent(m));
  messages.acknowledge({ type: 'error', session_id: 's', seq: ++seq, code: 'PARLEY_ERR_BAD_FRAME', fatal: false, message: 'end_ms < start_ms' }, socket);
  messages.acknowledge(final('turn_1', 'sdk-good', 'Good memo.'), socket);
  assert.equal(messages.pending, 1);
  const { resend, lost } = messages.resume();
  assert.deepEqual(resend.map((r) => r.message), [waiting], 'only the one sent after the acknowledged one may still be unanswered');
  assert.deepEqual(lost, []);
});

test('SentMessages: a full queue\'s drop names the utterance by its id; voice turns and repeated acknowledgements keep nothing', () => {
  const messages = new SentMessages();
  messages.resume();
  const socket = messages.currentSocket;
  const dropped = utterance('Dropped.', 'sdk-drop');
  messages.record(sent(dropped));
  messages.acknowledge({
    type: 'error', session_id: 's', seq: ++seq, code: 'PARLEY_ERR_OVERLOADED', fatal: false, message: 'queue full',
    dropped: { type: 'utterance', utterance_id: 'sdk-drop' },
  }, socket);
  assert.equal(messages.pending, 0);
  for (let i = 0; i < 10_000; i++) {
    const m = utterance(`Memo ${i}.`, `sdk-${i}`);
    messages.record(sent(m));
    messages.acknowledge({ type: 'vad.speech_started', session_id: 's', seq: ++seq, turn_id: `turn_v${i}`, audio_start_ms: 0 }, socket);
    messages.acknowledge(final(`turn_v${i}`, `u_spoken_${i}`, 'Spoken.'), socket);
    messages.acknowledge(final(`turn_${i}`, `sdk-${i}`, m.text), socket);
    messages.acknowledge(final(`turn_${i}`, `sdk-${i}`, m.text), socket);
  }
  assert.equal(messages.pending, 0, 'nothing acknowledged or spoken is kept');
  assert.deepEqual(messages.resume(), { resend: [], lost: [] });
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

test('SentMessages: a query an error answers (its id) is no longer waited for: not reported lost after a drop', () => {
  const messages = new SentMessages();
  const refused: ClientMessages['query'] = { type: 'query', id: 'q-ana', question: 'What did I say?', asker: 'Ana' };
  const open: ClientMessages['query'] = { type: 'query', id: 'q-open', question: 'What is the memo?' };
  for (const m of [refused, open]) messages.record(sent(m));
  messages.acknowledge({
    type: 'error', session_id: 's', seq: ++seq, code: 'PARLEY_ERR_CONFLICT', fatal: false, message: '"Ana" names 2 participants', id: 'q-ana',
  }, messages.currentSocket);
  assert.equal(messages.pending, 1);
  assert.deepEqual(messages.resume().lost.map((m) => m.id), ['q-open']);
});
