// Streaks: the run of days a member logged progress on, counted in the app's time zone and kept
// on the member as each log is applied (live or replayed by an import), so reading one is no walk.
import { dateFormatter } from '../api/time-zones.js';
import type { AppRecord, UserRecord } from '../store/index.js';

const DAY_MS = 86_400_000;

/** The day the instant falls on in the zone, numbered from 1970-01-01. */
export function dayOf(time_zone: string, at: number): number {
  const parts: Record<string, number> = {};
  for (const { type, value } of dateFormatter(time_zone).formatToParts(at)) parts[type] = Number(value);
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!) / DAY_MS;
}

/** The day as YYYY-MM-DD. */
export const dayText = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
const monthText = (day: number) => dayText(day).slice(0, 7);

/** The zone the app's days are counted in. */
export const zoneOf = (app: AppRecord) => app.time_zone ?? 'UTC';
const freezesPerMonth = (app: AppRecord) => app.streak_freezes_per_month ?? 0;

/**
 * Counts the day of a log at `at`. A day after the last one extends the streak; so does a later
 * day when the days missed between are no more than the freezes left this month (of the day
 * logged), which they use up; any other gap starts the streak again.
 */
export function countDay(app: AppRecord, user: UserRecord, at: number): void {
  const day = dayOf(zoneOf(app), at);
  const last = user.streak_last_day;
  if (last !== undefined && day <= last) return;
  const month = monthText(day);
  if (user.streak_freeze_month !== month) {
    user.streak_freeze_month = month;
    user.streak_freezes_used = 0;
  }
  const missed = last === undefined ? Infinity : day - last - 1;
  const used = user.streak_freezes_used ?? 0;
  if (missed <= freezesPerMonth(app) - used) {
    user.streak_freezes_used = used + missed;
    user.streak_current = (user.streak_current ?? 0) + 1;
  } else {
    user.streak_current = 1;
  }
  user.streak_last_day = day;
  user.streak_longest = Math.max(user.streak_longest ?? 0, user.streak_current);
}

/** Forgets the streak, before an import derives the member's history anew. */
export function forgetStreak(user: UserRecord): void {
  delete user.streak_current;
  delete user.streak_longest;
  delete user.streak_last_day;
  delete user.streak_freezes_used;
  delete user.streak_freeze_month;
}

export interface Streak {
  current: number;
  longest: number;
  /** The last day counted, YYYY-MM-DD in the app's zone; null before the first. */
  last_day: string | null;
  freezes_left: number;
}

/**
 * The streak as of `now`: it still stands if the member logged today or yesterday, or if the days
 * missed since are no more than the freezes left (which the next log uses up); otherwise it is 0.
 */
export function streakAt(app: AppRecord, user: UserRecord, now: number): Streak {
  const today = dayOf(zoneOf(app), now);
  const used = user.streak_freeze_month === monthText(today) ? (user.streak_freezes_used ?? 0) : 0;
  const fresh = Math.max(0, freezesPerMonth(app) - used);
  const last = user.streak_last_day;
  if (last === undefined) return { current: 0, longest: 0, last_day: null, freezes_left: fresh };
  const missed = Math.max(0, today - last - 1);
  const stands = missed <= fresh;
  return {
    current: stands ? (user.streak_current ?? 0) : 0,
    longest: user.streak_longest ?? 0,
    last_day: dayText(last),
    freezes_left: stands ? fresh - missed : fresh,
  };
}
