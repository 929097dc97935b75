import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { detectSelfIntroduction, findVocatives } from '../../../pipelines/speaker/name-patterns.js';
import { attributesNameEvidenceStore, MemoryNameEvidenceStore, nameFromSelfIntroduction, recordAddressEvidence } from '../../../pipelines/speaker/naming.js';

describe('self-introductions', () => {
  for (const [text, name] of [
    ["Hi, I'm Ana.", 'Ana'],
    ['my name is zoltan', 'Zoltan'],
    ['This is Ben speaking.', 'Ben'],
    ['Ben here, can you hear me?', 'Ben'],
    ["i'm kumar and i work on the search team", 'Kumar'],
    ['Hello everyone, I am Priya.', 'Priya'],
    ['You can call me Sam.', 'Sam'],
  ] as const)
    test(`"${text}" → ${name}`, () => assert.equal(detectSelfIntroduction(text), name));
  for (const text of ["I'm tired.", "i'm going home", "I'm sorry, I'm late", 'This is great', "I'm not sure", "i'm okay", "I'm hungry and cold", 'I am here', "I'm a teacher", 'this is it'])
    test(`no name in "${text}"`, () => assert.equal(detectSelfIntroduction(text), null));
  test('binds to the speaker at once', () => {
    assert.deepEqual(nameFromSelfIntroduction('p_1', "Hi, I'm Ana."), { participantId: 'p_1', name: 'Ana', source: 'self-introduction' });
  });
});

describe('vocatives', () => {
  test('names in address position', () => {
    assert.deepEqual(findVocatives('Thanks, Ana.'), ['Ana']);
    assert.deepEqual(findVocatives('What do you think, Ben?'), ['Ben']);
    assert.deepEqual(findVocatives('Ana, can you send the file?'), ['Ana']);
  });
  test('mentions are not address', () => {
    assert.deepEqual(findVocatives('I saw Ana at the station yesterday.'), []);
    assert.deepEqual(findVocatives('Thanks, everyone.'), []);
  });
  test('known names match case-insensitively in lower-case ASR text', () => {
    assert.deepEqual(findVocatives('thanks ana', new Set(['ana'])), ['ana']);
  });
});

describe('naming from direct address', () => {
  test('binds only after repeated consistent evidence across at least 2 sessions', async () => {
    const store = new MemoryNameEvidenceStore();
    assert.equal(await recordAddressEvidence(store, 't', 's1', 'p_9', 'Ana'), null);
    assert.equal(await recordAddressEvidence(store, 't', 's1', 'p_9', 'Ana'), null);
    assert.equal(await recordAddressEvidence(store, 't', 's1', 'p_9', 'Ana'), null, 'three events in one session are not enough');
    assert.deepEqual(await recordAddressEvidence(store, 't', 's2', 'p_9', 'ana'), { participantId: 'p_9', name: 'Ana', source: 'direct-address' });
  });
  test('inconsistent evidence does not bind', async () => {
    const store = new MemoryNameEvidenceStore();
    for (const [s, n] of [['s1', 'Ana'], ['s1', 'Maria'], ['s2', 'Ana'], ['s2', 'Maria'], ['s3', 'Ana']] as const)
      assert.equal(await recordAddressEvidence(store, 't', s, 'p_9', n), null);
  });
  test('evidence kept in participant attributes survives a new store instance', async () => {
    const attrs = new Map<string, Record<string, unknown>>([['p_1', { likes: 'tea' }]]);
    const access = { getAttributes: async (_t: string, id: string) => attrs.get(id) ?? null, patchAttributes: async (_t: string, id: string, a: Record<string, unknown>) => void attrs.set(id, a) };
    await recordAddressEvidence(attributesNameEvidenceStore(access), 't', 's1', 'p_1', 'Ben');
    await recordAddressEvidence(attributesNameEvidenceStore(access), 't', 's1', 'p_1', 'Ben');
    const r = await recordAddressEvidence(attributesNameEvidenceStore(access), 't', 's2', 'p_1', 'Ben');
    assert.equal(r?.name, 'Ben');
    assert.equal(attrs.get('p_1')!.likes, 'tea');
    assert.deepEqual(attrs.get('p_1')!.name_evidence, { ben: { events: 3, sessions: ['s1', 's2'] } });
  });
});
