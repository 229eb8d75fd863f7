// Import and export of whole apps. Progress and endorsements are replayed
// through the same rules as live calls, so every total is derived, never
// imported; an export holds what is needed to derive the same totals again.
import { ID_TAKEN, INVALID_DATASET, INVALID_INPUT } from '../api/error-codes.js';
import { ApiError } from '../api/errors.js';
import { formatCoins, newGuid, parseAccountId, parseCoins, QUANTITY_SCALE, toQuantityE4 } from '../api/formats.js';
import type { Dataset, DatasetApp, DatasetChallenge } from '../api/schemas.js';
import type { ApiKeyRecord, AppRecord, ChallengeRecord, TaskRecord, Transaction } from '../store/index.js';
import { addAdminKeys, adminKeyHashes } from './access.js';
import { awardCrossed, awardQualifying, countBadge, defineBadge, standingOf } from './badges.js';
import { endorse } from './endorsements.js';
import { sha256Hex } from '../api/key-hash.js';
import { earnXp, newMember } from './member-totals.js';
import { applyProgress, logProgress } from './progress.js';
import { freezeSeason, listSeasons, putSeason, putSeasonPoints, seasonMembers, type Season } from './seasons.js';
import { forgetStreak } from './streaks.js';
import { keptVerification } from './quests.js';
import { rotatedWebhooks } from './webhook-secrets.js';

const DEFAULT_TASK_POINTS = 10;
const DEFAULT_CHALLENGE_POINTS = 50;
const DEFAULT_ENDORSEMENT_XP = 5;

const toTime = (iso: string | undefined, fallback: number) => (iso === undefined ? fallback : Date.parse(iso));
const toIso = (epochMs: number) => new Date(epochMs).toISOString();

/** Whether the store is empty, when a dataset may bring its own admin keys. */
export async function isEmpty(tx: Transaction): Promise<boolean> {
  return (await adminKeyHashes(tx)).size === 0 && !(await tx.hasApps());
}

/** `importer`: the app whose own admin key imports, or null for an installation admin key. */
export async function importDataset(
  tx: Transaction,
  dataset: Dataset,
  mode: 'merge' | 'replace',
  now: number,
  importer: string | null = null,
): Promise<string[]> {
  const adminKeys = await addAdminKeys(tx, dataset.admin_keys ?? []);
  const apps = dataset.apps ?? [];
  const seen = new Set<string>();
  for (const [index, app] of apps.entries()) {
    const path = `apps[${index}]`;
    if (seen.has(app.app_id))
      throw new ApiError(INVALID_INPUT, { field: `${path}.app_id`, reason: `'${app.app_id}' appears twice` });
    seen.add(app.app_id);
    // A replaced app's endpoints still count for its secrets' rotation (rotatedWebhooks).
    const replaced = mode === 'replace' ? await tx.get('apps', app.app_id) : undefined;
    if (mode === 'replace') await tx.deleteAppData(app.app_id);
    await importApp(tx, app, path, adminKeys, now, importer, replaced?.webhooks);
  }
  return [...seen];
}

