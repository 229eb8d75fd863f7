// The periods behind the weekly and monthly scores, in UTC.

const DAY_MS = 86_400_000;

/** The Monday (UTC) that starts the ISO week holding `epochMs`, as YYYY-MM-DD. */
export function weekOf(epochMs: number): string {
  const day = Math.floor(epochMs / DAY_MS);
  // 1970-01-01 was a Thursday: shift so that Monday is 0.
  const monday = day - ((((day + 3) % 7) + 7) % 7);
  return new Date(monday * DAY_MS).toISOString().slice(0, 10);
}

/** The month (UTC) holding `epochMs`, as YYYY-MM. */
export function monthOf(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 7);
}
