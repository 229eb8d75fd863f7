// IANA time zones, as the runtime's Intl knows them: an app counts its members' days in one
// (streaks), and the contract refuses a name Intl does not know.

const formatters = new Map<string, Intl.DateTimeFormat>();

/** A formatter of calendar dates in the zone (DST included), kept per zone: making one is slow. */
export function dateFormatter(time_zone: string): Intl.DateTimeFormat {
  let format = formatters.get(time_zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: time_zone, year: 'numeric', month: 'numeric', day: 'numeric' });
    formatters.set(time_zone, format);
  }
  return format;
}

/** Whether the runtime knows the IANA zone. */
export function isTimeZone(time_zone: string): boolean {
  try {
    dateFormatter(time_zone);
    return true;
  } catch {
    return false;
  }
}
