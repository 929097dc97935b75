/**
 * The words that name no person among the speakers and addressees of a conversation: the one owner of that vocabulary.
 * Two parties go by such words. The person's side by a role ("user", "customer", "caller"…): Parley keys a participant's
 * memory on the speaker label, so every person posted under a role becomes one participant whose facts mix and replace
 * each other; the HTTP and MCP answers warn about it (`server/routes/speaker-labels.ts`). The agent's side by a role
 * ("assistant", "agent", "bot") or by the name people call it ("Robot, we're going…"): one party by design, never warned
 * about; its names are no listener and no one of "we" in the embedded extractor's facts (`memory/assistant-names.ts`).
 */

/**
 * Speaker labels that name a person's role, not a person (compared trimmed, lower-case, spaces collapsed). A label with
 * anything more ("user_42", "Customer Jones") is taken as an id or a name.
 */
export const PERSON_ROLE_LABELS: ReadonlySet<string> = new Set([
  'user', 'users', 'the user', 'end user', 'end-user', 'enduser', 'human', 'the human', 'customer', 'the customer',
  'client', 'the client', 'caller', 'the caller', 'speaker', 'the speaker', 'me', 'you', 'i', 'person', 'guest',
  'visitor', 'participant', 'member', 'patient', 'someone', 'somebody', 'anonymous', 'unknown', 'other', 'them',
]);

/**
 * Speaker labels of the agent's side: one party by design, so never a person's role (none is in `PERSON_ROLE_LABELS`).
 * Not assistant names by default: "agent" is often a person (a call centre's), and "bot" as a participant's name would
 * be dropped from every turn's listeners (`PARLEY_ASSISTANT_NAMES` adds either where wanted).
 */
export const AGENT_ROLE_LABELS: readonly string[] = ['assistant', 'agent', 'bot'];

/**
 * The default of `PARLEY_ASSISTANT_NAMES`: what people call a home assistant or robot ("Robot, …", "hey computer, …").
 * None is a person's role either.
 */
export const DEFAULT_ASSISTANT_NAMES: readonly string[] = ['robot', 'assistant', 'computer', 'alexa', 'siri', 'google', 'jarvis'];

/** Whether `speaker` (as posted) is a person's role (`PERSON_ROLE_LABELS`) rather than a person's id or name. */
export function isRoleLabel(speaker: string): boolean {
  return PERSON_ROLE_LABELS.has(speaker.trim().toLowerCase().replace(/\s+/g, ' '));
}
