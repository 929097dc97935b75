/** Versioned prompts and JSON schemas for the LLM memory paths. Bump the version on any change. */

export const FACTS_PROMPT_VERSION = 'facts-v13';
export const DECIDE_PROMPT_VERSION = 'decide-v5';

const KINDS = ['statement', 'preference', 'plan', 'commitment', 'request', 'relation', 'profile'];
/** How an outcome settles an earlier plan (`ExtractedFact.settles`). */
export const SETTLES = ['done', 'cancelled', 'instead', 'decided'] as const;

export const FACTS_SYSTEM_PROMPT = `You extract long-term memory from a multi-party spoken conversation.
Read the CURRENT turn; earlier turns are context only. Return facts stated or implied by the CURRENT turn.
Each fact must be self-contained, as a person would write it: replace I/me/my with the speaker's name and you/your
with the addressees' names (a participant with no name as shown, "an unnamed speaker"; never a participant id, which is
only for subject and participant), and write a relative date as the calendar day it means, resolved from the turn's
time ("on Friday 4 December 2026", not "next Friday 2026-12-04"). A statement is at most 300 characters, ending at a
clause bound. kind is one of ${KINDS.join(', ')}.
subject is the participant id (or "entity:<name>") the fact is about. slot names what the fact fills for
the subject when a newer value replaces an older one (e.g. lives_in, works_at, preference:<thing>,
relation:<role>), else null. A self-introduction ("Hi, I'm Sarah") is kind profile, slot name, value the name, content
"The speaker's name is <name>". An order, booking, ticket, case or reference number is kind profile, slot
<kind>:<digits> ("order_number:45721", "booking_reference:AB123", digits joined as read out), value the digits: each number a slot of its own.
ASSISTANT NAMES, when given, are what the assistant listening is called: it is no person, never a subject or an
addressee, and its name is no part of a fact ("Robot, we are going to grandma's on Saturday" is the speaker's own
people going: "Sarah and others are going…", told to no one); a "we" said to no one is "<name> and others"; a "we"
said to two or more people is "<name> and the group" ("Ana and the group will use ClickHouse"), never naming them one by one.
Set retraction true when the turn withdraws an earlier fact
("I don't like X anymore", "cancel that"). profile_updates are background or preference attributes
of participants (attribute "name" for a self-introduction).
A stay somewhere for a time, with its end said ("I'm staying in Madrid for two weeks", "I'll be in Berlin until the
20th", "I'm visiting my parents in Ohio this month"), is kind profile, slot staying_in, value the place ("Madrid"): it
stands beside where the person lives (lives_in) and never replaces it; a stay with no end said gets no staying_in slot.
A preference held for now with no end said ("for now I prefer green tea", "these days I'm drinking decaf", "at the
moment I'm into jazz") is kind preference, slot preference:for_now, value the thing ("green tea"), its content keeping
the cue ("For now <name> prefers green tea"), valid_until null: it stands beside the person's lasting preferences
(preference:<thing>) and never replaces them; a newer one held for now replaces it. A preference held for a time with
its end said ("this week I'm really into techno", "I prefer tea for the next few days") is the same slot
preference:for_now with that end as valid_until; "my favourite <kind> is X" is a lasting preference like the others.
valid_until: when the turn says a state holds only for a time ("for two weeks", "until Friday", "this month", "till
June"), the last day it holds, as YYYY-MM-DD resolved from the turn's time; else null. An "until" clause is the end,
not part of the value or the content: "I'm working at Hooli until Friday" gives content "<name> works at Hooli", slot
works_at, value "Hooli", valid_until Friday's date.
valid_from: when the turn says a state begins after the turn ("next month I'm in Tokyo for two weeks", "from Monday I'm
staying in Oslo for ten days", "I'm in Vienna next week"), the first day it holds, as YYYY-MM-DD resolved from the
turn's time; else null. A stay said ahead is still kind profile, slot staying_in, value the place, with valid_from its
first day and valid_until its last (counted from its start), and no profile update: it does not hold yet.
A job (slot occupation or works_at) needs a person by trade: "I'm a lifeguard for the summer", "I'm a model" are
occupations; "I'm a mess this week", "I'm a zombie until I've had my coffee", "I'm a Seagulls man", "I'm a die-hard
Android person", "I'm still a rookie" are none (kind statement, slot null). A preference (preference:for_now, or a
liking said again) needs a likeable kind: a drink or food ("decaf", "Italian food", "kombucha"), music, a book or film
kind, a sport, a game or a pastime; "for now I like the plan", "I prefer Tuesday for now", "I'm back on the night
shift", "I'm listening to a podcast about taxes right now" are statements, no preference. A lasting liking said again
after one held for now ("I'm back on regular coffee", "I'm drinking black coffee again") is kind preference, slot
preference:<thing>, valid_until null. An end belongs to its own clause: "I'm working from home, and I'm a postman over
the holidays" gives the occupation "postman" valid_until the holidays' end; "I'm a postman, and over the holidays we're
at Mum's" and "I'm a postman, and I'm working from home this week" give the occupation no valid_until. A length past
belief ("for 100000 nights") ends nothing: valid_until null. Each clause that ends a job, a home, a diet or a
partner is read on its own: "I no longer eat meat and I don't work at Google anymore" gives the diet and the end of
works_at (retraction true); two jobs said together ("I'm a nurse and a part-time photographer") are two facts, the first
slot occupation, the other slot occupation:<job> ("occupation:photographer"), so neither replaces the other; "I love this
city" is a preference for the place the speaker said they live or stay in ("I live in Porto and I love this city":
preference:porto), and with no place said, a statement.
How well one does a thing is no job: "I'm a terrible cook and a worse driver", "I'm a pretty bad singer" are statements
(slot null); a job said beside one is still the job: "I'm a terrible cook and a nurse" gives slot occupation, value
"nurse". A negated clause ended by "now" withdraws as "anymore" does only what it names that is held: a slot value ("I
don't live with my parents now" is retraction true, slot lives_in, value "with my parents") or a bare habit
("I don't smoke now", retraction true); a mood ("I'm not sure now", "I'm not hungry now") or a habit qualified ("I don't smoke in
the house now") withdraws nothing and cancels no plan; "right now" and "for now" withdraw nothing. A withdrawal that
names a value ends that value only: "I'm not a photographer anymore", "I stopped being a lifeguard" are retraction true,
slot occupation, value the job ("photographer"), ending that job wherever it is held; "I left Google", "i left tesco"
are retraction true, slot works_at, value the firm ("Google"), ending the employer only if it is that one; "I don't work
at the weekend now" names no employer. "I'm not a nurse now, I'm a midwife" is two facts: the nurse withdrawn (retraction
true, slot occupation, value "nurse") and the midwife the occupation (retraction false, slot occupation).
"I gave up my job at the bank", "I packed in my job" end the employer: slot works_at, value null. An ending told as a condition, a
maybe, a plan, a time or as nearly done ("if I gave up my job…", "I might leave Google", "when I quit my job I'll
travel", "once I quit…", "the day I quit my job", "I almost quit my job") ends nothing: retraction false. A thing to eat
or drink or a pastime given up or no longer liked ("I don't drink coffee anymore", "I stopped drinking coffee", "I gave
up chocolate", "I'm not into football anymore") is kind preference, slot preference:<thing> ("preference:coffee"), value
null, retraction true. A habit given up ("I quit vaping last year", "I gave up smoking") is kind statement, slot null,
retraction true, settles "done", its date as said: no employer and no liking. "We live in York", "we're living in York
now" is where the speaker lives (slot lives_in, value "York"); "I live in hope", "we're living in fear" name no place.
A thing liked is its whole phrase: "I love the week before Christmas" is preference:week before christmas, content
"<name> loves the week before Christmas".
settles: when the turn settles an earlier plan, commitment, request or proposal, how: "done" (it was done:
"I returned the drill to my sister"), "cancelled" (withdrawn: "we called off the picnic"), "instead" (an
alternative replaces it), "decided" (a choice among proposed options: "we went with the blue sofa"); else null.
plan_object: for plans, commitments, requests, proposals and for outcomes that settle one, what the action is
about, else null: verb is the action's verb as a lemma ("return"; with its particle joined by "_" when that
changes the meaning: "give_back"), objects the head nouns of what is acted on, complements the head nouns after
its prepositions, people who the action is for or whose the thing is ("return my sister's drill" and "return
the drill to my sister" both give objects ["drill"], people ["sister"]); all lower-case, singular, no
articles or possessives, no dates. reported_by is the person the turn tells about when the plan, choice or
outcome is theirs alone and not the subject's own ("my parents are going to sell their house",
"Mum and Dad decided on a dog": "parent", "mum"), else null. which lists the words that say which one of its kind
the object is, from a compound or a phrase after it ("fix the kitchen tap" and "fix the tap in the kitchen" both give
["kitchen"], "the French course" ["french"], "the evening class" ["evening"]), else []; lower-case, singular. past is
true when the action is told as done.
Return {"facts":[],"profile_updates":[]} when nothing.`;

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
        required: ['content', 'kind', 'subject', 'slot', 'value', 'retraction', 'confidence', 'valid_until', 'valid_from', 'settles', 'plan_object'],
        properties: {
          content: { type: 'string' },
          kind: { type: 'string', enum: KINDS },
          subject: { type: 'string' },
          slot: { type: ['string', 'null'] },
          value: { type: ['string', 'null'] },
          retraction: { type: 'boolean' },
          confidence: { type: 'number' },
          valid_until: { type: ['string', 'null'] },
          valid_from: { type: ['string', 'null'] },
          settles: { type: ['string', 'null'], enum: [...SETTLES, null] },
          plan_object: {
            type: ['object', 'null'],
            additionalProperties: false,
            required: ['verb', 'objects', 'complements', 'people', 'reported_by', 'which', 'past'],
            properties: {
              verb: { type: ['string', 'null'] },
              objects: { type: 'array', items: { type: 'string' } },
              complements: { type: 'array', items: { type: 'string' } },
              people: { type: 'array', items: { type: 'string' } },
              reported_by: { type: ['string', 'null'] },
              which: { type: 'array', items: { type: 'string' } },
              past: { type: 'boolean' },
            },
          },
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
the same subject (with ids and slots), choose one operation: ADD (new information), UPDATE (the new fact replaces one
existing fact: give its id), DELETE (the new fact withdraws existing facts: give their ids), KEEP (already
known: give the id), NOOP (store nothing and end nothing, ids []: only for a NEW withdrawal of a named value that no
EXISTING fact holds, as below). Never drop information silently. also_replaces is [] except for a liking said again: when the
NEW fact is a lasting liking (slot preference:<thing>) and an EXISTING fact holds a liking for now (slot
preference:for_now), answer UPDATE with the for-now fact's id in ids and, in also_replaces, the id of every EXISTING
fact of the NEW fact's slot (the stored copies of the liking, e.g. "Ana loves coffee"): all are replaced by the NEW fact.
A NEW withdrawal of a named job (retraction, slot occupation, value the job: "Ana is not a photographer anymore")
DELETEs only the EXISTING facts of that job, whether slot occupation or occupation:<job> ("Ana is also a part-time
photographer"), never another job ("Ana is a nurse"); with none of that job, NOOP (a job denied that was never held is
no job to store). Any other NEW withdrawal that names a value (retraction, slot works_at, lives_in, diet…, value "Tesco",
"the weekend", "London") DELETEs only the EXISTING facts of that slot holding that value (case and "the" aside),
never another value ("Ana left tesco" does not end "Ana works at the bank"); with none of that value while the slot
holds another, NOOP; with no EXISTING fact of that slot at all, ADD. A withdrawal of a liking (slot preference:<thing>) ends that slot whatever its value.`;

export const DECIDE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['op', 'ids', 'also_replaces'],
  properties: {
    op: { type: 'string', enum: ['ADD', 'UPDATE', 'DELETE', 'KEEP', 'NOOP'] },
    ids: { type: 'array', items: { type: 'string' } },
    also_replaces: { type: 'array', items: { type: 'string' } },
  },
} as const;
