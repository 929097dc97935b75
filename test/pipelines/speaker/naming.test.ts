import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { existsSync } from 'node:fs';
import { detectIntroduction, detectSelfIntroduction, findVocatives } from '../../../pipelines/speaker/name-patterns.js';
import { attributesNameEvidenceStore, nameFromSelfIntroduction, recordAddressEvidence } from '../../../pipelines/speaker/naming.js';
import { DEFAULT_CMUDICT } from '../../../pipelines/speaker/phonetic.js';
import { withAttribute } from '../../../graph/attribute-update.js';
import { MemoryNameEvidenceStore } from '../../doubles/memory-name-evidence-store.js';

/** Participant attributes kept in a map (a stand-in for the graph store), updated one key at a time as the store does. */
function mapAttributes(attrs: Map<string, Record<string, unknown>>) {
  return {
    getAttributes: async (_t: string, id: string) => attrs.get(id) ?? null,
    updateAttribute: async (_t: string, id: string, key: string, update: (current: unknown) => unknown) => {
      const a = attrs.get(id);
      if (!a) return null;
      attrs.set(id, withAttribute(a, key, update));
      return attrs.get(id)!;
    },
  };
}

const noDict = existsSync(process.env.PARLEY_CMUDICT ?? DEFAULT_CMUDICT) ? false : 'pocketsphinx-en-us cmudict not installed';

