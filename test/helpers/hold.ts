/** A promise and the function that settles it: a point the test waits for, set by the code it drives. */
export function latch(): { opened: Promise<void>; open(): void } {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => { open = resolve; });
  return { opened, open };
}

/** For work the test holds: `wait` (called by the work) marks it `reached` and returns once the test calls `release`. */
export function hold(): { reached: Promise<void>; wait(): Promise<void>; release(): void } {
  const reach = latch();
  const released = latch();
  return { reached: reach.opened, wait: async () => { reach.open(); await released.opened; }, release: released.open };
}
