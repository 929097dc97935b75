import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { answerQuestion } from '../../../pipelines/retrieval/agentic-query.js';
import { askingTurnFactor, asksAboutAsking, onlyAsks } from '../../../pipelines/retrieval/asking-turn.js';
import { Retriever } from '../../../pipelines/retrieval/retriever.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';

describe('turns that only ask (askingFactor)', () => {
  test('onlyAsks: a question with fewer than two content words beside it', () => {
    assert.equal(onlyAsks('That\'s awesome! What type of guitar? Been playing long?'), true);
    assert.equal(onlyAsks('Wow! Did you see that band?'), true);
    assert.equal(onlyAsks('Cool! What type of music do you play?'), true);
    assert.equal(onlyAsks('Yeah, I play clarinet! Started when I was young.'), false, 'no question');
    assert.equal(onlyAsks('I play the violin every evening. Do you play anything?'), false, 'a statement besides the question');
    assert.equal(onlyAsks('Did you see it? [shares a photo: a photo of a violin on a music stand]'), false, 'a shared photo is stated');
    assert.equal(onlyAsks(''), false);
  });

  test('asksAboutAsking and the factor', () => {
    assert.equal(asksAboutAsking('What did Ben ask Ana about her guitar?'), true);
    assert.equal(asksAboutAsking('What instruments does Melanie play?'), false);
    assert.equal(askingTurnFactor('Cool! What type of music do you play?', 'What instruments does Melanie play?', 0.5), 0.5);
    assert.equal(askingTurnFactor('Cool! What type of music do you play?', 'What did Melanie ask about music?', 0.5), 1);
    assert.equal(askingTurnFactor('I play the clarinet.', 'What instruments does Melanie play?', 0.5), 1);
    assert.equal(askingTurnFactor('Cool! What type of music do you play?', 'What instruments does Melanie play?', 1), 1, 'off');
    assert.throws(() => askingTurnFactor('x?', 'y', 1.5), /askingFactor/);
    assert.throws(() => askingTurnFactor('x?', 'y', -0.1), /askingFactor/);
    assert.throws(() => askingTurnFactor('x?', 'y', Number.NaN), /askingFactor/);
  });
});

describe('agentic question answering: a turn that only asks ranks below what was stated', () => {
  const T = 't_asking_turn';
  let f: MemoryFixture;
  let retriever: Retriever;
  before(async () => {
    f = await memoryFixture(T, ['Mia', 'Leo']);
    await f.sayBatch('s1', [
      ['Leo', 'I finally bought an electric guitar last week.'], ['Mia', 'Awesome! What type of guitar? Been playing guitar long?'],
      ['Leo', 'A Stratocaster. Only a few months.'], ['Mia', 'Cool. Music keeps me sane too.'],
    ].map(([speaker, text], i) => ({ speaker: speaker as string, addressees: [speaker === 'Mia' ? 'Leo' : 'Mia'], text: text as string, time: `2026-05-02T10:0${i}:00Z` })));
    await f.sayBatch('s2', [
      ['Mia', 'I spent the weekend practising scales on my violin.'], ['Leo', 'Nice, how long have you had it?'],
      ['Mia', 'Since I was ten.'], ['Leo', 'Impressive.'],
    ].map(([speaker, text], i) => ({ speaker: speaker as string, addressees: [speaker === 'Mia' ? 'Leo' : 'Mia'], text: text as string, time: `2026-05-09T10:0${i}:00Z` })));
    retriever = new Retriever(f, f.entities, f.embedder, { minPool: 1 });
  });
  after(async () => {
    await f.close();
  });

  const ranks = async (question: string, options: object): Promise<{ asking: number; violin: number }> => {
    const items = (await answerQuestion(retriever, T, { question, k: 5 }, options)).evidence;
    const at = (s: string): number => {
      const i = items.findIndex((x) => (x.source_text ?? x.text).includes(s));
      return i < 0 ? Infinity : i;
    };
    return { asking: at('What type of guitar'), violin: at('violin') };
  };

  test('Mia\'s question about Leo\'s guitar ranks above her violin without the factor, below it with askingFactor 0.25', async () => {
    const question = 'Which instrument does Mia play, guitar or what?';
    const off = await ranks(question, {});
    const on = await ranks(question, { askingFactor: 0.25 });
    assert.ok(off.asking < off.violin, `without the factor: asking turn ${off.asking}, violin ${off.violin}`);
    assert.ok(on.violin < on.asking, `with askingFactor 0.25: asking turn ${on.asking}, violin ${on.violin}`);
  });

  test('a question about asking keeps the asking turn where it was; a bad factor is refused', async () => {
    const question = 'What did Mia ask about the guitar?';
    assert.deepEqual(await ranks(question, { askingFactor: 0.25 }), await ranks(question, {}));
    await assert.rejects(answerQuestion(retriever, T, { question: 'What does Mia play?', k: 5 }, { askingFactor: 2 }), /askingFactor/);
  });
});
