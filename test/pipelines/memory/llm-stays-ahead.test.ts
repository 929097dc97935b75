/**
 * Stays said ahead from the LLM extractor (rules 31), against the OpenAI-compatible TEST DOUBLE (no network, no real LLM):
 * the reply's `valid_from`, or with none the start the rules read from the turn, is the stay's start; no attribute now.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatRequestBody } from '../../doubles/openai-double.js';
import { shownAttributes } from '../../../pipelines/interaction/participant-attributes.js';
import { parseValidFrom } from '../../../pipelines/memory/llm-extractor.js';
import { FACTS_SCHEMA, FACTS_SYSTEM_PROMPT } from '../../../pipelines/memory/llm-prompts.js';
import { currentTurn, llmConsolidation, withLlmDouble } from '../../helpers/llm-consolidation.js';

type Reply = Record<string, unknown>;
const fact = (subject: string, content: string, extra: Reply): Reply => ({
  content, kind: 'profile', subject, slot: null, value: null, retraction: false, confidence: 0.9, valid_until: null, valid_from: null,
  settles: null, plan_object: null, ...extra,
});

/** Scripted replies keyed on the current turn's text (said on Tuesday 1 December 2026). */
function scriptedChat(body: ChatRequestBody): string {
  const { text: current, speaker: s } = currentTurn(body);
  const facts: Reply[] = [];
  const profile_updates: Reply[] = [];
  if (current.includes('I live in Lisbon')) {
    facts.push(fact(s, 'Sol lives in Lisbon', { slot: 'lives_in', value: 'Lisbon' }));
    profile_updates.push({ participant: s, attribute: 'lives_in', value: 'Lisbon' });
  } else if (current.includes('in Tokyo for two weeks')) {
    // As the prompt asks: the first and last day; the model also (wrongly) asks for the attribute now.
    facts.push(fact(s, 'Sol will be staying in Tokyo', { slot: 'staying_in', value: 'Tokyo', valid_from: '2027-01-01', valid_until: '2027-01-14' }));
    profile_updates.push({ participant: s, attribute: 'staying_in', value: 'Tokyo' });
  } else if (current.includes('in Vienna next week')) {
    // A reply with no valid_from (a model that leaves it null): the start is read from the turn.
    facts.push(fact(s, 'Sol is staying in Vienna', { slot: 'staying_in', value: 'Vienna', valid_until: '2026-12-13' }));
  }
  return JSON.stringify({ facts, profile_updates });
}

describe('LLM extractor: a stay said ahead holds from its start (OpenAI-compatible test double)', () => {
  const fixture = withLlmDouble(scriptedChat);

  async function say(tenant: string, texts: Array<[string, string]>) {
    const { graph, memory, handler } = llmConsolidation(fixture, { decider: false, onOps: () => {} });
    const sol = await graph.createParticipant(tenant, { name: 'Sol' });
    const ana = await graph.createParticipant(tenant, { name: 'Ana' });
    await graph.openSession(tenant, 's', texts[0]![1]);
    for (const [k, [text, time]] of texts.entries()) {
      const [u] = await graph.addUtterances(tenant, [{ sessionId: 's', speakerId: sol.id, addresseeIds: [ana.id], text,
        startMs: null, endMs: null, time, confidence: null, audioRef: null }]);
      await handler({ id: `${tenant}-${k}`, name: 'memory.consolidate', attempt: 1, data: { tenant, sessionId: 's', utteranceId: u!.id } },
        new AbortController().signal);
    }
    return { graph, memory, sol };
  }

  test('the prompt asks for valid_from; the schema requires it', () => {
    assert.match(FACTS_SYSTEM_PROMPT, /valid_from/);
    const items = FACTS_SCHEMA.properties.facts.items;
    assert.ok('valid_from' in items.properties);
    assert.ok((items.required as readonly string[]).includes('valid_from'));
  });

  test('valid_from is the stay\'s start; the home stays; staying_in only from the start to the end', async () => {
    const { graph, memory, sol } = await say('a1', [['I live in Lisbon.', '2026-11-02T10:00:00.000Z'],
      ["Next month I'm in Tokyo for two weeks.", '2026-12-01T12:00:00.000Z']]);
    const tokyo = (await memory.listFacts('a1', { subjectId: sol.id, slot: 'staying_in' }))[0];
    assert.equal(tokyo?.validFrom, '2027-01-01T00:00:00.000Z');
    assert.equal(tokyo?.validUntil, '2027-01-15T00:00:00.000Z');
    const stored = (await graph.getParticipant('a1', sol.id))!.attributes;
    assert.equal(shownAttributes(stored, '2026-12-02T00:00:00.000Z')['staying_in'], undefined, 'not before it begins');
    assert.equal(shownAttributes(stored, '2027-01-05T00:00:00.000Z')['staying_in'], 'Tokyo');
    assert.equal(shownAttributes(stored, '2027-01-05T00:00:00.000Z')['lives_in'], 'Lisbon');
    assert.equal(shownAttributes(stored, '2027-01-16T00:00:00.000Z')['staying_in'], undefined);
  });

  test('with no valid_from in the reply, the start is read from the turn', async () => {
    const { memory, sol } = await say('a2', [["I'm in Vienna next week.", '2026-12-01T12:00:00.000Z']]);
    const vienna = (await memory.listFacts('a2', { subjectId: sol.id, slot: 'staying_in' }))[0];
    assert.equal(vienna?.validFrom, '2026-12-07T00:00:00.000Z');
    assert.equal(vienna?.validUntil, '2026-12-14T00:00:00.000Z');
  });
});

describe('parseValidFrom', () => {
  const said = '2026-12-01T10:00:00.000Z';
  test('a day to come begins at its midnight', () => {
    assert.equal(parseValidFrom('2027-01-01', said), '2027-01-01T00:00:00.000Z');
  });
  test('none for today, a day behind, or what is not a day', () => {
    for (const raw of [null, undefined, 7, '', 'Monday', '2026-12-01', '2026-11-20', '2027-01', '2027-01-01T00:00:00Z']) {
      assert.equal(parseValidFrom(raw, said), undefined, String(raw));
    }
  });
  test('none for a day the calendar does not have (Date.parse reads "2027-02-30" as 2 March)', () => {
    for (const raw of ['2027-02-30', '2027-04-31']) assert.equal(parseValidFrom(raw, said), undefined, raw);
  });
});
