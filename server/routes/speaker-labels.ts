/**
 * Speaker labels that name a role, not a person. Parley keys a participant's memory on the speaker label,
 * so every person posted as "user" (or "customer", "caller"…) becomes one participant whose facts mix and
 * replace each other. Such a label is still stored (the call may be right for a one-person deployment), but
 * the answer carries a warning. The agent side ("assistant", "agent", "bot") is one party by design and not
 * flagged; a label with anything more ("user_42", "Customer Jones") is taken as an id or a name.
 */
const ROLE_WORDS = new Set([
  'user', 'users', 'the user', 'end user', 'end-user', 'enduser', 'human', 'the human', 'customer', 'the customer',
  'client', 'the client', 'caller', 'the caller', 'speaker', 'the speaker', 'me', 'you', 'i', 'person', 'guest',
  'visitor', 'participant', 'member', 'patient', 'someone', 'somebody', 'anonymous', 'unknown', 'other', 'them',
]);

/** Whether `speaker` (as posted) is a generic role word rather than a person's id or name. */
export function isRoleLabel(speaker: string): boolean {
  return ROLE_WORDS.has(speaker.trim().toLowerCase().replace(/\s+/g, ' '));
}

/**
 * One warning per distinct role label among `speakers` (in the order first met), telling the client that different
 * people posted under it are stored as one participant. Empty when every label names someone.
 */
export function roleLabelWarnings(speakers: readonly string[]): string[] {
  const labels = [...new Set(speakers.map((s) => s.trim()).filter(isRoleLabel))];
  return labels.map((label) => `speaker "${label}" is a role, not a person: every utterance posted as "${label}" is stored as ` +
    'one participant, so different people under this label get their facts mixed (one replacing the other). ' +
    'Send a stable user id or the person\'s name as speaker instead.');
}
