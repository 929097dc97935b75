import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema, ErrorCode as McpErrorCode, ListToolsRequestSchema, McpError,
  type CallToolResult, type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import type { FastifyInstance } from 'fastify';
import { ParleyError, toClientError } from '../../graph/core/errors.js';
import {
  IdParams, ParticipantErasedResponse, ParticipantsResponse, PostUtterancesBody, PostUtterancesResponse, QueryResponse, SessionIdParams,
  ParticipantRefParams, ParticipantsQuery, TranscriptQuery, TranscriptResponse,
} from '../protocol/http-schemas.js';
import { valueErrorsText } from '../protocol/ws-messages.js';
// Registers `format: date-time` (of utterances' `time`) with TypeBox.
import '../protocol/iso-time.js';
import { factViews } from '../routes/memories.js';
import { erasePerson, listParticipantViews } from '../routes/participants.js';
import { forgetTarget } from '../routes/forget.js';
import type { ForgetReport } from '../../pipelines/interaction/forget-utterances.js';
import { askMemory, QueryBody } from '../routes/query.js';
import { sessionTranscript, storeUtterances, withSpeakerWarnings } from '../routes/sessions.js';
import { participantView, personaNodeView } from '../routes/views.js';
import { inlineSchema, ParticipantDetail } from './output-schemas.js';
import { type MemoryOwner, ownerFilter, resolveMemoryOwner } from '../../pipelines/interaction/named-memories.js';
import { resolveParticipantRef } from '../../pipelines/interaction/participant-ref.js';

/** The MCP server's name and version as it reports them in `initialize`. */
export const MCP_SERVER_INFO = { name: 'parley', version: '1' } as const;

const AddUtterancesInput = Type.Object({
  session_id: SessionIdParams.properties.session_id,
  utterances: PostUtterancesBody.properties.utterances,
  idempotency_key: Type.Optional(Type.String({
    minLength: 1, maxLength: 200,
    description: 'as the Idempotency-Key header of POST /v1/sessions/{id}/utterances: resending the same batch with it stores nothing twice',
  })),
}, { additionalProperties: false });

const ParticipantInput = Type.Object({ id: ParticipantRefParams.properties.id }, { additionalProperties: false });
const GetParticipantInput = Type.Object({
  id: ParticipantRefParams.properties.id,
  talked_about: Type.Optional(Type.Boolean({
    description: 'Also answer for a name no participant holds but memories name (someone others talk about): ' +
      '`participant` null and `talked_about` set. Default false: such a name is PARLEY_ERR_NOT_FOUND.',
  })),
}, { additionalProperties: false });
const TranscriptInput = Type.Object(
  { session_id: SessionIdParams.properties.session_id, ...TranscriptQuery.properties }, { additionalProperties: false },
);
const ParticipantsInput = Type.Object({ ...ParticipantsQuery.properties }, { additionalProperties: false });

/** What one MCP call runs with: the app's stores and pipelines, scoped to one tenant. */
interface ToolContext {
  app: FastifyInstance;
  tenant: string;
}

interface ToolDef<S extends TSchema> {
  name: string;
  title: string;
  description: string;
  input: S;
  /** What a successful call returns (`structuredContent`): the HTTP route's response schema where there is one. */
  output: TSchema;
  annotations: Tool['annotations'];
  run(ctx: ToolContext, args: Static<S>): Promise<unknown>;
}

interface CompiledTool<S extends TSchema> extends ToolDef<S> {
  check: TypeCheck<S>;
  /** `output` as self-contained JSON Schema, as `tools/list` shows it. */
  outputSchema: Tool['outputSchema'];
}

function tool<S extends TSchema>(def: ToolDef<S>): CompiledTool<S> {
  return { ...def, check: TypeCompiler.Compile(def.input), outputSchema: inlineSchema(def.output) };
}

