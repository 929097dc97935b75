/** Plan objects and outcomes from the LLM extractor, against the OpenAI-compatible TEST DOUBLE (no network). */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatRequestBody } from '../../doubles/openai-double.js';
import type { SqliteMemoryStore } from '../../../graph/sqlite/sqlite-memory-store.js';
import { parsePlanObject } from '../../../pipelines/memory/llm-extractor.js';
import { FACTS_SCHEMA } from '../../../pipelines/memory/llm-prompts.js';
import type { MemoryOp } from '../../../pipelines/memory/consolidate.js';
import { llmConsolidation, withLlmDouble } from '../../helpers/llm-consolidation.js';

type Reply = Record<string, unknown>;
const fact = (subject: string, content: string, kind: string, extra: Reply): Reply => ({
  content, kind, subject, slot: null, value: null, retraction: false, confidence: 0.9, settles: null, plan_object: null, ...extra,
});

/** Canned replies keyed on the current turn's text, shaped as the schema asks. */
function cannedChat(body: ChatRequestBody): string {
  const user = body.messages.find((m) => m.role === 'user')?.content ?? '';
  const current = user.split('CURRENT TURN:')[1] ?? '';
  const s = current.match(/\((p_\w+)\)/)?.[1] ?? 'p_x';
  const facts: Reply[] = [];
  if (current.includes("return my sister's drill")) {
    facts.push(fact(s, "Ana needs to return her sister's drill", 'plan',
      { plan_object: { verb: 'return', objects: ['drill'], complements: [], people: ['sister'], reported_by: null, past: false } }));
  } else if (current.includes('returned the drill to my sister')) {
    facts.push(fact(s, 'Ana returned the drill to her sister', 'statement', { settles: 'done',
      plan_object: { verb: 'return', objects: ['the drill'], complements: ['sister'], people: ['my sister'], reported_by: null, past: true } }));
  } else if (current.includes("returned my brother's drill")) {
    facts.push(fact(s, "Ana returned her brother's drill", 'statement', { settles: 'done',
      plan_object: { verb: 'return', objects: ['drill'], complements: [], people: ['brother'], reported_by: null, past: true } }));
  } else if (current.includes('sell my piano')) {
    facts.push(fact(s, 'Ana is going to sell her piano', 'plan',
      { plan_object: { verb: 'sell', objects: ['piano'], complements: [], people: [], reported_by: null, past: false } }));
  } else if (current.includes('Mum and Dad decided')) {
    facts.push(fact(s, "Ana's mum and dad decided to sell their piano", 'statement', { settles: 'decided',
      plan_object: { verb: 'sell', objects: ['piano'], complements: [], people: [], reported_by: 'mum', past: true } }));
  } else if (current.includes('fix the kitchen tap')) {
    facts.push(fact(s, 'Ana will fix the kitchen tap', 'plan',
      { plan_object: { verb: 'fix', objects: ['tap'], complements: [], people: [], reported_by: null, which: ['Kitchen'], past: false } }));
  } else if (current.includes('fixed the tap in the bathroom')) {
    facts.push(fact(s, 'Ana fixed the tap in the bathroom', 'statement', { settles: 'done',
      plan_object: { verb: 'fix', objects: ['tap'], complements: ['bathroom'], people: [], reported_by: null, which: ['bathroom'], past: true } }));
  } else if (current.includes('fixed the tap in the kitchen')) {
    facts.push(fact(s, 'Ana fixed the tap in the kitchen', 'statement', { settles: 'done',
      plan_object: { verb: 'fix', objects: ['tap'], complements: ['kitchen'], people: [], reported_by: null, which: ['kitchen'], past: true } }));
  } else if (current.includes('sold the piano')) {
    facts.push(fact(s, 'Ana sold the piano', 'statement', { settles: 'done',
      plan_object: { verb: 'sell', objects: ['piano'], complements: [], people: [], reported_by: null, past: true } }));
  }
  return JSON.stringify({ facts, profile_updates: [] });
}

