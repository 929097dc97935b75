import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { memoryEdit } from '../../../pipelines/interaction/memory-edits.js';

const home = { content: 'Ana lives in Oslo', slot: 'lives_in', value: 'Oslo' };

describe('memoryEdit: a corrected memory\'s text and value never contradict each other', () => {
  test('value alone rewrites the text in the old value\'s place (case aside)', () => {
    assert.deepEqual(memoryEdit(home, undefined, 'Bergen'), { content: 'Ana lives in Bergen', value: 'Bergen' });
    assert.deepEqual(memoryEdit({ ...home, content: 'Ana moved to OSLO last May' }, undefined, ' New York '),
      { content: 'Ana moved to New York last May', value: 'New York' });
  });

  test('value alone on a text that does not say the old value is refused, asking for text', () => {
    assert.throws(() => memoryEdit({ ...home, content: 'Ana has a flat by the fjord' }, undefined, 'Bergen'),
      { code: 'PARLEY_ERR_BAD_REQUEST', message: /does not say its value "Oslo".*give the new `text` too/ });
    assert.throws(() => memoryEdit({ content: 'Ana enjoys tea', slot: null, value: null }, undefined, 'coffee'), /fills no slot/);
  });

  test('text and value together must agree', () => {
    assert.deepEqual(memoryEdit(home, 'Ana now lives in Bergen', 'Bergen'), { content: 'Ana now lives in Bergen', value: 'Bergen' });
    assert.throws(() => memoryEdit(home, 'Ana lives in Oslo', 'Bergen'), { code: 'PARLEY_ERR_BAD_REQUEST', message: /does not say the new value "Bergen"/ });
  });

  test('text alone: the value follows it, or the edit is refused when it drops the value', () => {
    assert.deepEqual(memoryEdit(home, 'Ana lives in Bergen', undefined), { content: 'Ana lives in Bergen', value: 'Bergen' });
    assert.deepEqual(memoryEdit(home, 'Ana still lives in Oslo', undefined), { content: 'Ana still lives in Oslo' });
    assert.throws(() => memoryEdit(home, 'Ana has a flat by the sea', undefined), /give its new value as `value` too/);
  });

  test('the value is found as whole words, the last occurrence: "Rome" is not inside "Jerome", "red" not inside "Fred"', () => {
    const rome = { content: 'Jerome lives in Rome', slot: 'lives_in', value: 'Rome' };
    assert.deepEqual(memoryEdit(rome, undefined, 'Paris'), { content: 'Jerome lives in Paris', value: 'Paris' });
    assert.throws(() => memoryEdit({ content: 'Fred likes blue', slot: 'favourite:colour', value: 'blue' }, 'Fred likes blue', 'red'),
      { code: 'PARLEY_ERR_BAD_REQUEST', message: /does not say the new value "red"/ });
    assert.throws(() => memoryEdit({ ...rome, content: 'Jerome is from Romeo Street' }, undefined, 'Paris'), /does not say its value "Rome"/);
    assert.deepEqual(memoryEdit({ content: 'Ana (C++ dev) codes in C++', slot: 'language', value: 'C++' }, undefined, 'Rust'),
      { content: 'Ana (C++ dev) codes in Rust', value: 'Rust' });
    // A value the text says inflected ("love" in "loves") still holds while a new text says it so.
    const sushi = { content: 'Ben loves sushi', slot: 'preference:sushi', value: 'love' };
    assert.deepEqual(memoryEdit(sushi, 'Ben loves salmon sushi', undefined), { content: 'Ben loves salmon sushi' });
    assert.throws(() => memoryEdit(sushi, 'Ben eats salmon sushi', undefined), /give its new value as `value` too/);
  });
});