describe('self-introductions', () => {
  for (const [text, name] of [
    ["Hi, I'm Ana.", 'Ana'],
    ['my name is zoltan', 'Zoltan'],
    ['This is Ben speaking.', 'Ben'],
    ['Ben here, can you hear me?', 'Ben'],
    ['my name is kumar and i work on the search team', 'Kumar'],
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

describe('self-introductions in recognised speech (lower-case, no punctuation)', () => {
  for (const [text, name] of [
    ['hi this is grace', 'Grace'],
    ['i am robert i look after the delivery trucks', 'Robert'],
    ['my name is alan and biden the warehouse', 'Alan'],
    ["my name's linda", 'Linda'],
    ['tom here from the night shift', 'Tom'],
    ["it's maria from accounts", 'Maria'],
    ['you can call me jack', 'Jack'],
    ['hello im susan', 'Susan'],
    ['good morning this is david speaking', 'David'],
    ['hi this is emily from the front desk', 'Emily'],
    ["hello it's ken", 'Ken'],
    ['hello i am thomas the new dispatcher', 'Thomas'],
  ] as const)
    test(`"${text}" → ${name}`, () => assert.equal(detectSelfIntroduction(text), name));
  for (const text of ["i'm tired", 'this is great', "it's done", "i'm frank with you", 'this is will be fine', "it's may or june",
    'call me tomorrow', 'my name is wrong on the invoice', 'my name is not on the list', 'i am not sure', 'this is the last one', 'i am looking after the trucks', "i'm kumar and i work here",
    "If it's PayWell, double the estimate.", 'maybe this is Ken on the phone', "well it seems it's Tomasz again"])
    test(`no name in "${text}"`, () => assert.equal(detectSelfIntroduction(text), null));
  test('a name is one clean first name, never the next word', () => {
    assert.deepEqual(detectIntroduction('my name is alan and biden the warehouse'), { name: 'Alan', form: 'my-name', via: 'list' });
    assert.equal(detectSelfIntroduction('i am alan smith and i drive'), 'Alan');
  });
  test('a name the tenant knows counts though the list lacks it', () => {
    assert.equal(detectSelfIntroduction("i'm kumar and i work here", { known: new Set(['kumar']) }), 'Kumar');
  });
  test('a misheard name is matched by sound to a name already heard', { skip: noDict }, () => {
    // "rubber" is no name; it sounds like "robert", which others called this speaker.
    assert.deepEqual(detectIntroduction('i am rubber i look after the trucks', { known: new Set(['robert']) }), { name: 'Robert', form: 'i-am', via: 'phonetic' });
    assert.equal(detectSelfIntroduction('i am rubber i look after the trucks', { known: new Set(['susan']) }), null);
  });
  test('a known name split in two by the recogniser is matched by sound', { skip: noDict }, () => {
    assert.equal(detectSelfIntroduction("it's sus and from billing", { known: new Set(['susan']) }), 'Susan');
    assert.equal(detectSelfIntroduction("it's sus and from billing"), null);
  });
});

describe('vocatives', () => {
  test('a turn opening with a name and a request addresses that name in unpunctuated speech', () => {
    assert.deepEqual(findVocatives('robert can you send me the delivery list'), ['Robert']);
    assert.deepEqual(findVocatives('susan what do you think'), ['Susan']);
    assert.deepEqual(findVocatives('robert is late again'), []);
    assert.deepEqual(findVocatives('robert did it yesterday'), []);
  });
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
    assert.equal(await recordAddressEvidence(store, 't', 's1', 'p_9', 'Ana'), null, 'a score of three in one session is not enough');
    assert.deepEqual(await recordAddressEvidence(store, 't', 's2', 'p_9', 'ana'), { participantId: 'p_9', name: 'Ana', source: 'direct-address' });
  });
  test('enough evidence within one session binds (addressed and answering, twice)', async () => {
    const store = new MemoryNameEvidenceStore();
    for (let i = 0; i < 3; i++) assert.equal(await recordAddressEvidence(store, 't', 's1', 'p_9', 'robert'), null);
    assert.equal((await recordAddressEvidence(store, 't', 's1', 'p_9', 'robert'))?.name, 'Robert');
  });
  test('evidence written before weights counts each event once', async () => {
    const store = new MemoryNameEvidenceStore();
    await store.update('t', 'p_9', () => ({ ana: { events: 2, sessions: ['s1'] } }));
    assert.equal((await recordAddressEvidence(store, 't', 's2', 'p_9', 'ana'))?.name, 'Ana');
    assert.deepEqual(await store.get('t', 'p_9'), { ana: { events: 3, sessions: ['s1', 's2'], score: 3 } });
  });
  test('inconsistent evidence does not bind', async () => {
    const store = new MemoryNameEvidenceStore();
    for (const [s, n] of [['s1', 'Ana'], ['s1', 'Maria'], ['s2', 'Ana'], ['s2', 'Maria'], ['s3', 'Ana']] as const)
      assert.equal(await recordAddressEvidence(store, 't', s, 'p_9', n), null);
  });
  test('evidence kept in participant attributes survives a new store instance', async () => {
    const attrs = new Map<string, Record<string, unknown>>([['p_1', { likes: 'tea' }]]);
    const access = mapAttributes(attrs);
    await recordAddressEvidence(attributesNameEvidenceStore(access), 't', 's1', 'p_1', 'Ben');
    await recordAddressEvidence(attributesNameEvidenceStore(access), 't', 's1', 'p_1', 'Ben');
    const r = await recordAddressEvidence(attributesNameEvidenceStore(access), 't', 's2', 'p_1', 'Ben');
    assert.equal(r?.name, 'Ben');
    assert.equal(attrs.get('p_1')!.likes, 'tea');
    assert.deepEqual(attrs.get('p_1')!.name_evidence, { ben: { events: 3, sessions: ['s1', 's2'], score: 3 } });
  });
  test('stored evidence of another shape is not read as evidence', async () => {
    const attrs = new Map<string, Record<string, unknown>>([
      ['p_1', { name_evidence: 'Ben' }],
      ['p_2', { name_evidence: { ben: { events: 'many', sessions: ['s1'] }, ana: { events: 1, sessions: ['s1', 7] }, eva: { events: 2, sessions: ['s1'], score: 'x' } } }],
    ]);
    const access = mapAttributes(attrs);
    const store = attributesNameEvidenceStore(access);
    assert.deepEqual(await store.get('t', 'p_1'), {});
    assert.deepEqual(await store.get('t', 'p_2'), { eva: { events: 2, sessions: ['s1'] } });
    await recordAddressEvidence(store, 't', 's2', 'p_1', 'Ben');
    assert.deepEqual(attrs.get('p_1')!.name_evidence, { ben: { events: 1, sessions: ['s2'], score: 1 } });
  });
});

describe('first names the recogniser\'s dictionary lacks (census names Moonshine can write)', () => {
  test('a census name cmudict lacks is accepted in a weak form; ordinary words still are not', () => {
    assert.equal(detectSelfIntroduction("hi i'm caitlyn from the front desk"), 'Caitlyn');
    assert.equal(detectSelfIntroduction('this is graciela speaking'), 'Graciela');
    assert.equal(detectSelfIntroduction("i'm kiersten"), 'Kiersten');
    assert.equal(detectSelfIntroduction("i'm exhausted from the trip"), null);
    assert.equal(detectSelfIntroduction('this is fantastic'), null);
    assert.equal(detectSelfIntroduction("i'm kwame"), null, 'not a census name, and not known to the tenant');
  });
});
