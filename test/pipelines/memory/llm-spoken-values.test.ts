/**
 * The LLM extractor keeps a value said in words in digits, as the rules do (rules 55; values #4), against the
 * OpenAI-compatible TEST DOUBLE (no network, no real LLM): the model copies the turn's words, what is stored reads digits.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ChatRequestBody } from '../../doubles/openai-double.js';
import { LlmJsonClient } from '../../../pipelines/memory/llm-client.js';
import { LlmExtractor } from '../../../pipelines/memory/llm-extractor.js';
import { spokenValue } from '../../../pipelines/memory/spoken-values.js';
import { currentTurn, withLlmDouble } from '../../helpers/llm-consolidation.js';

type Reply = Record<string, unknown>;
const fact = (subject: string, content: string, extra: Reply): Reply => ({
  content, kind: 'profile', subject, slot: null, value: null, retraction: false, confidence: 0.9, valid_until: null, valid_from: null,
  settles: null, plan_object: null, ...extra,
});

/** A model that writes the values as the turn says them, in words. */
function wordyChat(body: ChatRequestBody): string {
  const { text, speaker: s } = currentTurn(body);
  const facts: Reply[] = [];
  const profile_updates: Reply[] = [];
  if (text.includes('call me on')) {
    facts.push(fact(s, "Ben's phone number is five five five oh one four two", { slot: 'phone_number', value: 'five five five oh one four two' }));
    profile_updates.push({ participant: s, attribute: 'phone_number', value: 'five five five oh one four two' });
  } else if (text.includes('elm street')) {
    facts.push(fact(s, 'Ben lives at twelve elm street', { slot: 'home_address', value: 'twelve elm street' }));
  } else if (text.includes('order number')) {
    facts.push(fact(s, "Ben's order number is two thousand and five", { slot: 'order_number', value: 'two thousand and five' }));
  } else if (text.includes('your order')) {
    facts.push(fact(s, "Ben changed Tom's order to size 56", { kind: 'statement' }));
  } else if (text.includes('kids')) {
    facts.push(fact(s, 'Ben has two kids', { slot: 'children', value: 'two' }));
  }
  return JSON.stringify({ facts, profile_updates });
}

describe('LLM extractor: values said in words are stored in digits (OpenAI-compatible test double)', () => {
  const fixture = withLlmDouble(wordyChat);

  async function extract(text: string): Promise<{ facts: unknown[]; profile: unknown[] }> {
    const llm = new LlmJsonClient({ baseURL: fixture.double.baseURL, apiKey: 'test-key', model: 'double-model' });
    const r = await new LlmExtractor(llm, { assistantNames: [] }).extract({
      current: { id: 'u1', speakerId: 'p_ben', addresseeIds: ['p_tom'], text, time: '2026-11-23T10:00:00.000Z', sessionId: 's', confidence: null } as never,
      previous: [], names: { p_ben: 'Ben', p_tom: 'Tom' },
    });
    return { facts: r.facts.map((f) => [f.content, f.value]), profile: r.profileUpdates.map((p) => [p.attribute, p.value]) };
  }

  test('a phone number, a house number and an order number in digits; a count stays a word', async () => {
    assert.deepEqual(await extract('call me on five five five oh one four two'), {
      facts: [["Ben's phone number is 5550142", '5550142']], profile: [['phone_number', '5550142']],
    });
    assert.deepEqual((await extract('I live at twelve elm street')).facts, [['Ben lives at 12 elm street', '12 elm street']]);
    assert.deepEqual((await extract('my order number is two thousand and five')).facts, [["Ben's order number is 2005", '2005']]);
    assert.deepEqual((await extract('I have two kids')).facts, [['Ben has two kids', 'two']]);
  });
});

describe('spokenValue: a value given alone', () => {
  test('a number or a house number in digits, else as it is', () => {
    const cases: Array<[string, string]> = [
      ['five five two zero', '5520'], ['double oh seven.', '007'], ['one hundred and five Hill Road', '105 Hill Road'],
      ['two', 'two'], ['Leeds', 'Leeds'], ['two kids', 'two kids'], ['5520', '5520'],
    ];
    for (const [said, stored] of cases) assert.equal(spokenValue(said), stored, said);
  });
});

describe('LLM extractor: a vocative narrows the addressees of the facts (rules 65; OpenAI-compatible test double)', () => {
  const fixture = withLlmDouble(wordyChat);

  test('"Tom, I changed your order to size 56", said to Maria and Tom, is said to Tom', async () => {
    // On main b4863cfa: said to Maria and Tom, so the change looked for Maria's orders as well as Tom's.
    const llm = new LlmJsonClient({ baseURL: fixture.double.baseURL, apiKey: 'test-key', model: 'double-model' });
    const to = async (text: string): Promise<string[][]> => (await new LlmExtractor(llm, { assistantNames: [] }).extract({
      current: { id: 'u1', speakerId: 'p_ben', addresseeIds: ['p_maria', 'p_tom'], text, time: '2026-11-23T10:00:00.000Z', sessionId: 's', confidence: null } as never,
      previous: [], names: { p_ben: 'Ben', p_tom: 'Tom', p_maria: 'Maria' },
    })).facts.map((f) => f.addresseeIds);
    assert.deepEqual(await to('Tom, I changed your order to size 56.'), [['p_tom']]);
    assert.deepEqual(await to('I changed your order to size 56.'), [['p_maria', 'p_tom']]);
  });
});
