import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { pino } from 'pino';
import { loggerOptions } from '../../server/logger.js';

test('personal data is redacted from logs, wherever it is nested', () => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const log = pino(loggerOptions('info'), sink);
  log.info({ text: 'I am pregnant', utterance: { text: 'my PIN is 1234', transcript: 'x' }, question: 'where is Ana?', name: 'Ana' }, 'stored');
  log.info({ req: { method: 'GET', url: '/v1/stream?token=key-alpha-123&session_id=s1', headers: { authorization: 'Bearer k' } } }, 'request');
  // Encoded names reach the router decoded, so they authenticate: they must be redacted too.
  log.info({ req: { method: 'GET', url: '/v1/stream?%74oken=key-beta-456&TOKEN=key-gamma-789&x=%41' } }, 'request');
  const out = lines.join('');
  for (const secret of ['pregnant', '1234', 'where is Ana', '"Ana"', 'key-alpha-123', 'key-beta-456', 'key-gamma-789']) {
    assert.ok(!out.includes(secret), `log leaked ${secret}: ${out}`);
  }
  assert.match(out, /\[redacted\]/);
  assert.match(out, /session_id=s1/);
  assert.match(out, /x=A/, 'other parameters stay readable');
});