const TOOLS = [
  tool({
    name: 'query_memory',
    title: 'Query memory',
    description: 'Ask Parley\'s long-term memory a question (as POST /v1/query): returns ranked evidence ' +
      '(utterances, facts, profile and persona items, relations) with who said it to whom and when.',
    input: QueryBody,
    output: QueryResponse,
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: ({ app, tenant }, args) => askMemory(app, tenant, args),
  }),
  tool({
    name: 'list_participants',
    title: 'List participants',
    description: 'The participants (people) Parley knows in this tenant, oldest first, with id, name, aliases and attributes: ' +
      'up to `limit` (default 1000) a call; pass `next_cursor` back as `cursor` for the next page (null on the last).',
    input: ParticipantsInput,
    output: ParticipantsResponse,
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: ({ app, tenant }, args) => listParticipantViews(app, tenant, {
      ...(args.limit !== undefined ? { limit: args.limit } : {}), ...(args.cursor !== undefined ? { cursor: args.cursor } : {}),
    }),
  }),
  tool({
    name: 'get_participant',
    title: 'Get a participant',
    description: 'One participant by id, external_id or name (as GET /v1/participants/{id}), with their current facts, profile facts and persona ' +
      '(traits, preferences, affect towards targets). A name no participant holds but memories name (someone others talk about, ' +
      'who never spoke) is PARLEY_ERR_NOT_FOUND unless talked_about is true: then participant is null, talked_about ' +
      'gives the names looked for, and facts the facts naming them.',
    input: GetParticipantInput,
    output: ParticipantDetail,
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: ({ app, tenant }, args) => participantDetail(app, tenant, args.id, args.talked_about === true),
  }),
  tool({
    name: 'add_utterances',
    title: 'Add utterances',
    description: 'Store finished utterances in a session (as POST /v1/sessions/{id}/utterances). `speaker` identifies the ' +
      'PERSON who said it: a stable user id or their name (e.g. {"speaker": "user_42", "text": "I live in Leeds"} or ' +
      '{"speaker": "Priya", ...}), never a role such as "user" or "customer": everyone posted under one label becomes one ' +
      'participant and their facts are mixed. Your own turns may use "assistant". Facts are extracted in the background. ' +
      'Returns the utterance ids, and `warnings` when a speaker label is a role word.',
    input: AddUtterancesInput,
    output: PostUtterancesResponse,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: async ({ app, tenant }, args) => withSpeakerWarnings(
      await storeUtterances(app, tenant, args.session_id, args.utterances, args.idempotency_key, 'mcp'), args.utterances),
  }),
  tool({
    name: 'get_transcript',
    title: 'Get a session transcript',
    description: 'A session\'s utterances in the order they were said (by time, ties by seq), with speaker, addressees and times, ' +
      'up to `limit` (default 1000) after `cursor`; `next_cursor` is where the next page starts (null on the last page). `after_seq` / ' +
      '`next_after_seq` are deprecated (superseded by `cursor`, still served).',
    input: TranscriptInput,
    output: TranscriptResponse,
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: ({ app, tenant }, args) => sessionTranscript(app, tenant, args.session_id, {
      ...(args.cursor !== undefined ? { cursor: args.cursor } : {}), ...(args.after_seq !== undefined ? { after_seq: args.after_seq } : {}),
      ...(args.limit !== undefined ? { limit: args.limit } : {}),
    }),
  }),
] as const;

const ERASE = tool({
  name: 'erase_participant',
  title: 'Erase a person',
  description: 'Erase a participant everywhere (as DELETE /v1/participants/{id}): profile, utterances, edges, ' +
    'memories, persona, voiceprints, audio and index entries. Irreversible.',
  input: ParticipantInput,
  output: ParticipantErasedResponse,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  run: ({ app, tenant }, args) => erasePerson(app, tenant, args.id),
});

const UtteranceInput = Type.Object({ id: IdParams.properties.id }, { additionalProperties: false });
const SessionInput = Type.Object({ session_id: SessionIdParams.properties.session_id }, { additionalProperties: false });

/** What a forgetting reports to an MCP client (HTTP answers 204 with no body). */
const ForgetResult = Type.Object({
  erased_utterances: Type.Integer({ minimum: 0 }),
  erased_memories: Type.Integer({ minimum: 0 }),
  memories_kept_without_it: Type.Integer({ minimum: 0 }),
  memories_current_again: Type.Integer({ minimum: 0, description: 'memories only the forgotten ones had replaced or deleted, current again' }),
}, { additionalProperties: false });

function forgetResult(report: ForgetReport): Record<string, number> {
  return {
    erased_utterances: report.utteranceIds.length, erased_memories: report.deletedMemoryIds.length,
    memories_kept_without_it: report.keptMemoryIds.length, memories_current_again: report.reopenedMemoryIds.length,
  };
}

/** The erasing tools, offered only with `PARLEY_MCP_ALLOW_ERASE=true` (`McpServerOptions.allowErase`). */
const ERASE_TOOLS = [ERASE, tool({
  name: 'forget_utterance',
  title: 'Forget one utterance',
  description: 'Forget one utterance ("forget what I just said"; as DELETE /v1/utterances/{id}): its text, audio, edges and vectors, ' +
    'and the memories that came only from it (a memory with another source stays, without it). Irreversible.',
  input: UtteranceInput,
  output: ForgetResult,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  run: async ({ app, tenant }, args) => forgetResult(await forgetTarget(app, tenant, { utteranceId: args.id })),
}), tool({
  name: 'forget_session',
  title: 'Forget a session',
  description: 'Forget a whole session (as DELETE /v1/sessions/{session_id}): every utterance of it as forget_utterance does, and its ' +
    'stream state. Refused while the session is live (end it first). Irreversible.',
  input: SessionInput,
  output: ForgetResult,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  run: async ({ app, tenant }, args) => forgetResult(await forgetTarget(app, tenant, { sessionId: args.session_id })),
})] as const;

/**
 * A participant with their facts, profile facts and persona nodes. A name no participant holds but stored memories name
 * (someone others talk about) is answered only when `talkedAbout` is asked for: `participant` null, `talked_about`
 * with the names looked for, the facts naming them, and no persona; otherwise it is not found, as it always was.
 * @throws ParleyError `PARLEY_ERR_NOT_FOUND` for an unknown reference (and, without `talkedAbout`, a name only memories hold).
 */
