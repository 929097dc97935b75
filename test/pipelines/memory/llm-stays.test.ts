/** Stays and "until" ends from the LLM extractor, against the OpenAI-compatible TEST DOUBLE (no network, no real LLM). */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatRequestBody } from '../../doubles/openai-double.js';
import { parseValidUntil } from '../../../pipelines/memory/llm-extractor.js';
import { FACTS_PROMPT_VERSION, FACTS_SCHEMA, FACTS_SYSTEM_PROMPT } from '../../../pipelines/memory/llm-prompts.js';
import { currentTurn, llmConsolidation, withLlmDouble } from '../../helpers/llm-consolidation.js';

type Reply = Record<string, unknown>;
const fact = (subject: string, content: string, extra: Reply): Reply => ({
  content, kind: 'profile', subject, slot: null, value: null, retraction: false, confidence: 0.9, valid_until: null, settles: null,
  plan_object: null, ...extra,
});

/** Scripted replies keyed on the current turn's text, shaped as the schema asks (said on 2026-12-01). */
function scriptedChat(body: ChatRequestBody): string {
  const { text: current, speaker: s } = currentTurn(body);
  const facts: Reply[] = [];
  if (current.includes('I live in Leeds')) {
    facts.push(fact(s, 'Ana lives in Leeds', { slot: 'lives_in', value: 'Leeds' }));
  } else if (current.includes('staying in Madrid for two weeks')) {
    facts.push(fact(s, 'Ana is staying in Madrid', { slot: 'staying_in', value: 'Madrid', valid_until: '2026-12-14' }));
  } else if (current.includes('working at Hooli until Friday')) {
    facts.push(fact(s, 'Ana works at Hooli', { slot: 'works_at', value: 'Hooli', valid_until: '2026-12-04' }));
  } else if (current.includes("I'm in Oslo")) {
    // A stay with no end, in the reply or its text: no staying_in slot.
    facts.push(fact(s, 'Ana is in Oslo', { slot: 'staying_in', value: 'Oslo' }));
  }
  return JSON.stringify({ facts, profile_updates: [] });
}

describe('LLM extractor: stays and until ends (OpenAI-compatible test double)', () => {
  const fixture = withLlmDouble(scriptedChat);

  /** Ana says each text in turn, in one session on 1 December 2026 (Tuesday), a minute apart. */
  async function say(tenant: string, texts: string[]) {
    const { graph, memory, handler } = llmConsolidation(fixture, { decider: false, onOps: () => {} });
    const ana = await graph.createParticipant(tenant, { name: 'Ana' });
    const ben = await graph.createParticipant(tenant, { name: 'Ben' });
    await graph.openSession(tenant, 's', '2026-12-01T10:00:00.000Z');
    for (const [k, text] of texts.entries()) {
      const time = `2026-12-01T10:0${k}:00.000Z`;
      const [u] = await graph.addUtterances(tenant, [{ sessionId: 's', speakerId: ana.id, addresseeIds: [ben.id], text,
        startMs: null, endMs: null, time, confidence: null, audioRef: null }]);
      await handler({ id: `${tenant}-${k}`, name: 'memory.consolidate', attempt: 1, data: { tenant, sessionId: 's', utteranceId: u!.id } },
        new AbortController().signal);
    }
    return { memory, ana };
  }

  test('the prompt names the staying_in slot and asks for valid_until; the schema requires it', () => {
    // Told since facts-v9; later versions keep it (the content checks below are what matter).
    assert.ok(Number(/^facts-v(\d+)$/.exec(FACTS_PROMPT_VERSION)?.[1]) >= 9, FACTS_PROMPT_VERSION);
    assert.match(FACTS_SYSTEM_PROMPT, /staying_in/);
    assert.match(FACTS_SYSTEM_PROMPT, /valid_until/);
    const items = FACTS_SCHEMA.properties.facts.items;
    assert.ok('valid_until' in items.properties);
    assert.ok((items.required as readonly string[]).includes('valid_until'));
  });

  test('a stay lands as staying_in with its end, beside the home it leaves open', async () => {
    const { memory, ana } = await say('t1', ['I live in Leeds.', "I'm staying in Madrid for two weeks."]);
    const sent = fixture.double.requests.filter((r) => r.path.includes('chat')).at(-1)?.body as ChatRequestBody;
    assert.match(sent.messages.find((m) => m.role === 'system')?.content ?? '', /staying_in/);
    const facts = await memory.listFacts('t1', { subjectId: ana.id, kind: 'profile' });
    const stay = facts.find((f) => f.slot === 'staying_in');
    assert.equal(stay?.value, 'Madrid');
    assert.equal(stay?.validUntil, '2026-12-15T00:00:00.000Z');
    const home = facts.find((f) => f.slot === 'lives_in');
    assert.equal(home?.value, 'Leeds');
    assert.equal(home?.validTo ?? null, null, 'the home stays open');
  });

  test('an until clause is the end of the job, not its value', async () => {
    const { memory } = await say('t2', ["I'm working at Hooli until Friday."]);
    const [job] = await memory.listFacts('t2', { slot: 'works_at' });
    assert.equal(job?.value, 'Hooli');
    assert.equal(job?.validUntil, '2026-12-05T00:00:00.000Z');
  });

  test('a staying_in reply with no end said anywhere keeps no stay slot', async () => {
    const { memory } = await say('t3', ["I'm in Oslo."]);
    const facts = await memory.listFacts('t3', {});
    assert.equal(facts.length, 1);
    assert.equal(facts[0]?.slot, null);
    assert.equal(facts[0]?.validUntil ?? null, null);
  });
});

describe('parseValidUntil', () => {
  const said = '2026-12-01T10:00:00.000Z';
  test('the last day a state holds ends where the next day begins', () => {
    assert.equal(parseValidUntil('2026-12-04', said), '2026-12-05T00:00:00.000Z');
    assert.equal(parseValidUntil(' 2026-12-01 ', said), '2026-12-02T00:00:00.000Z');
  });
  test('no end for what is not a day to come', () => {
    for (const raw of [null, undefined, 42, '', 'Friday', '2026-12', '2026-13-45', '2026-11-30', '2026-12-04T00:00:00Z']) {
      assert.equal(parseValidUntil(raw, said), undefined, String(raw));
    }
  });
  test('no end for a day the calendar does not have (Date.parse reads "2027-02-30" as 2 March)', () => {
    for (const raw of ['2027-02-30', '2027-04-31', '2028-02-30']) assert.equal(parseValidUntil(raw, said), undefined, raw);
    assert.equal(parseValidUntil('2028-02-29', said), '2028-03-01T00:00:00.000Z');
  });
});
