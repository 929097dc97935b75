import type { TSchema } from '@sinclair/typebox';
import type { ServerEventType } from '../../graph/core/events.js';
import { MemoryItemView, ParticipantRef } from './http-schemas.js';
import { SERVER_EVENT_PAYLOADS, serverEventSchema } from './ws-events.js';
import {
  InputCommitMessage, ParticipantIdentifyMessage, QueryMessage, SessionEndMessage, SessionUpdateMessage, StreamQuery, UtteranceMessage,
} from './ws-messages.js';

/** What each message does, for the document (docs/PROTOCOL.md says the same in prose). */
const CLIENT: Record<string, { schema: TSchema; summary: string }> = {
  'session.update': { schema: SessionUpdateMessage, summary: 'Merge settings (language, metadata) into the session; answered by session.updated' },
  utterance: { schema: UtteranceMessage, summary: 'A finished utterance from a client with its own ASR; answered by transcript.final' },
  'input.commit': { schema: InputCommitMessage, summary: 'End the current spoken turn now' },
  query: { schema: QueryMessage, summary: 'Ask memory; answered by query.result with the same id' },
  'participant.identify': {
    schema: ParticipantIdentifyMessage,
    summary: 'Give a participant (default: the last speaker) the application\'s own id; answered by participant.identified',
  },
  'session.end': { schema: SessionEndMessage, summary: 'Finish and store the open turn, consolidate, then session.ended and close (1000)' },
};

const SERVER_SUMMARY: Record<ServerEventType, string> = {
  'session.started': 'The socket is attached to a session (new or resumed)',
  'session.updated': 'The merged session settings',
  'vad.speech_started': 'Speech started',
  'vad.speech_stopped': 'The end-of-turn decision',
  'audio.shed': 'Audio shed under overload, never heard: its exact spans, when the episode ends',
  'transcript.partial': 'The recogniser\'s text so far',
  'transcript.final': 'A stored utterance with its speaker and addressees',
  'memory.context': 'Memory relevant to the turn, ready around its end',
  'memory.updated': 'Long-term memory changed after consolidation',
  'speaker.merged': 'Two speaker ids found to be one person',
  'speaker.revised': 'One stored utterance given to another speaker (the first-turn revision)',
  'participant.identified': 'The participant now holding an external id (null while it waits for the first speaker)',
  'query.result': 'Evidence for a query message',
  error: 'An error; fatal ones close the socket',
  'session.ended': 'The session is finished; the socket closes with 1000',
};

/** Message names in AsyncAPI must be plain identifiers: `session.update` → `session_update`. */
const key = (type: string): string => type.replaceAll('.', '_');

/** TypeBox schemas as plain JSON, with `$ref: "X"` pointed at `#/components/schemas/X`. */
function plain(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema), (k, v: unknown) => (k === '$ref' && typeof v === 'string' && !v.startsWith('#') ? `#/components/schemas/${v}` : v));
}

function withoutId(schema: TSchema): unknown {
  const { $id: _id, ...rest } = plain(schema) as Record<string, unknown>;
  return rest;
}

/**
 * The WebSocket protocol of `GET /v1/stream` as an AsyncAPI 3 document, built from the same
 * TypeBox schemas the server validates client frames with and types its events by.
 */
export function asyncApiDocument(): Record<string, unknown> {
  const messages: Record<string, unknown> = {
    audio: {
      name: 'audio', title: 'Audio frame', contentType: 'application/octet-stream',
      summary: 'Binary frame: audio in the declared encoding, 10 ms to 1 s',
      payload: { type: 'string', format: 'binary' },
    },
  };
  for (const [type, { schema, summary }] of Object.entries(CLIENT)) {
    messages[key(type)] = { name: type, title: type, summary, contentType: 'application/json', payload: plain(schema) };
  }
  for (const type of Object.keys(SERVER_EVENT_PAYLOADS) as ServerEventType[]) {
    messages[key(type)] = { name: type, title: type, summary: SERVER_SUMMARY[type], contentType: 'application/json', payload: plain(serverEventSchema(type)) };
  }
  const ref = (type: string) => ({ $ref: `#/components/messages/${key(type)}` });
  const channelRef = (type: string) => ({ $ref: `#/channels/stream/messages/${key(type)}` });
  const clientTypes = ['audio', ...Object.keys(CLIENT)];
  const serverTypes = Object.keys(SERVER_EVENT_PAYLOADS);
  const security = [{ $ref: '#/components/securitySchemes/bearer' }];
  return {
    asyncapi: '3.1.0',
    info: {
      title: 'Parley stream',
      version: '1',
      description: 'The duplex audio and event protocol of GET /v1/stream (docs/PROTOCOL.md). The HTTP API is at GET /openapi.json.',
      license: { name: 'Apache-2.0' },
    },
    defaultContentType: 'application/json',
    channels: {
      stream: {
        address: '/v1/stream',
        title: 'A session stream',
        description: 'One WebSocket per session. Reconnecting with the same session_id resumes the session. '
          + 'A request refused before the upgrade opens no socket and gets no error frame: HTTP 401 PARLEY_ERR_UNAUTHORIZED '
          + '(no key or an unknown one), HTTP 400 PARLEY_ERR_BAD_REQUEST (a bad query parameter: session_id, a blank '
          + 'external_id, an unknown parameter), each with a JSON error body (docs/PROTOCOL.md).',
        messages: Object.fromEntries([...clientTypes, ...serverTypes].map((t) => [key(t), ref(t)])),
        bindings: { ws: { method: 'GET', query: withoutId(StreamQuery), bindingVersion: '0.1.0' } },
      },
    },
    operations: {
      receiveClientMessages: {
        action: 'receive', title: 'Client → server', summary: 'Audio (binary frames) and JSON text frames, handled in arrival order',
        channel: { $ref: '#/channels/stream' }, messages: clientTypes.map(channelRef), security,
      },
      sendServerEvents: {
        action: 'send', title: 'Server → client', summary: 'JSON events, each with type, session_id and seq',
        channel: { $ref: '#/channels/stream' }, messages: serverTypes.map(channelRef), security,
      },
    },
    components: {
      messages,
      schemas: { ParticipantRef: withoutId(ParticipantRef), MemoryItem: withoutId(MemoryItemView) },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <key>, or the token query parameter' },
      },
    },
  };
}
