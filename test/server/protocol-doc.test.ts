import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../../pipelines/models/repo-root.js';
import { ERRORS } from '../../graph/core/errors.js';
import { CLIENT_MESSAGES } from '../../server/protocol/ws-messages.js';
import { MemoryItemView, QueryResponse } from '../../server/protocol/http-schemas.js';

/** Every server event type, listed where the TypeScript compiler checks it against the payload map. */
import type { ServerEventType } from '../../graph/core/events.js';
const SERVER_EVENTS: Record<ServerEventType, true> = {
  'session.started': true, 'session.updated': true, 'vad.speech_started': true, 'vad.speech_stopped': true, 'audio.shed': true,
  'transcript.partial': true, 'transcript.final': true, 'memory.context': true, 'memory.updated': true,
  'speaker.merged': true, 'speaker.revised': true, 'participant.identified': true, 'query.result': true, error: true, 'session.ended': true,
};

test('docs/PROTOCOL.md names every client message, server event and error code', () => {
  const doc = readFileSync(path.join(repoRoot(), 'docs', 'PROTOCOL.md'), 'utf8');
  for (const name of [...Object.keys(CLIENT_MESSAGES), ...Object.keys(SERVER_EVENTS), ...Object.keys(ERRORS)]) {
    assert.ok(doc.includes(`\`${name}\``), `docs/PROTOCOL.md does not mention ${name}`);
  }
});

test('the error table of docs/PROTOCOL.md is graph/core/errors.ts: status, close code, retry, and what each code means', () => {
  const doc = readFileSync(path.join(repoRoot(), 'docs', 'PROTOCOL.md'), 'utf8');
  for (const [code, { status, wsClose, retryable }] of Object.entries(ERRORS)) {
    const row = doc.split('\n').find((line) => line.startsWith(`| \`${code}\` |`));
    assert.ok(row, `no table row for ${code}`);
    const [, , http, close, retry, meaning] = row.split('|').map((cell) => cell.trim());
    assert.deepEqual([Number(http), Number(close), retry?.startsWith('yes')], [status, wsClose, retryable], row);
    assert.ok((meaning ?? '').length > 10, `${code} is not explained`);
  }
});

// Newcomers read `POST /v1/query` as a question-answering endpoint and looked for the answer text in its response.
test("the README says POST /v1/query returns evidence items, not an answer, and names every field of them", () => {
  const readme = readFileSync(path.join(repoRoot(), 'README.md'), 'utf8');
  const start = readme.indexOf('## What `POST /v1/query` returns: evidence, not an answer');
  assert.ok(start >= 0, 'the README has no section on what POST /v1/query returns');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  assert.match(section, /returns \*\*evidence items, not a composed answer\s+text\*\*/);
  assert.match(section, /agent's LLM reads the\s+evidence and composes the answer/);
  const layers = MemoryItemView.properties.layer.anyOf.map((l: { const: string }) => l.const);
  for (const name of [...Object.keys(QueryResponse.properties), ...Object.keys(MemoryItemView.properties), ...layers]) {
    assert.ok(section.includes(`\`${name}\``), `the section does not name ${name}`);
  }
  assert.match(section, /```js\n[^]*fetch\('http:\/\/127\.0\.0\.1:8080\/v1\/query'[^]*llm\(/, 'the short recipe: query, then the LLM');
});