/** `adminKeys`: the hashes of the installation admin keys, which no app key may equal. */
async function importApp(
  tx: Transaction,
  data: DatasetApp,
  path: string,
  adminKeys: Set<string>,
  now: number,
  importer: string | null,
  replacedWebhooks: AppRecord['webhooks'],
): Promise<void> {
  const existing = await tx.get('apps', data.app_id);
  const app: AppRecord = {
    app_id: data.app_id,
    name: data.name ?? existing?.name ?? data.app_id,
    endorsement_xp: data.settings?.endorsement_xp ?? existing?.endorsement_xp ?? DEFAULT_ENDORSEMENT_XP,
    rank_policy: data.settings?.rank_policy ?? existing?.rank_policy ?? 'olympic',
    member_count: existing?.member_count ?? 0,
    member_token_keys: data.settings?.member_token_keys ?? existing?.member_token_keys ?? [],
    treasury: data.treasury
      ? {
          account_id: treasuryAccount(data.treasury.account_id, `${path}.treasury.account_id`),
          balance: treasuryBalance(data.treasury.balance),
          last_tx_ns: existing?.treasury?.last_tx_ns ?? '0',
        }
      : (existing?.treasury ?? null),
  };
  // Kept only when set, so an app without them exports as it did before they existed.
  const rateLimits = replacedSetting(data.settings?.rate_limits, existing?.rate_limits);
  if (rateLimits) app.rate_limits = rateLimits;
  const allowedOrigins = replacedSetting(data.settings?.allowed_origins, existing?.allowed_origins);
  if (allowedOrigins) app.allowed_origins = allowedOrigins;
  const time_zone = data.settings?.time_zone ?? existing?.time_zone;
  if (time_zone) app.time_zone = time_zone;
  const freezes = data.settings?.streak_freezes_per_month ?? existing?.streak_freezes_per_month;
  if (freezes !== undefined) app.streak_freezes_per_month = freezes;
  if (existing?.badges) app.badges = existing.badges;
  if (existing?.seasons) app.seasons = existing.seasons;
  const givenWebhooks = data.settings?.webhooks;
  const webhooks = replacedSetting(
    givenWebhooks && rotatedWebhooks(givenWebhooks, existing?.webhooks ?? replacedWebhooks, now),
    existing?.webhooks,
  );
  if (webhooks?.length) app.webhooks = webhooks;

  for (const [index, apiKey] of (data.api_keys ?? []).entries()) {
    // Kept as its hash alone: a key given in clear is hashed here, an exported one came hashed.
    const key_sha256 = apiKey.key_sha256 ?? sha256Hex(apiKey.key!);
    const owner = await tx.get('api_keys', key_sha256);
    if ((owner && owner.app_id !== app.app_id) || adminKeys.has(key_sha256)) {
      // An app's own admin key learns nothing of keys outside its app: the key stays its owner's,
      // answered as any key. (Knowing the key, it could try it as a Bearer key anyway, where
      // failures are limited; the import must not be a way round that.) The installation's may know.
      if (importer !== null) continue;
      const field = `${path}.api_keys[${index}].${apiKey.key_sha256 === undefined ? 'key' : 'key_sha256'}`;
      throw new ApiError(ID_TAKEN, { field, kind: 'key' });
    }
    const record: ApiKeyRecord = { key_sha256, app_id: app.app_id, scopes: apiKey.scopes };
    tx.put('api_keys', record);
  }

  // Read in one go what the loops below read one at a time: on a server each read is a round trip.
  await tx.getMany(
    'users',
    (data.users ?? []).map((user): [string, string] => [app.app_id, user.account_name]),
  );
  // Members this import brings to the app: none of their progress is stored (a member leaves only with the app).
  const joined = new Set<string>();
  for (const user of data.users ?? []) {
    let member = await tx.get('users', [app.app_id, user.account_name]);
    if (!member) {
      member = newMember(app.app_id, user.account_name, toTime(user.joined_at, now), user.id);
      app.member_count++;
      joined.add(user.account_name);
    }
    if (user.twitter_name !== undefined) member.twitter_name = user.twitter_name?.replace(/^@/, '') ?? null;
    if (user.is_active !== undefined) member.is_active = user.is_active;
    tx.put('users', member);
  }

  // Members whose history ran through tasks this import removes: once for all challenges.
  const rederive = new Set<string>();
  for (const [index, challenge] of (data.challenges ?? []).entries()) {
    const affected = await importChallenge(tx, app.app_id, challenge, `${path}.challenges[${index}]`, now);
    for (const name of affected) rederive.add(name);
  }
  tx.put('apps', app);
  const badges = await importBadges(tx, app, data, path, now);
  for (const season of data.seasons ?? []) await importSeason(tx, app, season);
  if (rederive.size > 0) await rethrowAt(`${path}.challenges`, () => replayHistory(tx, app, rederive));
  await replay(tx, app, data, path, now, joined);
  // Members the history (or an earlier import) already took past a badge's rule: theirs now.
  for (const badge of badges) await awardQualifying(tx, app, badge, now);
}

/**
 * The dataset's badges, then the awards it brings, as they were (an export's awards keep their
 * time); the replay that follows awards the rest as the history crosses their rules. Returns the
 * badges, for the members already past them to be awarded once the history is in.
 */
