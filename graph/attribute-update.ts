/**
 * `attributes` with `key` set to what `update` makes of its value (`undefined` in: the key absent; out: the key
 * removed): the one rule both stores' `updateParticipantAttribute` apply inside their transaction.
 */
export function withAttribute(attributes: Record<string, unknown>, key: string, update: (current: unknown) => unknown): Record<string, unknown> {
  const { [key]: current, ...rest } = attributes;
  const next = update(current);
  return next === undefined ? rest : { ...rest, [key]: next };
}
