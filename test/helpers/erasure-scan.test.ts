/**
 * The erasure scans' `holdsSecret` (review1 finding 9): bytes are searched as bytes, so a secret of any script is found
 * in a blob or a file, and a digits-only secret is no leak only inside a run of hex digits as long as an id's.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newId } from '../../graph/core/ids.js';
import { holdsSecret } from './erasure-scan.js';

test('a non-ASCII secret is found in a blob (UTF-8 bytes) and in a cell', () => {
  assert.equal(holdsSecret(Buffer.from('name=Zoë;'), 'Zoë'), true);
  assert.equal(holdsSecret(Buffer.from('x Łódź y'), 'Łódź'), true);
  assert.equal(holdsSecret('name=ZOË;', 'Zoë'), true, 'a cell: case aside');
  assert.equal(holdsSecret(Buffer.from('name=Zoe;'), 'Zoë'), false);
  // Bytes as they are: the Latin-1 spelling of "Zoë" is other bytes than its UTF-8.
  assert.equal(holdsSecret(Buffer.from('name=Zoë;', 'latin1'), 'Zoë'), false);
});

test('a digits-only secret next to a byte that looks like a hex digit, outside a hex run, is found', () => {
  assert.equal(holdsSecret(Buffer.from([0x04, ...Buffer.from('4471'), 0x61]), '4471'), true);
  assert.equal(holdsSecret(Buffer.from([0x61, ...Buffer.from('4471'), 0x00]), '4471'), true);
  assert.equal(holdsSecret('locker 4471b', '4471'), true);
  assert.equal(holdsSecret('my locker code is 4471.', '4471'), true);
  // A SQLite record: a text column ending in the code, the next one an id (its prefix starts with hex letters).
  assert.equal(holdsSecret(Buffer.from(`code 4471${newId('fact')}`), '4471'), true);
  assert.equal(holdsSecret('no code here', '4471'), false);
});

test('a digits-only secret inside a random id is no leak (the CI failure of 7b76b708)', () => {
  assert.equal(holdsSecret('bus_3e0a92744718fc0d1b2e4f6a7c8d9e0f', '4471'), false);
  assert.equal(holdsSecret('bus_3e0a9fa4471bc0d1b2e4f6a7c8d9e0f1', '4471'), false, 'hex letters on both sides');
  assert.equal(holdsSecret(Buffer.from('origin=bus_3e0a92744718fc0d1b2e4f6a7c8d9e0f;'), '4471'), false);
  // At an id's very end or start too: the run around it is the id's.
  assert.equal(holdsSecret('bus_3e0a92748fc0d1b2e4f6a7c8d9e04471', '4471'), false);
  assert.equal(holdsSecret(Buffer.from('4471a92748fc0d1b2e4f6a7c8d9e0f12-'), '4471'), false);
  // Nor is it a part of a longer number.
  assert.equal(holdsSecret('"startMs":144710,', '4471'), false);
});

test('a digits-only secret that is a group of a uuid is no leak (an erasure lease owner is one)', () => {
  assert.equal(holdsSecret('owner=3f2b9c1e-4471-4a2b-9c1d-0e1f2a3b4c5d;', '4471'), false);
  assert.equal(holdsSecret(Buffer.from('3f2b9c1e-8a7d-4471-9c1d-0e1f2a3b4c5d'), '4471'), false);
  // A code said next to dashes is no uuid: "call 555-4471" names it.
  assert.equal(holdsSecret('call 555-4471 today', '4471'), true);
});
