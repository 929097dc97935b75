/**
 * The LLM extractor prepares a turn and finishes its facts as the rules' extractor does (llmpath), against the
 * OpenAI-compatible TEST DOUBLE (no LLM runs on these machines): the assistant called by name, a raw participant id or an
 * ISO day in a fact's text, order numbers, and the doubtful-speech gate.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatRequestBody } from '../../doubles/openai-double.js';
import { currentTurn, llmConsolidation, withLlmDouble } from '../../helpers/llm-consolidation.js';
import { FACTS_SYSTEM_PROMPT } from '../../../pipelines/memory/llm-prompts.js';

type Reply = Record<string, unknown>;
const fact = (subject: string, content: string, extra: Reply = {}): Reply => ({
  content, kind: 'statement', subject, slot: null, value: null, retraction: false, confidence: 0.9, valid_until: null,
  valid_from: null, settles: null, plan_object: null, ...extra,
});

/** The ids of the current turn's line: its speaker, then its addressees (none when told to "everyone"). */
function lineIds(body: ChatRequestBody): { speaker: string; addressees: string[] } {
  const { text } = currentTurn(body);
  const [who = '', to = ''] = text.split(' -> ');
  const ids = (s: string): string[] => [...s.matchAll(/\((p_\w+)\)/g)].map((m) => m[1]!);
  return { speaker: ids(who)[0] ?? 'p_x', addressees: ids(to.split(':')[0] ?? '') };
}

/**
 * Replies as a model that writes what it is shown: "we" is the speaker and every addressee labelled in the turn's line,
 * names carry the labels' ids, and dates are glued on as ISO days; order numbers in the kind's slot.
 */
function modelChat(body: ChatRequestBody): string {
  // A model that takes every new value for a replacement of the first existing fact.
  if (body.response_format?.json_schema?.name === 'memory_decision') {
    const user = body.messages.find((m) => m.role === 'user')?.content ?? '';
    return JSON.stringify({ op: 'UPDATE', ids: [...user.matchAll(/^(f_\w+):/gm)].map((m) => m[1]).slice(0, 1), also_replaces: [] });
  }
  const { text } = currentTurn(body);
  const { speaker, addressees } = lineIds(body);
  const name = (id: string): string => new RegExp(`([\\w ]+) \\(${id}\\)`).exec(text)?.[1]?.trim().split(' ').pop() ?? id;
  const facts: Reply[] = [];
  const profile: Reply[] = [];
  if (text.includes("going to grandma's")) {
    const we = addressees.length > 0 ? `Sarah and ${addressees.map(name).join(' and ')}` : 'Sarah and others';
    facts.push(fact(speaker, `${we} are going to grandma's on Saturday`, { kind: 'plan' }));
  } else if (text.includes('call you next Friday')) {
    facts.push(fact(speaker, `${name(speaker)} (${speaker}) will call ${addressees[0]} next Friday 2026-12-04`, { kind: 'commitment' }));
  } else if (text.includes('dentist')) {
    facts.push(fact(speaker, 'Sarah has a dentist appointment (2026-12-09)', { kind: 'plan' }));
  } else if (/order number is/.test(text)) {
    const number = /number is (\d{5})/.exec(text)?.[1] ?? '';
    facts.push(fact(speaker, `Sarah's order number is ${number}`, { kind: 'profile', slot: 'order_number', value: number }));
    profile.push({ participant: speaker, attribute: 'order_number', value: number });
  } else if (text.includes("Hi, I'm Sarah")) {
    // As facts-v13 asks (rules 69's wording).
    facts.push(fact(speaker, "The speaker's name is Sarah", { kind: 'profile', slot: 'name', value: 'Sarah' }));
    profile.push({ participant: speaker, attribute: 'name', value: 'Sarah' });
  } else if (text.includes("Hello, I'm Sarah")) {
    // A model still writing the wording facts-v12 asked for.
    facts.push(fact(speaker, 'Sarah introduced herself'));
    profile.push({ participant: speaker, attribute: 'name', value: 'Sarah' });
  } else if (text.includes('I live in Leeds')) {
    facts.push(fact(speaker, 'Sarah lives in Leeds', { kind: 'profile', slot: 'lives_in', value: 'Leeds' }));
  }
  return JSON.stringify({ facts, profile_updates: profile });
}

