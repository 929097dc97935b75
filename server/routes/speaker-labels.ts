/**
 * Warnings for speaker labels that name a role, not a person (`isRoleLabel`, vocabulary in
 * `pipelines/interaction/non-person-labels.ts`). Such a label is still stored (the call may be right for a one-person
 * deployment), but the answer carries a warning; the agent side ("assistant", "agent", "bot") is not flagged.
 */
import { isRoleLabel } from '../../pipelines/interaction/non-person-labels.js';

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