describe('LLM extractor: plan objects and outcomes (OpenAI-compatible test double)', () => {
  const fixture = withLlmDouble(cannedChat);

  /** Says each text in turn (one session a month apart each) and returns the ops of the last one. */
  async function run(tenant: string, texts: string[]): Promise<{ ops: MemoryOp[]; memory: SqliteMemoryStore }> {
    let ops: MemoryOp[] = [];
    // The rule decider (no LLM decider): it settles by the plan objects the LLM extractor wrote.
    const { graph, memory, handler } = llmConsolidation(fixture, { decider: false, onOps: (o) => { ops = o; } });
    const ana = await graph.createParticipant(tenant, { name: 'Ana' });
    const ben = await graph.createParticipant(tenant, { name: 'Ben' });
    for (const [k, text] of texts.entries()) {
      const time = `2026-0${k + 1}-01T10:00:00.000Z`;
      await graph.openSession(tenant, `s${k}`, time);
      const [u] = await graph.addUtterances(tenant, [{ sessionId: `s${k}`, speakerId: ana.id, addresseeIds: [ben.id], text,
        startMs: null, endMs: null, time, confidence: null, audioRef: null }]);
      await handler({ id: `${tenant}-${k}`, name: 'memory.consolidate', attempt: 1, data: { tenant, sessionId: `s${k}`, utteranceId: u!.id } },
        new AbortController().signal);
    }
    return { ops, memory };
  }

  test('asks for settles and plan_object in the schema and stores the plan object', async () => {
    const { memory } = await run('t1', ["I need to return my sister's drill."]);
    const props = FACTS_SCHEMA.properties.facts.items.properties;
    assert.ok('plan_object' in props && 'settles' in props);
    const sent = fixture.double.requests.filter((r) => r.path.includes('chat')).at(-1)?.body as ChatRequestBody & { response_format?: { json_schema?: { schema?: unknown } } };
    assert.equal(sent.response_format?.json_schema?.name, 'memory_facts');
    assert.match(JSON.stringify(sent.response_format?.json_schema?.schema), /"plan_object"/);
    const [plan] = await memory.listFacts('t1', {});
    assert.deepEqual(plan?.planObject, { verb: 'return', objects: ['drill'], complements: [], people: ['sister'] });
  });

  test('an outcome worded apart from the plan closes it by its plan object (UPDATE)', async () => {
    const { ops, memory } = await run('t2', ["I need to return my sister's drill.", 'I returned the drill to my sister on Monday.']);
    assert.deepEqual(ops.map((o) => o.op), ['UPDATE']);
    const facts = await memory.listFacts('t2', { includeHistory: true });
    const plan = facts.find((f) => f.kind === 'plan');
    assert.ok(plan?.validTo, 'the plan is closed');
    assert.deepEqual(facts.find((f) => f.kind === 'statement')?.planObject,
      { verb: 'return', objects: ['drill'], complements: ['sister'], people: ['sister'], past: true, actionNamed: true });
  });

  test("someone else's drill does not close the plan, though the texts share words", async () => {
    const { ops } = await run('t3', ["I need to return my sister's drill.", "I returned my brother's drill yesterday."]);
    assert.deepEqual(ops.map((o) => o.op), ['ADD']);
  });

  test('asks which one of its kind the object is; another one of that kind leaves the plan open, the same one closes it', async () => {
    assert.ok('which' in FACTS_SCHEMA.properties.facts.items.properties.plan_object.properties);
    const other = await run('t6', ["I'll fix the kitchen tap this weekend.", 'I fixed the tap in the bathroom.']);
    assert.deepEqual(other.ops.map((o) => o.op), ['ADD']);
    const [plan] = await other.memory.listFacts('t6', { kind: 'plan' });
    assert.deepEqual(plan?.planObject?.which, ['kitchen']);
    const same = await run('t7', ["I'll fix the kitchen tap this weekend.", 'I fixed the tap in the kitchen.']);
    assert.deepEqual(same.ops.map((o) => o.op), ['UPDATE']);
  });

  test('a decision told about others (reported_by) leaves the speaker\'s plan open; the speaker\'s own sale closes it', async () => {
    const told = await run('t4', ["I'm going to sell my piano.", 'Mum and Dad decided to sell their piano.']);
    assert.deepEqual(told.ops.map((o) => o.op), ['ADD']);
    const own = await run('t5', ["I'm going to sell my piano.", 'I sold the piano to a school.']);
    assert.deepEqual(own.ops.map((o) => o.op), ['UPDATE']);
  });
});

describe('parsePlanObject', () => {
  test('normalises words and drops what is not one', () => {
    assert.deepEqual(parsePlanObject({ verb: 'Give_Back', objects: ['The Drill', 42, '', 'drill'], complements: ["Tom's"], people: ['my Sister'],
      reported_by: '  Mum ', past: true }),
    { verb: 'give', phrasal: 'give_back', objects: ['drill'], complements: ['tom'], people: ['sister'], reportedBy: 'mum', past: true, actionNamed: true });
  });

  test('null for a reply that names nothing or is not an object', () => {
    assert.equal(parsePlanObject(null), null);
    assert.equal(parsePlanObject('return the drill'), null);
    assert.equal(parsePlanObject([]), null);
    assert.equal(parsePlanObject({ verb: null, objects: [], complements: [], people: ['sister'], reported_by: null, past: false }), null);
    assert.equal(parsePlanObject({ verb: 'a sentence with far too many words to be a verb lemma at all, really', objects: 'drill' }), null);
  });
});
