/** Versioned prompts and JSON schemas for the LLM memory paths. Bump the version on any change. */

export const FACTS_PROMPT_VERSION = 'facts-v1';
export const DECIDE_PROMPT_VERSION = 'decide-v1';

const KINDS = ['statement', 'preference', 'plan', 'commitment', 'request', 'relation', 'profile'];

export const FACTS_SYSTEM_PROMPT = `You extract long-term memory from a multi-party spoken conversation.
Read the CURRENT turn; earlier turns are context only. Return facts stated or implied by the CURRENT turn.
Each fact must be self-contained: replace I/me/my with the speaker's name and you/your with the addressees' names
(use the ids given when a name is unknown), and write relative dates followed by the resolved ISO date
(e.g. "next Friday 2026-12-04") using the turn's time. kind is one of ${KINDS.join(', ')}.
subject is the participant id (or "entity:<name>") the fact is about. slot names what the fact fills for
the subject when a newer value replaces an older one (e.g. lives_in, works_at, preference:<thing>,
relation:<role>), else null. Set retraction true when the turn withdraws an earlier fact
("I don't like X anymore", "cancel that"). profile_updates are background or preference attributes
of participants (attribute "name" for a self-introduction). Return {"facts":[],"profile_updates":[]} when nothing.`;

/** JSON schema for `response_format: json_schema` (strict). */
export const FACTS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['facts', 'profile_updates'],
  properties: {
    facts: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['content', 'kind', 'subject', 'slot', 'value', 'retraction', 'confidence'],
        properties: {
          content: { type: 'string' },
          kind: { type: 'string', enum: KINDS },
          subject: { type: 'string' },
          slot: { type: ['string', 'null'] },
          value: { type: ['string', 'null'] },
          retraction: { type: 'boolean' },
          confidence: { type: 'number' },
        },
      },
    },
    profile_updates: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['participant', 'attribute', 'value'],
        properties: { participant: { type: 'string' }, attribute: { type: 'string' }, value: { type: 'string' } },
      },
    },
  },
} as const;

export const DECIDE_SYSTEM_PROMPT = `You maintain a memory of facts. Given a NEW fact and EXISTING current facts about
the same subject (with ids), choose one operation: ADD (new information), UPDATE (the new fact replaces one
existing fact: give its id), DELETE (the new fact withdraws existing facts: give their ids), KEEP (already
known: give the id). Never drop information silently.`;

export const DECIDE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['op', 'ids'],
  properties: {
    op: { type: 'string', enum: ['ADD', 'UPDATE', 'DELETE', 'KEEP'] },
    ids: { type: 'array', items: { type: 'string' } },
  },
} as const;
