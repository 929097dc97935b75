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
