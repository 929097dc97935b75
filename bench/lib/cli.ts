/** Command-line options of the benches: `--name value`. */

/** Value of `--name value` on the command line, or `fallback`. */
export function argString(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}

/** Value of `--name N` on the command line, or `fallback` (also when it is not a number). */
export function argNumber(name: string, fallback: number): number {
  const v = Number(argString(name, ''));
  return argString(name, '') !== '' && Number.isFinite(v) ? v : fallback;
}

/**
 * Called where a bench finds the shared data folder (or a set in it) missing, before it prints SKIP and goes on
 * (exit 0). With `PARLEY_BENCH_REQUIRE_DATA=1` a missing folder is an error instead: `what` goes to stderr and
 * the process exits 1, so a scripted run outside the checkout layout cannot pass by measuring nothing.
 */
export function requireDataOrSkip(what: string): void {
  if (process.env.PARLEY_BENCH_REQUIRE_DATA !== '1') return;
  process.stderr.write(`bench: ${what} not found (PARLEY_BENCH_REQUIRE_DATA=1; set PARLEY_SHARED_DATA to the shared data folder)\n`);
  process.exit(1);
}
