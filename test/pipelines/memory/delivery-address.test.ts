/**
 * Trial 8 (a call centre): an address told or asked for fills the delivery slot of the one it is for, town kept; a request
 * is the asker's; a cancellation names the order it closes by number or by thing.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { deliveryTo, statedAddress } from '../../../pipelines/memory/delivery-address.js';
import { homeAddress } from '../../../pipelines/memory/home-address.js';
import { cancelledOrders } from '../../../pipelines/memory/cancelled-plans.js';
import type { Candidate } from '../../../pipelines/memory/decide.js';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { factsSaid } from '../../helpers/extract-said.js';
import { storedFact } from '../../helpers/stored-fact.js';

const TIME = '2026-12-02T10:00:00.000Z';

describe('trial 8: addresses', () => {
  test('a stated address keeps its town; "now" and "has changed to" say it; what is no address fills nothing', () => {
    assert.deepEqual(statedAddress('My delivery address is 5 Hill Road, Bristol.'),
      { owner: 'speaker', what: 'delivery address', slot: 'delivery_address', value: '5 Hill Road, Bristol' });
    assert.equal(statedAddress('My delivery address is now 22 Quay Street, Bath.')?.value, '22 Quay Street, Bath');
    assert.equal(statedAddress('so my address has changed to flat 3, Rose Court, Leeds')?.slot, 'address');
    assert.equal(statedAddress('your billing address is 9 Elm Grove')?.owner, 'addressee');
    for (const no of ['My email address is ann@example.com', 'My delivery address is the same as before', 'My address is in the system']) {
      assert.equal(statedAddress(no), null, no);
    }
  });

  test('a request sends to an address, what follows it cut; a person or a place without a number is none', () => {
    assert.equal(deliveryTo('deliver it to 12 Park Road in Leeds'), '12 Park Road in Leeds');
    assert.equal(deliveryTo('deliver the kettle to 4 Mill Lane in York instead of Park Road'), '4 Mill Lane in York');
    assert.equal(deliveryTo('send the parcel to 7 Bridge Street by Friday'), '7 Bridge Street');
    for (const no of ['send the report to Ben', 'bring it to the park', 'deliver it tomorrow']) assert.equal(deliveryTo(no), null, no);
  });

  test('a request is keyed on the one asking, told to an agent or not; the address fills their delivery slot', async () => {
    const [f] = await factsSaid('Please deliver it to 12 Park Road in Leeds.', TIME, ['m', 'Maria'], ['k', 'Agent Kim']);
    assert.deepEqual([f?.content, f?.kind, f?.subjectId, f?.slot, f?.value],
      ['Maria asked Agent Kim to deliver it to 12 Park Road in Leeds', 'request', 'm', 'delivery_address', '12 Park Road in Leeds']);
    const [g] = await factsSaid('Can you book the room for Friday?', TIME, ['a', 'Ana'], ['b', 'Ben']);
    assert.deepEqual([g?.kind, g?.subjectId, g?.slot], ['request', 'a', null]);
  });
});

describe('one reading of an address, home or stated (mend10)', () => {
  test('trailing punctuation is off the address whatever space follows it, as for a stated address', () => {
    // Before, the home address kept it when a space came after ("5 Hill Road ,").
    assert.deepEqual(homeAddress('I live at 5 Hill Road , ', (said) => said), { address: '5 Hill Road', town: null });
    assert.equal(statedAddress('My address is 5 Hill Road , ')?.value, '5 Hill Road');
    assert.equal(homeAddress('I live at the end of the lane', (said) => said)?.address, 'the end of the lane');
    assert.equal(homeAddress('I live at the end of it', (said) => said), null);
  });
});

describe('trial 8: a cancellation names the order it closes', () => {
  const order = (id: string, content: string, objects: string[]): Candidate => ({ score: 0.5, fact: storedFact(TIME, {
    id, content, speakerId: 't', subjectId: 't', planObject: { verb: 'order', objects, complements: [], past: true },
  }) });
  const cancel = (content: string, objects: string[], settles = 'cancelled'): ExtractedFact =>
    ({ content, settles, planObject: { verb: 'cancel', objects, complements: [] } }) as unknown as ExtractedFact;
  const chairs = order('f1', 'Tom ordered four garden chairs, order 5520', ['chair']);
  const sofa = order('f2', 'Tom ordered a blue sofa, order 7781', ['sofa']);

  test('by its number or by the thing ordered; another number or thing closes nothing', () => {
    const ids = (c: Candidate[]): string[] => c.map((x) => x.fact.id);
    assert.deepEqual(ids(cancelledOrders(cancel('Agent Raj has cancelled order 5520', ['order']), [chairs, sofa])), ['f1']);
    assert.deepEqual(ids(cancelledOrders(cancel('Tom wants to cancel the sofa', ['sofa']), [chairs, sofa])), ['f2']);
    assert.deepEqual(ids(cancelledOrders(cancel('Tom wants to cancel order 9999', ['order']), [chairs, sofa])), []);
    assert.deepEqual(ids(cancelledOrders(cancel('Tom cancelled the dinner', ['dinner']), [chairs, sofa])), []);
    assert.deepEqual(ids(cancelledOrders(cancel('Tom ordered order 5520 again', ['order'], 'done'), [chairs])), []);
  });
});
