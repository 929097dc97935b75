import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withoutParticipantIds } from '../../../pipelines/memory/consolidate.js';

test('memory text never shows a participant id: each becomes how that participant is shown', () => {
  const a = 'p_0123456789abcdef0123456789abcdef';
  const b = 'p_fedcba9876543210fedcba9876543210';
  const shown = (id: string): string => (id === a ? 'Ana' : 'the caller');
  assert.equal(withoutParticipantIds(`${b} likes hiking. ${a} told ${b} about Porto`, shown), 'The caller likes hiking. Ana told the caller about Porto');
  assert.equal(withoutParticipantIds('no ids here, p_short stays', shown), 'no ids here, p_short stays');
});