async function importBadges(tx: Transaction, app: AppRecord, data: DatasetApp, path: string, now: number) {
  const badges = (data.badges ?? []).map((badge) => ({ ...badge, image_url: badge.image_url ?? null }));
  const seen = new Set<string>();
  for (const [index, badge] of badges.entries()) {
    const badgePath = `${path}.badges[${index}].`;
    if (seen.has(badge.badge_id))
      throw new ApiError(INVALID_INPUT, { field: `${badgePath}badge_id`, reason: `'${badge.badge_id}' appears twice` });
    seen.add(badge.badge_id);
    // Defined without awarding: that waits for the history (above).
    await defineBadge(tx, app, badge, now, badgePath, false);
  }
  const awards = data.badge_awards ?? [];
  await tx.getMany(
    'users',
    awards.map((award): [string, string] => [app.app_id, award.account_name]),
  );
  await tx.getMany(
    'badge_awards',
    awards.map((award): [string, string, string] => [app.app_id, award.account_name, award.badge_id]),
  );
  for (const [index, award] of awards.entries()) {
    const awardPath = `${path}.badge_awards[${index}]`;
    if (!app.badges?.some((badge) => badge.badge_id === award.badge_id))
      throw new ApiError(INVALID_INPUT, { field: `${awardPath}.badge_id`, reason: 'no such badge in this app' });
    const member = await tx.get('users', [app.app_id, award.account_name]);
    if (!member) throw new ApiError(INVALID_INPUT, { field: `${awardPath}.account_name`, reason: 'no such member in this app' });
    const key: [string, string, string] = [app.app_id, award.account_name, award.badge_id];
    if (await tx.get('badge_awards', key)) continue;
    const { badge_id, account_name, earned_at, reason = 'manual' } = award;
    tx.put('badge_awards', { app_id: app.app_id, account_name, badge_id, earned_at: Date.parse(earned_at), reason });
    countBadge(tx, member);
  }
  return badges;
}

/**
 * A setting made of parts (the write limits, the origins) is replaced whole when the dataset
 * gives it, as a merge replaces any field: parts merged one by one could never be taken away.
 * null takes it away, back to the server's default; left out, it is kept.
 */
function replacedSetting<T>(given: T | null | undefined, existing: T | undefined): T | undefined {
  return given === undefined ? existing : (given ?? undefined);
}

/** The schema has checked the form: at most 8 decimals, never negative. */
function treasuryBalance(text: string): string {
  const amount = parseCoins(text);
  return amount.ok ? amount.tinybars.toString() : '0';
}

/** Kept in the form transfers compare with (`0.0.01001` is `0.0.1001`). */
function treasuryAccount(text: string, path: string): string {
  const account = parseAccountId(text);
  if (!account) throw new ApiError(INVALID_INPUT, { field: path, reason: 'must be shard.realm.num with numbers in range' });
  return account.text;
}

/** Returns the members to derive again: those with progress in the challenge, when it loses tasks. */
async function importChallenge(
  tx: Transaction,
  app_id: string,
  data: DatasetChallenge,
  path: string,
  now: number,
): Promise<string[]> {
  const challenge_id = data.challenge_id ?? newGuid();
  const existing = await tx.get('challenges', challenge_id);
  if (existing && existing.app_id !== app_id) {
    // Neutral on purpose: another app's ids must not be probed.
    throw new ApiError(ID_TAKEN, { field: `${path}.challenge_id`, kind: 'id' });
  }
  const task_ids: string[] = [];
  for (const [index, task] of data.tasks.entries()) {
    const taskPath = `${path}.tasks[${index}]`;
    const task_id = task.task_id ?? newGuid();
    const existingTask = await tx.get('tasks', task_id);
    if (existingTask && existingTask.challenge_id !== challenge_id) {
      throw new ApiError(ID_TAKEN, { field: `${taskPath}.task_id`, kind: 'id' });
    }
    if (task_ids.includes(task_id)) throw new ApiError(INVALID_INPUT, { field: `${taskPath}.task_id`, reason: 'appears twice' });
    const quantity_e4 = toQuantityE4(task.quantity);
    task_ids.push(task_id);
    const verification = keptVerification(task.verification, `${taskPath}.verification`);
    tx.put('tasks', {
      task_id,
      challenge_id,
      app_id,
      name: task.name,
      quantity_e4,
      operator: task.operator as 0 | 1,
      metadata: task.metadata ?? {},
      created_at: toTime(task.create_date, existingTask?.created_at ?? now),
      points: task.points ?? DEFAULT_TASK_POINTS,
      allowretry: task.allowretry ?? false,
      alloweditquantity: task.alloweditquantity ?? false,
      ...(verification ? { verification } : {}),
    });
  }
  const created_at = toTime(data.create_date, existing?.created_at ?? now);
  tx.put('challenges', {
    challenge_id,
    app_id,
    name: data.name,
    description: data.description ?? '',
    created_at,
    start_at: toTime(data.start_date, created_at),
    points: data.points ?? DEFAULT_CHALLENGE_POINTS,
    task_ids,
    ...(data.retired ? { retired: true as const } : {}),
  });
  // A task the challenge no longer lists is removed with its progress, so
  // that nothing counts it and an export holds nothing an import would refuse.
  const removed = (existing?.task_ids ?? []).filter((task_id) => !task_ids.includes(task_id));
  if (removed.length === 0) return [];
  const affected = await tx.challengeMembers(challenge_id);
  for (const task_id of removed) affected.push(...(await tx.deleteTask(task_id)));
  return affected;
}