describe('LLM extractor: the rules path\'s input preparation and fact finishing (OpenAI-compatible test double)', () => {
  const fixture = withLlmDouble(modelChat);

  /** Sarah says each text to `to` (names of participants made for the tenant) on Tuesday 1 December 2026. */
  async function say(tenant: string, texts: string[], options: { to?: string[]; confidence?: number; minAsrConfidence?: number; decider?: boolean } = {}) {
    const { graph, memory, handler } = llmConsolidation(fixture, { decider: options.decider ?? false, onOps: () => {}, minAsrConfidence: options.minAsrConfidence });
    const sarah = await graph.createParticipant(tenant, { name: 'Sarah' });
    const to = await Promise.all((options.to ?? ['Ben']).map((name) => graph.createParticipant(tenant, { name })));
    await graph.openSession(tenant, 's', '2026-12-01T10:00:00.000Z');
    for (const [k, text] of texts.entries()) {
      const [u] = await graph.addUtterances(tenant, [{ sessionId: 's', speakerId: sarah.id, addresseeIds: to.map((p) => p.id), text,
        startMs: null, endMs: null, time: `2026-12-01T10:0${k}:00.000Z`, confidence: options.confidence ?? null, audioRef: null }]);
      await handler({ id: `${tenant}-${k}`, name: 'memory.consolidate', attempt: 1, data: { tenant, sessionId: 's', utteranceId: u!.id } },
        new AbortController().signal);
    }
    return { memory, graph, sarah, to };
  }

  /** The facts requests the double received whose current turn says `said`. */
  const requestsSaying = (said: string): ChatRequestBody[] => fixture.double.requests.map((r) => r.body as ChatRequestBody)
    .filter((b) => b?.response_format?.json_schema?.name === 'memory_facts' && currentTurn(b).text.includes(said));

  test('the assistant called by name is no addressee, no one of "we" and not in the text the model reads', async () => {
    const { memory, to } = await say('assistant', ["Robot, we are going to grandma's on Saturday"], { to: ['Robot'] });
    const [plan] = await memory.listFacts('assistant', {});
    assert.equal(plan?.content, "Sarah and others are going to grandma's on Saturday");
    assert.ok(!plan?.addresseeIds.includes(to[0]!.id), 'the assistant is no addressee');
    const [request] = requestsSaying("going to grandma's");
    const user = request?.messages.find((m) => m.role === 'user')?.content ?? '';
    assert.match(user, /^ASSISTANT NAMES: robot, /m, 'the model is told the assistant\'s names');
    assert.match(user, /-> everyone: we are going to grandma's on Saturday$/m);
  });

  test('a raw participant id and an ISO day glued on are written as a person would write them', async () => {
    const { memory } = await say('ids', ["I'll call you next Friday"]);
    const [call] = await memory.listFacts('ids', {});
    assert.equal(call?.content, 'Sarah will call Ben on Friday 4 December 2026');
    assert.equal(call?.eventTime, '2026-12-04');
    const { memory: bare } = await say('bare-day', ['I have a dentist appointment']);
    assert.equal((await bare.listFacts('bare-day', {}))[0]?.content, 'Sarah has a dentist appointment on Wednesday 9 December 2026');
  });

  test('order numbers accumulate, each a slot of its own, and a new one replaces them', async () => {
    const { memory, graph, sarah } = await say('orders', ['my order number is 45721', 'my order number is 88812']);
    const current = (await memory.listFacts('orders', {})).map((f) => f.slot).sort();
    assert.deepEqual(current, ['order_number:45721', 'order_number:88812']);
    const attributes = (await graph.getParticipant('orders', sarah.id))?.attributes ?? {};
    assert.equal(attributes['order_number:45721'], '45721');
    assert.equal(attributes['order_number:88812'], '88812');
    const { memory: renewed } = await say('renewed', ['my order number is 45721', 'my new order number is 99900']);
    assert.deepEqual((await renewed.listFacts('renewed', {})).map((f) => f.slot), ['order_number:99900']);
  });

  test('with the LLM decider too, order numbers accumulate and a new one replaces them, as the rules decide', async () => {
    const { memory } = await say('orders-llm', ['my order number is 45721', 'my order number is 88812'], { decider: true });
    assert.deepEqual((await memory.listFacts('orders-llm', {})).map((f) => f.slot).sort(), ['order_number:45721', 'order_number:88812']);
    const { memory: renewed } = await say('renewed-llm', ['my order number is 45721', 'my order number is 88812', 'my new order number is 99900'],
      { decider: true });
    assert.deepEqual((await renewed.listFacts('renewed-llm', {})).map((f) => f.slot), ['order_number:99900']);
  });

  test('a self-introduction is the name slot\'s, as the rules give it, so memory.context leaves it out', async () => {
    const { memory } = await say('intro', ["Hi, I'm Sarah"]);
    const [intro] = await memory.listFacts('intro', {});
    assert.equal(intro?.slot, 'name');
    assert.equal(intro?.value, 'Sarah');
    assert.equal(intro?.content, "The speaker's name is Sarah");
  });

  test('the prompt asks for a self-introduction as the rules write it, and a reply in the older wording is written so (rules 77)', async () => {
    // On main 94365665 (facts-v12) the prompt asked for "<name> introduced themself", and the fact kept that wording.
    assert.match(FACTS_SYSTEM_PROMPT, /content\s+"The speaker's name is <name>"/);
    assert.doesNotMatch(FACTS_SYSTEM_PROMPT, /introduced themself/);
    const { memory } = await say('intro-old', ["Hello, I'm Sarah"]);
    const [intro] = await memory.listFacts('intro-old', {});
    assert.deepEqual([intro?.content, intro?.slot, intro?.value], ["The speaker's name is Sarah", 'name', 'Sarah']);
  });

  test('doubtful speech gives the LLM path nothing: no request, no fact', async () => {
    const { memory } = await say('doubtful', ['I live in Leeds'], { confidence: 0.1, minAsrConfidence: 0.35 });
    assert.deepEqual(await memory.listFacts('doubtful', {}), []);
    assert.equal(requestsSaying('I live in Leeds').length, 0, 'the turn never reached the model');
    const { memory: heard } = await say('heard', ['I live in Leeds'], { confidence: 0.9, minAsrConfidence: 0.35 });
    assert.equal((await heard.listFacts('heard', {}))[0]?.content, 'Sarah lives in Leeds');
  });
});
