// Badges: an app's definitions (kept on the app's record), and the awards members hold. A badge
// is awarded once: the award is a record of its own, read before it is put, and a store runs a
// write again when a concurrent one put the same award first (port.ts), so two writes that both
// make a rule hold award it once. Rule badges are awarded as the rule first holds: by the write
// that crosses the rule's threshold, and, when the badge is defined, to every member already past it.
import { BADGE_NOT_FOUND, INVALID_INPUT } from '../api/error-codes.js';
import { ApiError } from '../api/errors.js';
import { levelFor, levelStart } from '../api/levels.js';
import { badgeSummary } from './catalog.js';
import type { BadgeWall } from '../api/responses.js';
import type { AppRecord, BadgeDefinition, BadgeRule, MemberMeasure, Transaction, UserRecord } from '../store/index.js';

/** An app's badges are few: each write that may award one looks at them all. */
export const MAX_BADGES = 100;

/** Why a badge came: its rule held, an admin gave it, or what another rule names (a season's rank reward). */
export type AwardReason = 'rule' | 'manual' | (string & {});

/** The app's badge, or a 404 naming `field`. */
export function findBadge(app: AppRecord, badge_id: string, field = 'badge_id'): BadgeDefinition {
  const badge = app.badges?.find((candidate) => candidate.badge_id === badge_id);
  if (!badge) throw new ApiError(BADGE_NOT_FOUND, { field });
  return badge;
}

/**
 * Awards the app's badge `badge_id` to the member at `now`, unless they hold it: returns whether
 * it is newly awarded. The caller has found the member (it is read, from the transaction's cache
 * where read before, to count the badge). Throws BADGE_NOT_FOUND for a badge the app does not define.
 */
export async function awardBadge(
  tx: Transaction,
  app: AppRecord,
  badge_id: string,
  account_name: string,
  now: number,
  reason: AwardReason,
): Promise<boolean> {
  const badge = findBadge(app, badge_id);
  if (await tx.get('badge_awards', [app.app_id, account_name, badge_id])) return false;
  tx.put('badge_awards', { app_id: app.app_id, account_name, badge_id, earned_at: now, reason });
  countBadge(tx, (await tx.get('users', [app.app_id, account_name]))!);
  tx.recordEvent?.({
    app_id: app.app_id,
    type: 'badge.awarded',
    at: now,
    data: { account_name, badge_id, name: badge.name, reason },
  });
  return true;
}

/** Counts one more badge held by the member. */
export function countBadge(tx: Transaction, user: UserRecord): void {
  user.badges_earned = (user.badges_earned ?? 0) + 1;
  tx.put('users', user);
}

type ThresholdKind = Exclude<BadgeRule['kind'], 'challenge' | 'manual'>;
/** Where each rule over a total reads it: what a write compares before and after. */
export type Standing = Record<ThresholdKind, number>;

export const standingOf = (user: UserRecord): Standing => ({
  tasks_completed: user.tasks_completed,
  challenges_completed: user.challenges_completed,
  level: levelFor(user.xp).current_level,
  streak: user.streak_longest ?? 0,
});

/** Awards the rule badges whose threshold the member crossed since `before` (a write's start). */
export async function awardCrossed(tx: Transaction, app: AppRecord, user: UserRecord, before: Standing, at: number) {
  if (!app.badges?.length) return;
  const after = standingOf(user);
  for (const { badge_id, rule } of app.badges) {
    if (rule.kind === 'challenge' || rule.kind === 'manual') continue;
    if (before[rule.kind] < rule.at_least && after[rule.kind] >= rule.at_least)
      await awardBadge(tx, app, badge_id, user.account_name, at, 'rule');
  }
}

/** The member's awards of the app's rule badges, those a write may award, as keys. */
export const ruleAwardKeys = (app: AppRecord, account_name: string): [string, string, string][] =>
  (app.badges ?? [])
    .filter(({ rule }) => rule.kind !== 'manual')
    .map(({ badge_id }): [string, string, string] => [app.app_id, account_name, badge_id]);

/** Awards the badges of completing the challenge, as the member completes it. */
export async function awardChallenge(tx: Transaction, app: AppRecord, account_name: string, challenge_id: string, at: number) {
  for (const { badge_id, rule } of app.badges ?? []) {
    if (rule.kind === 'challenge' && rule.challenge_id === challenge_id)
      await awardBadge(tx, app, badge_id, account_name, at, 'rule');
  }
}

/** The badge a challenge's completion awards: the first defined on it. */
export const challengeBadge = (app: AppRecord, challenge_id: string) =>
  app.badges?.find(({ rule }) => rule.kind === 'challenge' && rule.challenge_id === challenge_id);