/**
 * The members' totals, progress and logs derived anew from their history, as
 * an import of the app's export would derive them: logs in time order (then
 * as logged) through the same rules as live calls, then endorsements received.
 * Logs on removed tasks are dropped.
 */
async function replayHistory(tx: Transaction, app: AppRecord, names: Set<string>): Promise<void> {
  const history = await tx.takeMemberHistory(app.app_id, names);
  for (const name of names) {
    const user = (await tx.get('users', [app.app_id, name]))!;
    const { is_active, twitter_name, joined_at, id } = user;
    const fresh = { ...user, ...newMember(app.app_id, name, joined_at, id), is_active, twitter_name };
    forgetStreak(fresh);
    tx.put('users', fresh);
  }
  const logs = history.logs.sort((a, b) => a.at - b.at || a.seq! - b.seq!);
  for (const { task_id, account_name, quantity_e4, at } of logs) {
    const task = await tx.get('tasks', task_id);
    if (!task) continue;
    const user = (await tx.get('users', [app.app_id, account_name]))!;
    await logProgress(tx, { app, task, user, quantity_e4, at, replay: true });
  }
  for (const { to_account, at } of history.endorsements) {
    const user = (await tx.get('users', [app.app_id, to_account]))!;
    const before = standingOf(user);
    earnXp(user, app.endorsement_xp, at);
    await awardCrossed(tx, app, user, before, at);
    tx.put('users', user);
  }
}

type ProgressItem = NonNullable<DatasetApp['progress']>[number];

/**
 * Replays progress, then endorsements, each in time order as if logged live. The log of
 * quantities takes the progress in time order as the replay begins (a log the rules refuse fails
 * the whole import, so only logs applied are kept). The rules then apply it a member at a time,
 * each member's in time order: no log changes another member's records, so the totals are those
 * of the whole log in time order, and each member's records are done once their logs are, for the
 * store to write while the rules apply the next members'.
 */
async function replay(
  tx: Transaction,
  app: AppRecord,
  data: DatasetApp,
  path: string,
  now: number,
  joined: Set<string>,
): Promise<void> {
  const inOrder = <T extends { at?: string | undefined }>(items: T[]) =>
    items.map((item, index) => ({ item, index, at: toTime(item.at, now) })).sort((a, b) => a.at - b.at || a.index - b.index);

  await prefetchReplay(tx, app, data, joined);
  const byMember = new Map<string, { item: ProgressItem; index: number; at: number }[]>();
  for (const entry of inOrder(data.progress ?? [])) {
    const { task_id, account_name, quantity } = entry.item;
    await tx.append({ app_id: app.app_id, task_id, account_name, quantity_e4: toQuantityE4(quantity), at: entry.at });
    const entries = byMember.get(account_name);
    if (entries) entries.push(entry);
    else byMember.set(account_name, [entry]);
  }
  for (const [account_name, entries] of byMember) {
    for (const { item, index, at } of entries) {
      await rethrowAt(`${path}.progress[${index}]`, async () => {
        const task = await tx.get('tasks', item.task_id);
        if (!task || task.app_id !== app.app_id)
          throw new ApiError(INVALID_INPUT, { field: 'task_id', reason: 'no such task in this app' });
        const user = await tx.get('users', [app.app_id, account_name]);
        if (!user) throw new ApiError(INVALID_INPUT, { field: 'account_name', reason: 'no such member in this app' });
        const quantity_e4 = toQuantityE4(item.quantity);
        await applyProgress(tx, { app, task, user, quantity_e4, at, replay: true });
      });
    }
    tx.writeAhead?.(app.app_id, account_name);
  }
  for (const { item, index, at } of inOrder(data.endorsements ?? [])) {
    await rethrowAt(`${path}.endorsements[${index}]`, () => endorse(tx, app, { ...item, at, replay: true }));
  }
}

