// An app's activity by day, for the console's overview (GET /v1/admin/stats): kept as each live
// log is applied, one meta entry per app and day (in the app's time zone, as streaks count days),
// so the overview reads 30 entries whatever the app's members, and a log reads and writes its
// day's entry only when it completes a task or is the member's first of the day.
import type { AppRecord, Transaction, UserRecord } from '../store/index.js';
import { dayOf, dayText, zoneOf } from './streaks.js';

/** What one day of an app saw. */
interface DayCounts {
  /** Tasks completed that day (a retried task each time). */
  completions: number;
  /** The same, by task_id. */
  tasks: Record<string, number>;
  /**
   * Members whose last day with a log is this one: a member's first log of a day moves them here
   * from their day before, so a week's days sum to its distinct active members.
   */
  last_active: number;
}

/** Days of completions the overview shows, today among them. */
export const STATS_DAYS = 30;
/** Days a member counts as active after a log, today among them. */
const ACTIVE_DAYS = 7;
/** Tasks the overview names, most completed first. */
export const TOP_TASKS = 5;

/** The entry's meta key: the day last, so no app id (which may hold a space) makes it another's. */
const countsKey = (app_id: string, day: number) => `day_counts ${app_id} ${day}`;
/** The meta key of the app's counts of the day `at` falls on: a server's log_task reads it ahead (handler/read-ahead.ts). */
export const dayCountsKey = (app: AppRecord, at: number) => countsKey(app.app_id, dayOf(zoneOf(app), at));
const noCounts = (): DayCounts => ({ completions: 0, tasks: {}, last_active: 0 });

/** What a log changed that the day's counts keep: its completion, the member's last active day as before it. */
export interface LogCounted {
  task_id: string;
  completed: boolean;
  lastDayBefore: number | undefined;
}

/** Counts a live log, once it is applied (countDay has moved the member's last day). */
export async function countActivity(tx: Transaction, app: AppRecord, user: UserRecord, log: LogCounted, at: number) {
  const day = dayOf(zoneOf(app), at);
  const { lastDayBefore } = log;
  const movedHere = user.streak_last_day === day && lastDayBefore !== day;
  if (!log.completed && !movedHere) return;
  // The member's day before is taken from only where one week can hold both days: an earlier
  // one is past every week that holds this one, and no longer read.
  const left = movedHere && lastDayBefore !== undefined && lastDayBefore > day - ACTIVE_DAYS ? lastDayBefore : undefined;
  // Unlocked meta reads (store/sql): every log has read its app first, which a server's write
  // locks, so no two writes of one app update its day at once.
  const [counts, before] = await Promise.all([
    tx.getMeta<DayCounts>(countsKey(app.app_id, day)),
    left === undefined ? undefined : tx.getMeta<DayCounts>(countsKey(app.app_id, left)),
  ]);
  const today = counts ?? noCounts();
  if (log.completed) {
    today.completions++;
    today.tasks[log.task_id] = (today.tasks[log.task_id] ?? 0) + 1;
  }
  const writes: Promise<void>[] = [];
  if (movedHere) {
    today.last_active++;
    // Counted from when the store began keeping counts: a day from before has none to take from.
    if (left !== undefined && before && before.last_active > 0) {
      before.last_active--;
      writes.push(tx.putMeta(countsKey(app.app_id, left), before));
    }
  }
  writes.push(tx.putMeta(countsKey(app.app_id, day), today));
  await Promise.all(writes);
}

export interface Activity {
  active_members_7d: number;
  completions_by_day: { day: string; completions: number }[];
  /** The TOP_TASKS tasks completed most over the days (ties by id), of those the app still has. */
  top_tasks: { task_id: string; name: string; completions: number }[];
}

/** The app's activity over the STATS_DAYS days up to `now`'s, oldest first. */
export async function readActivity(tx: Transaction, app: AppRecord, now: number): Promise<Activity> {
  const today = dayOf(zoneOf(app), now);
  const days = Array.from({ length: STATS_DAYS }, (_, index) => today - STATS_DAYS + 1 + index);
  const counts = await Promise.all(
    days.map(async (day) => (await tx.getMeta<DayCounts>(countsKey(app.app_id, day))) ?? noCounts()),
  );
  const byTask = new Map<string, number>();
  for (const { tasks } of counts) {
    for (const [task_id, completions] of Object.entries(tasks)) byTask.set(task_id, (byTask.get(task_id) ?? 0) + completions);
  }
  const ranked = [...byTask].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));
  // A deleted task keeps its counts in the days it was completed: the next take its place (a few of them).
  const candidates = ranked.slice(0, TOP_TASKS * 2);
  await tx.getMany(
    'tasks',
    candidates.map(([task_id]) => task_id),
  );
  const top_tasks: Activity['top_tasks'] = [];
  for (const [task_id, completions] of candidates) {
    const task = await tx.get('tasks', task_id);
    if (task?.app_id === app.app_id && top_tasks.length < TOP_TASKS) top_tasks.push({ task_id, name: task.name, completions });
  }
  return {
    active_members_7d: counts.slice(-ACTIVE_DAYS).reduce((sum, day) => sum + day.last_active, 0),
    completions_by_day: days.map((day, index) => ({ day: dayText(day), completions: counts[index]!.completions })),
    top_tasks,
  };
}
