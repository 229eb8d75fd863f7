// A member's totals and how points and XP move them.
import { newGuid } from '../api/formats.js';
import type { UserInfo } from '../api/responses.js';
import type { Transaction, UserRecord } from '../store/index.js';
import { levelFor } from '../api/levels.js';
import { monthOf, weekOf } from './periods.js';

export function newMember(app_id: string, account_name: string, joined_at: number, id = newGuid()): UserRecord {
  return {
    app_id,
    account_name,
    id,
    is_active: true,
    twitter_name: null,
    joined_at,
    challenges_completed: 0,
    tasks_completed: 0,
    tasks_logged: 0,
    total_score: 0,
    xp: 0,
    score_at: joined_at,
    xp_at: joined_at,
    week: '',
    week_score: 0,
    week_at: joined_at,
    month: '',
    month_score: 0,
    month_at: joined_at,
  };
}

/**
 * Points count for the score, the XP and the period scores of when they were
 * earned. Each value is reached when its last points came; the first points
 * replace the joining time, which an import may set after the history it brings.
 */
export function earnPoints(user: UserRecord, points: number, at: number): void {
  // Zero points change nothing, and must not enter a period board with 0.
  if (points <= 0) return;
  user.score_at = user.total_score === 0 ? at : Math.max(user.score_at, at);
  user.total_score += points;
  const week = weekOf(at);
  if (week === user.week) Object.assign(user, { week_score: user.week_score + points, week_at: Math.max(user.week_at, at) });
  else if (week > user.week) Object.assign(user, { week, week_score: points, week_at: at });
  const month = monthOf(at);
  if (month === user.month)
    Object.assign(user, { month_score: user.month_score + points, month_at: Math.max(user.month_at, at) });
  else if (month > user.month) Object.assign(user, { month, month_score: points, month_at: at });
  earnXp(user, points, at);
}

export function earnXp(user: UserRecord, xp: number, at: number): void {
  if (xp <= 0) return;
  user.xp_at = user.xp === 0 ? at : Math.max(user.xp_at, at);
  user.xp += xp;
}

/** Tells the webhooks (level.changed) when the member's XP since `xpBefore` took them to another level. */
export function tellLevelChange(tx: Transaction, user: UserRecord, xpBefore: number, at: number): void {
  const previous_level = levelFor(xpBefore).current_level;
  const { current_level } = levelFor(user.xp);
  if (current_level === previous_level) return;
  tx.recordEvent?.({
    app_id: user.app_id,
    type: 'level.changed',
    at,
    data: { app_id: user.app_id, account_name: user.account_name, previous_level, current_level, xp: user.xp },
  });
}

export function weeklyScore(user: UserRecord, now: number): number {
  return user.week === weekOf(now) ? user.week_score : 0;
}

export function monthlyScore(user: UserRecord, now: number): number {
  return user.month === monthOf(now) ? user.month_score : 0;
}

export function userInfo(user: UserRecord, now: number): UserInfo {
  return {
    account_name: user.account_name,
    id: user.id,
    is_active: user.is_active,
    challenges_completed: user.challenges_completed,
    tasks_completed: user.tasks_completed,
    tasks_logged: user.tasks_logged,
    // Badges count as achievements beside tasks and challenges (docs/rules.md, Challenges).
    total_achievements: user.tasks_completed + user.challenges_completed + (user.badges_earned ?? 0),
    total_score: user.total_score,
    challenge_score_monthly: monthlyScore(user, now),
    challenge_score_weekly: weeklyScore(user, now),
    current_xp: user.xp,
    ...levelFor(user.xp),
    message: null,
    is_valid: true,
  };
}