/**
 * What the replay reads, read in a few statements: the records of every member, task and challenge
 * it names. The progress of the members the import brings (`joined`) is known to be absent, not read.
 */
async function prefetchReplay(tx: Transaction, app: AppRecord, data: DatasetApp, joined: Set<string>): Promise<void> {
  const progress = data.progress ?? [];
  const endorsements = data.endorsements ?? [];
  // Keys may repeat (Transaction.getMany reads each record once).
  const names = [...progress.map((item) => item.account_name), ...endorsements.flatMap((e) => [e.from_account, e.to_account])];
  await tx.getMany(
    'users',
    names.map((name): [string, string] => [app.app_id, name]),
  );
  await tx.getMany(
    'tasks',
    progress.map((item) => item.task_id),
  );
  const tasks = new Map<string, string>();
  for (const item of progress) {
    const task = await tx.get('tasks', item.task_id);
    if (task) tasks.set(task.task_id, task.challenge_id);
  }
  await tx.getMany('challenges', [...tasks.values()]);
  const logged = progress.filter((item) => tasks.has(item.task_id));
  const progressKeys = logged.map((item): [string, string] => [item.task_id, item.account_name]);
  const challengeKeys = logged.map((item): [string, string] => [tasks.get(item.task_id)!, item.account_name]);
  const isJoined = ([, account_name]: [string, string]) => joined.has(account_name);
  tx.knownAbsent?.('progress', progressKeys.filter(isJoined));
  tx.knownAbsent?.('member_challenges', challengeKeys.filter(isJoined));
  await tx.getMany(
    'progress',
    progressKeys.filter((key) => !isJoined(key)),
  );
  await tx.getMany(
    'member_challenges',
    challengeKeys.filter((key) => !isJoined(key)),
  );
  await tx.getMany(
    'endorsements',
    endorsements.map((e): [string, string, string, string] => [app.app_id, e.from_account, e.to_account, e.endorsement_id]),
  );
  // The awards a replayed log may give: those of the members the import brings are known absent
  // unless the dataset brings them (read as put), the others' read in one go.
  const awardKeys = [...new Set(names)].flatMap((name) =>
    (app.badges ?? []).map((badge): [string, string, string] => [app.app_id, name, badge.badge_id]),
  );
  tx.knownAbsent?.(
    'badge_awards',
    awardKeys.filter(([, name]) => joined.has(name)),
  );
  await tx.getMany(
    'badge_awards',
    awardKeys.filter(([, name]) => !joined.has(name)),
  );
}

/** A rule broken inside a dataset is the dataset's fault: a 400 naming where. */
async function rethrowAt(path: string, work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (error instanceof ApiError) throw new ApiError(INVALID_DATASET, { field: path, reason: error.message });
    throw error;
  }
}

