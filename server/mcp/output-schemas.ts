import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { Type, type TSchema } from '@sinclair/typebox';
import { FactView, NAMED_SCHEMAS, ParticipantView, PersonaNodeView, ref } from '../protocol/http-schemas.js';

/** `get_participant`'s result: the participant (null for someone only talked about), their facts, profile and persona. */
export const ParticipantDetail = Type.Object({
  participant: Type.Union([ref(ParticipantView), Type.Null()], { description: 'null for a name only memories hold (talked_about)' }),
  talked_about: Type.Optional(Type.Object(
    { names: Type.Array(Type.String(), { description: 'the names looked for' }) },
    { description: 'only when talked_about was asked for and no participant holds the name' },
  )),
  facts: Type.Array(ref(FactView), { description: 'current facts' }),
  profile: Type.Array(ref(FactView), { description: 'current profile facts' }),
  persona: Type.Array(ref(PersonaNodeView), { description: 'empty for someone only talked about' }),
});

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const NAMED = new Map(NAMED_SCHEMAS.map((s) => [s.$id as string, JSON.parse(JSON.stringify(s)) as Json]));

/**
 * `schema` as self-contained JSON Schema: each `$ref` to a named HTTP schema (`ref()`) replaced by that schema, its
 * own keywords (a description) kept, and no `$id` left, since a client compiles each tool's schema on its own and the
 * same named schema may appear twice in one. The HTTP routes' response schemas thus serve as the tools' `outputSchema`.
 */
export function inlineSchema(schema: TSchema): Tool['outputSchema'] {
  return inline(JSON.parse(JSON.stringify(schema)) as Json, []) as Tool['outputSchema'];
}

function inline(node: Json, seen: readonly string[]): Json {
  if (Array.isArray(node)) return node.map((n) => inline(n, seen));
  if (node === null || typeof node !== 'object') return node;
  const { $ref, $id: _id, ...rest } = node;
  const out: { [key: string]: Json } = {};
  if (typeof $ref === 'string') {
    const named = NAMED.get($ref);
    if (!named || seen.includes($ref)) throw new Error(`cannot inline the schema reference ${$ref}`);
    Object.assign(out, inline(named, [...seen, $ref]));
  }
  for (const [key, value] of Object.entries(rest)) out[key] = inline(value, seen);
  return out;
}
