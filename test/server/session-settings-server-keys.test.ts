/**
 * storeopen 2: the session's agents are kept under a key of the server's own (`$agents`); `session.update` refuses it,
 * every other `$` key, and `agents` (where clients named agents before), so no client data is ever read as agents.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SESSION_AGENTS_KEY } from '../../pipelines/interaction/session-metadata.js';
import { validateSessionSettings } from '../../server/ws/session-settings.js';

const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16000, channels: 1 } as const;

test('session.update refuses the server\'s keys and `agents`, naming each; a client\'s own keys are kept', () => {
  assert.equal(SESSION_AGENTS_KEY, '$agents');
  assert.throws(() => validateSessionSettings({ [SESSION_AGENTS_KEY]: ['p_1'], $pending_rename: {}, agents: ['p_2'], language: 'en' }, FORMAT),
    (err: Error & { code?: string }) => err.code === 'PARLEY_ERR_BAD_FRAME'
      && /\$agents is not a session setting/.test(err.message) && /\$pending_rename is not a session setting: keys beginning with "\$" are the server's/.test(err.message)
      && /(^|[^$])agents is not a session setting/.test(err.message) && /nothing was changed/.test(err.message));
  assert.deepEqual(validateSessionSettings({ language: 'en', metadata: { $crm: 'x', agents: ['p_2'] }, crm: 'CRM-1' }, FORMAT),
    { language: 'en', metadata: { $crm: 'x', agents: ['p_2'] }, crm: 'CRM-1' }, 'keys inside the client\'s metadata object are its own');
});