/** The member measure and threshold a rule over a total reads (a level is an amount of XP). */
function measureOf(rule: Extract<BadgeRule, { at_least: number }>): [MemberMeasure, number] {
  if (rule.kind === 'level') return ['xp', levelStart(rule.at_least)];
  if (rule.kind === 'streak') return ['streak_longest', rule.at_least];
  return [rule.kind, rule.at_least];
}

/**
 * Members a retroactive award reads and writes at a time: a server's statements stay small (each
 * has a deadline), and the members done go ahead to the database while the next are read.
 */
const AWARD_CHUNK = 5000;

/** Awards the badge to every member its rule already holds for; returns those newly awarded. */
export async function awardQualifying(tx: Transaction, app: AppRecord, badge: BadgeDefinition, now: number) {
  const { rule } = badge;
  if (rule.kind === 'manual') return [];
  const names =
    rule.kind === 'challenge'
      ? await tx.challengeCompleters(rule.challenge_id)
      : await tx.membersReaching(app.app_id, ...measureOf(rule));
  const awarded: string[] = [];
  for (let start = 0; start < names.length; start += AWARD_CHUNK) {
    const chunk = names.slice(start, start + AWARD_CHUNK);
    await Promise.all([
      tx.getMany(
        'badge_awards',
        chunk.map((name): [string, string, string] => [app.app_id, name, badge.badge_id]),
      ),
      tx.getMany(
        'users',
        chunk.map((name): [string, string] => [app.app_id, name]),
      ),
    ]);
    for (const name of chunk) {
      if (await awardBadge(tx, app, badge.badge_id, name, now, 'rule')) awarded.push(name);
      tx.writeAhead?.(app.app_id, name);
    }
  }
  return awarded;
}

/**
 * Creates or replaces the app's badge and, unless `awardNow` is false (an import, which awards
 * once its history is in), awards it to the members who already qualify; returns them. A
 * challenge rule names a challenge of the app (`path` prefixes the fields a refusal names).
 */
export async function defineBadge(
  tx: Transaction,
  app: AppRecord,
  badge: BadgeDefinition,
  now: number,
  path = '',
  awardNow = true,
): Promise<string[]> {
  const { rule } = badge;
  if (rule.kind === 'challenge') {
    const challenge = await tx.get('challenges', rule.challenge_id);
    if (challenge?.app_id !== app.app_id)
      throw new ApiError(INVALID_INPUT, { field: `${path}rule.challenge_id`, reason: 'no such challenge in this app' });
  }
  const badges = (app.badges ?? []).filter((existing) => existing.badge_id !== badge.badge_id);
  if (badges.length >= MAX_BADGES)
    throw new ApiError(INVALID_INPUT, { field: `${path}badge_id`, reason: `an app has at most ${MAX_BADGES} badges` });
  const index = app.badges?.findIndex((existing) => existing.badge_id === badge.badge_id) ?? -1;
  if (index >= 0) badges.splice(index, 0, badge);
  else badges.push(badge);
  app.badges = badges;
  tx.put('apps', app);
  return awardNow ? awardQualifying(tx, app, badge, now) : [];
}

/** The badges the member holds, in the app's order of definition, with when each came. */
export async function heldBadges(tx: Transaction, app: AppRecord, account_name: string) {
  const badges = app.badges ?? [];
  await tx.getMany(
    'badge_awards',
    badges.map((badge): [string, string, string] => [app.app_id, account_name, badge.badge_id]),
  );
  const held: { badge: BadgeDefinition; earned_at: number }[] = [];
  for (const badge of badges) {
    const award = await tx.get('badge_awards', [app.app_id, account_name, badge.badge_id]);
    if (award) held.push({ badge, earned_at: award.earned_at });
  }
  return held;
}

/**
 * The app's badges as a member sees them (get_badges): each with when the member earned it and
 * their progress toward its rule, capped at the target. A member the app has not heard of yet
 * holds none and stands at zero: what a newcomer can earn is worth showing too.
 */
export async function badgeWall(tx: Transaction, app: AppRecord, user: UserRecord | undefined): Promise<BadgeWall['badges']> {
  const held = user ? await heldBadges(tx, app, user.account_name) : [];
  const earned = new Map(held.map(({ badge, earned_at }) => [badge.badge_id, earned_at]));
  const standing = user && standingOf(user);
  return (app.badges ?? []).map((badge) => {
    const { rule } = badge;
    const at = earned.get(badge.badge_id);
    const target = rule.kind === 'manual' ? 0 : rule.kind === 'challenge' ? 1 : rule.at_least;
    const reached =
      at !== undefined ? target : rule.kind === 'manual' || rule.kind === 'challenge' ? 0 : (standing?.[rule.kind] ?? 0);
    return {
      ...badgeSummary(badge),
      rule,
      earned_at: at === undefined ? null : new Date(at).toISOString(),
      progress: rule.kind === 'manual' ? null : { current: Math.min(reached, target), target },
    };
  });
}