async function participantDetail(app: FastifyInstance, tenant: string, ref: string, talkedAbout: boolean): Promise<unknown> {
  const owner: MemoryOwner = talkedAbout
    ? await resolveMemoryOwner(app.stores, tenant, ref) : { participant: await resolveParticipantRef(app.stores.graph, tenant, ref) };
  const whose = ownerFilter(owner, 'any');
  const [facts, profile, persona] = await Promise.all([
    app.stores.memory.listFacts(tenant, { ...whose, layer: 'fact', limit: 200 }),
    app.stores.memory.listFacts(tenant, { ...whose, layer: 'profile', limit: 200 }),
    owner.participant ? app.stores.memory.listPersona(tenant, owner.participant.id) : [],
  ]);
  return {
    participant: owner.participant ? participantView(app, owner.participant) : null,
    ...(owner.named ? { talked_about: { names: owner.named.names } } : {}),
    facts: await factViews(app.stores.graph, tenant, facts),
    profile: await factViews(app.stores.graph, tenant, profile),
    persona: persona.map(personaNodeView),
  };
}

/**
 * A Parley error as an MCP tool error: `{"error":{"code","message"}}` as text, `isError: true`. No `structuredContent`:
 * clients check it against the tool's `outputSchema`, which describes a successful result.
 */
function toolError(code: string, message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: { code, message } }) }] };
}

function describeErrors(check: TypeCheck<TSchema>, args: unknown): string {
  return `invalid arguments: ${valueErrorsText(check.Errors(args)).join('; ')}`;
}

export interface McpServerOptions {
  /**
   * Offer `erase_participant`, `forget_utterance` and `forget_session` (`PARLEY_MCP_ALLOW_ERASE=true`); otherwise they are
   * not listed and calling one is refused.
   */
  allowErase: boolean;
}

/**
 * The tool error for a call made while the app cannot be had (its stores not open yet, say): the reason, which names
 * the backend and its setting. Its code is the failure's own where it is Parley's, else PARLEY_ERR_STORE_UNAVAILABLE.
 */
function notReadyError(err: unknown): CallToolResult {
  return err instanceof ParleyError
    ? toolError(err.code, err.message)
    : toolError('PARLEY_ERR_STORE_UNAVAILABLE', `stores not ready: ${err instanceof Error ? err.message : String(err)}`);
}

/**
 * An MCP server over Parley's memory for one tenant. Its tools run the same functions as the HTTP
 * routes (validation, idempotency, erasure); errors come back as tool errors carrying Parley's codes.
 * `app` may be a function that gives it, for an app still starting (stdio: `RetryingStart.get`): `initialize` and
 * `tools/list` are answered at once, and a tool call asks it for the app; when it throws, the call is answered with its
 * error (`stores not ready: …, retrying`).
 */
export function createMcpServer(app: FastifyInstance | (() => Promise<FastifyInstance>), tenant: string, options: McpServerOptions): Server {
  const server = new Server(MCP_SERVER_INFO, {
    capabilities: { tools: {} },
    instructions: 'Parley is a voice-memory server: it remembers who said what to whom across conversations. ' +
      'Use query_memory to recall, list_participants / get_participant to see people and what is known about them, ' +
      'add_utterances to record a conversation, get_transcript to read one back.',
  });
  const tools: readonly CompiledTool<TSchema>[] = options.allowErase ? [...TOOLS, ...ERASE_TOOLS] : TOOLS;
  const getApp = typeof app === 'function' ? app : () => Promise.resolve(app);

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map((t) => ({
      name: t.name, title: t.title, description: t.description,
      inputSchema: JSON.parse(JSON.stringify(t.input)) as Tool['inputSchema'],
      outputSchema: t.outputSchema,
      annotations: t.annotations,
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name } = request.params;
    const args: unknown = request.params.arguments ?? {};
    if (ERASE_TOOLS.some((t) => t.name === name) && !options.allowErase) {
      return toolError('PARLEY_ERR_FORBIDDEN', `${name} is disabled: start Parley with PARLEY_MCP_ALLOW_ERASE=true to allow it`);
    }
    const def = tools.find((t) => t.name === name);
    if (!def) throw new McpError(McpErrorCode.InvalidParams, `unknown tool ${name}`);
    if (!def.check.Check(args)) return toolError('PARLEY_ERR_BAD_REQUEST', describeErrors(def.check, args));
    let ready: FastifyInstance;
    try {
      ready = await getApp();
    } catch (err) {
      return notReadyError(err);
    }
    try {
      const result = await def.run({ app: ready, tenant }, args);
      return {
        content: [{ type: 'text', text: JSON.stringify(result) }],
        structuredContent: result as Record<string, unknown>,
      };
    } catch (err) {
      const mapped = toClientError(err);
      if (!(err instanceof ParleyError)) ready.log.child({ component: 'mcp' }).error({ err, tool: name }, 'MCP tool failed');
      return toolError(mapped.code, mapped.message);
    }
  });
  return server;
}
