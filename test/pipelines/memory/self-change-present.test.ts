/**
 * A person's own change ("I am now in London instead of Paris", "I am with Cigna instead of Aetna"; rules 68, 72) replaces
 * only their present fact of the old value ("Maria is in Paris", "Maria is with Aetna"), never a past or planned fact that
 * holds its words, and no person is such a value (rules 73, findingsD H1). Each test below failed on main d33635b2.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { changedValue } from '../../../pipelines/memory/value-change.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';

const fixtures: MemoryFixture[] = [];
after(async () => {
  for (const f of fixtures) await f.close();
});

/** The current facts of `tenant` after Maria says `first`, then `second`, to Jo. */
async function after2(tenant: string, first: string, second: string): Promise<string[]> {
  const f = await memoryFixture(tenant, ['Maria', 'Jo']);
  fixtures.push(f);
  await f.say('s1', 'Maria', ['Jo'], first, '2026-12-01T10:00:00.000Z');
  await f.say('s2', 'Maria', ['Jo'], second, '2026-12-06T10:00:00.000Z');
  return (await f.memory.listFacts(tenant, { includeHistory: true })).filter((x) => x.validTo === null).map((x) => x.content);
}

describe('a person\'s own change of value (findingsD H1)', () => {
  test('leaves a past fact that holds the old value alone', async () => {
    // On main: "Maria studied art in London" (the true fact closed); "Maria met Maria's husband in London".
    const art = await after2('t-self-art', 'I studied art in Paris.', 'I am now in London instead of Paris.');
    assert.ok(art.some((c) => /studied art in Paris/.test(c)) && !art.some((c) => /studied art in London/.test(c)), JSON.stringify(art));
    const met = await after2('t-self-met', 'I met my husband in Paris.', 'I am in London instead of Paris.');
    assert.ok(met.some((c) => /husband in Paris/.test(c)) && !met.some((c) => /husband in London/.test(c)), JSON.stringify(met));
    const lunch = await after2('t-self-lunch', 'I had lunch with Ana at work.', 'I am now at home instead of at work.');
    assert.ok(lunch.some((c) => /lunch with Ana at work/.test(c)) && !lunch.some((c) => /at home/.test(c) && /lunch/.test(c)), JSON.stringify(lunch));
  });

  test('leaves a plan alone, and a person is no value', async () => {
    // On main: "Maria is going to the cinema with Jo".
    const plan = await after2('t-self-plan', 'I am going to the cinema with Ana.', 'I am with Jo instead of Ana.');
    assert.ok(plan.some((c) => /cinema with Ana/.test(c)) && !plan.some((c) => /cinema with Jo/.test(c)), JSON.stringify(plan));
    // Who Maria is with is no value of hers (Jo is a person): "Maria is with Ana" is not replaced.
    const now = await after2('t-self-person', 'I am with Ana.', 'I am now with Jo instead of Ana.');
    assert.ok(now.includes('Maria is with Ana'), JSON.stringify(now));
  });

  test('still replaces the present fact of the old value', async () => {
    const city = await after2('t-self-city', 'I am in Paris.', 'I am now in London instead of Paris.');
    assert.ok(city.some((c) => /London/.test(c)) && !city.includes('Maria is in Paris'), JSON.stringify(city));
    const insurer = await after2('t-self-insurer', 'I studied art in Paris. I am with Aetna.', 'I am with Cigna instead of Aetna.');
    assert.ok(insurer.some((c) => /Cigna/.test(c)) && !insurer.includes('Maria is with Aetna'), JSON.stringify(insurer));
    assert.ok(insurer.some((c) => /studied art in Paris/.test(c)), JSON.stringify(insurer));
  });

  test('the old value keeps the frame said with it', () => {
    // On main: from "in the gym".
    assert.equal(changedValue('Maria is now in bed, not at the gym')?.from, 'at the gym');
    assert.equal(changedValue('Maria is now with Cigna instead of Aetna')?.from, 'with Aetna');
    assert.equal(changedValue('Maria is now with Blue Cross instead of with Aetna')?.from, 'with Aetna');
  });
});