export async function exportApp(tx: Transaction, app: AppRecord): Promise<Dataset> {
  const data = await tx.readAppData(app.app_id);
  const tasks = new Map(data.tasks.map((task) => [task.task_id, task]));
  const exported: DatasetApp = {
    app_id: app.app_id,
    name: app.name,
    api_keys: data.api_keys
      .filter((key) => key.revoked_at === undefined)
      .map(({ key_sha256, scopes }) => ({ key_sha256, scopes })),
    settings: {
      endorsement_xp: app.endorsement_xp,
      rank_policy: app.rank_policy,
      ...(app.member_token_keys?.length ? { member_token_keys: app.member_token_keys } : {}),
      ...(app.rate_limits ? { rate_limits: app.rate_limits } : {}),
      ...(app.allowed_origins ? { allowed_origins: app.allowed_origins } : {}),
      // As given: the secrets an endpoint replaced (previous_secrets) are never exported.
      ...(app.webhooks ? { webhooks: app.webhooks.map(({ previous_secrets: _, ...endpoint }) => endpoint) } : {}),
    },
    users: data.users.map((user) => ({
      account_name: user.account_name,
      id: user.id,
      twitter_name: user.twitter_name,
      is_active: user.is_active,
      joined_at: toIso(user.joined_at),
    })),
    challenges: data.challenges.map((challenge) => exportChallenge(challenge, tasks)),
    progress: data.logs.map((log) => ({
      task_id: log.task_id,
      account_name: log.account_name,
      quantity: log.quantity_e4 / QUANTITY_SCALE,
      at: toIso(log.at),
    })),
    endorsements: data.endorsements.map((e) => ({
      from_account: e.from_account,
      to_account: e.to_account,
      endorsement_id: e.endorsement_id,
      at: toIso(e.at),
    })),
  };
  const seasons = listSeasons(app);
  if (seasons.length > 0) exported.seasons = await Promise.all(seasons.map((season) => exportSeason(tx, app.app_id, season)));
  if (app.time_zone) exported.settings!.time_zone = app.time_zone;
  if (app.streak_freezes_per_month !== undefined) exported.settings!.streak_freezes_per_month = app.streak_freezes_per_month;
  if (app.badges?.length) {
    exported.badges = app.badges;
    exported.badge_awards = data.badge_awards.map(({ badge_id, account_name, earned_at, reason }) => ({
      badge_id,
      account_name,
      earned_at: toIso(earned_at),
      reason,
    }));
  }
  if (app.treasury) {
    exported.treasury = { account_id: app.treasury.account_id, balance: formatCoins(BigInt(app.treasury.balance)) };
  }
  return { apps: [exported] };
}

/**
 * A season comes with its board as it stands: the history an import replays is not counted
 * into seasons again (only live writes earn season points), so the board answers as it did.
 */
async function importSeason(tx: Transaction, app: AppRecord, data: NonNullable<DatasetApp['seasons']>[number]) {
  const app_id = app.app_id;
  const season = putSeason(tx, app, {
    season_id: data.season_id,
    name: data.name,
    starts_at: Date.parse(data.starts_at),
    ends_at: Date.parse(data.ends_at),
    rewards: data.rewards ?? [],
  });
  if (data.frozen && season.frozen_at === null) freezeSeason(tx, app, season.season_id, season.ends_at);
  await putSeasonPoints(
    tx,
    app,
    season.season_id,
    (data.board ?? []).map((entry) => ({
      app_id,
      season_id: season.season_id,
      account_name: entry.account_name,
      points: entry.points,
      at: Date.parse(entry.at),
    })),
  );
}

async function exportSeason(tx: Transaction, app_id: string, season: Season) {
  const board = await seasonMembers(tx, app_id, season);
  return {
    season_id: season.season_id,
    name: season.name,
    starts_at: toIso(season.starts_at),
    ends_at: toIso(season.ends_at),
    rewards: season.rewards,
    frozen: season.frozen_at !== null,
    board: board.map(({ account_name, points, at }) => ({ account_name, points, at: toIso(at) })),
  };
}

/** A challenge and its tasks in the import's shape: what an export holds, and what the console edits. */
export function exportChallenge(challenge: ChallengeRecord, tasks: ReadonlyMap<string, TaskRecord>) {
  return {
    challenge_id: challenge.challenge_id,
    name: challenge.name,
    description: challenge.description,
    start_date: toIso(challenge.start_at),
    points: challenge.points,
    create_date: toIso(challenge.created_at),
    ...(challenge.retired ? { retired: true } : {}),
    tasks: challenge.task_ids.map((task_id) => {
      const task = tasks.get(task_id)!;
      return {
        task_id,
        name: task.name,
        quantity: task.quantity_e4 / QUANTITY_SCALE,
        operator: task.operator,
        metadata: task.metadata,
        points: task.points,
        allowretry: task.allowretry,
        alloweditquantity: task.alloweditquantity,
        create_date: toIso(task.created_at),
        // A code's answers as their hashes, never in clear: an export imports again as it is.
        ...(task.verification ? { verification: task.verification } : {}),
      };
    }),
  };
}
