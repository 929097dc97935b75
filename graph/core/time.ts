/** One day in milliseconds (UTC days: no daylight-saving shifts). */
export const DAY_MS = 86_400_000;
