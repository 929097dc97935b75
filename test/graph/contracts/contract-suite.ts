/** How every store contract registers itself, written once. */
import { describe, test } from 'node:test';

/**
 * Register `body` as the suite `title`; when `skip` says why it cannot run here (no server), one
 * skipped test instead, so the runner's summary counts the contract as skipped, never as passed.
 */
export function contractSuite(title: string, skip: string | undefined, body: () => void): void {
  if (skip) {
    test(title, { skip }, () => {});
    return;
  }
  describe(title, body);
}
