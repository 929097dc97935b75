import type { AsOfWindow } from './time-scope.js';

/**
 * Whether something that held from `from` until `to` (ISO-8601; null: still holds) held at a time
 * a question names (`windows`, from `timeScope`): "as of" that time. It must have begun before the
 * window ended and not have been closed before the window's middle: what was replaced early in
 * "2025" did not hold "in 2025" as much as what replaced it ("Where did Lena live last year?" after
 * a move in January: the new place). An open window ("since March", "until 2024") only asks that
 * the two overlap. A statement's time is when it was told, which may lag what it tells, so the
 * start is not held to the middle: a state told within the window held then.
 */
export function heldAsOf(from: string, to: string | null, windows: readonly AsOfWindow[]): boolean {
  const start = Date.parse(from);
  const end = to === null ? Infinity : Date.parse(to);
  return windows.some((w) => {
    const since = Date.parse(w.since);
    const until = Date.parse(w.until);
    const closedBy = w.open ? since : since + (until - since) / 2;
    return start < until && end > closedBy;
  });
}
