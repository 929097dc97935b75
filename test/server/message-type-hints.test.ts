import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ParleyError } from '../../graph/core/errors.js';
import { parseClientMessage } from '../../server/ws/message-handlers.js';

/** The error a text frame is refused with. */
function refusal(raw: string): ParleyError {
  try {
    parseClientMessage(raw);
  } catch (err) {
    assert.ok(err instanceof ParleyError);
    return err;
  }
  assert.fail(`${raw} was accepted`);
}

// A newcomer's trial: `{}` was refused as `unknown message type null`, and `session_end` (or `Query`) named no
// message type it was probably meant to be, where a misspelt field does.
describe('a text frame without a known type says what is missing or what was meant', () => {
  test('no type field: says the field is missing', () => {
    const err = refusal('{"text":"hi"}');
    assert.equal(err.code, 'PARLEY_ERR_UNKNOWN_TYPE');
    assert.match(err.message, /^message has no "type" field; expected one of session\.update, /);
  });

  test('a type that is not a string: says it must be one', () => {
    assert.match(refusal('{"type":5}').message, /^message "type" must be a string; expected one of /);
  });

  test('a near miss names the type it was probably meant to be', () => {
    assert.match(refusal('{"type":"session_end"}').message, /^unknown message type "session_end"; did you mean "session\.end"\?/);
    assert.match(refusal('{"type":"Query","id":"q","question":"x"}').message, /did you mean "query"\?/);
    assert.match(refusal('{"type":"input_commit"}').message, /did you mean "input\.commit"\?/);
  });

  test('a type far from any keeps the list alone', () => {
    const err = refusal('{"type":"dance"}');
    assert.equal(err.code, 'PARLEY_ERR_UNKNOWN_TYPE');
    assert.doesNotMatch(err.message, /did you mean/);
    assert.match(err.message, /^unknown message type "dance"; expected one of /);
  });
});
