// The request side of the contract: one zod/mini schema per operation input
// and for the admin dataset. Responses are typed in responses.ts.
import * as z from 'zod/mini';
import { accountNameFault, MAX_ACCOUNT_NAME_LENGTH, normalizeAccountName, unseenCharacterFault } from './account-names.js';
import {
  canonicalLanguageTag,
  decimalPlaces,
  formatCoins,
  parseCoins,
  isGuid,
  isOrigin,
  MAX_LANGUAGE_TAG_LENGTH,
  X_HANDLE,
} from './formats.js';
import { SHA256_HEX } from './key-hash.js';
import { JsonNumber } from './json-text.js';
import { isTimeZone } from './time-zones.js';
import { SCOPES } from './scopes.js';
import { algorithmOfCurve, MEMBER_TOKEN_ALGORITHMS, MEMBER_TOKEN_KEY_TYPES } from './member-tokens.js';
import { WEBHOOK_EVENT_TYPES } from './webhook-events.js';

export { SCOPES, type Scope } from './scopes.js';

const text = z.string().check(z.minLength(1, 'must not be empty'));

/**
 * The longest ids and keys taken, counted in UTF-16 code units (a string's length), each at
 * most 3 bytes of UTF-8: every store then holds what another does. PostgreSQL refuses an index
 * row past about 2,700 bytes, and the longest rows are keyed by these beside account names
 * (an endorsement's: app_id, two names of at most 256 bytes and its id, at most 1,100 bytes);
 * NOTIFY refuses a change notice of 8,000 bytes, which names the app.
 */
/** An app's id names a site or a community, a slug: 128 is far past any real one. */
export const MAX_APP_ID_LENGTH = 128;
/** 256 is far past any key made to be one: 32 random bytes are 43 characters of base64url, 64 of hex. */
export const MAX_API_KEY_LENGTH = 256;
/** An endorsement's category, a word a site picks. */
export const MAX_ENDORSEMENT_ID_LENGTH = 64;
/** A member token key's `kid`: a name, a thumbprint (43) or a URL. */
export const MAX_KID_LENGTH = 200;

/** A check that refuses what `fault` finds at fault, in its words. */
const refusing = (fault: (value: string) => string | null) =>
  z.superRefine((value: string, ctx) => {
    const message = fault(value);
    if (message !== null) ctx.addIssue({ code: 'custom', message, input: value });
  });

/**
 * A free identifier (an app id, a key, an endorsement id) refuses what an account name does
 * (account-names.ts: control and format characters, bidi controls among them, unpaired
 * surrogates, blanks), for the same reason: unseen, they make one id read as another.
 */
const identifier = (maxLength: number) =>
  text.check(z.maxLength(maxLength, `must be at most ${maxLength} characters`), refusing(unseenCharacterFault));
const appId = identifier(MAX_APP_ID_LENGTH);
export const apiKey = identifier(MAX_API_KEY_LENGTH);
/** Every name that enters is kept in the profile's one form (account-names.ts). */
const accountName = z.pipe(z.string(), z.transform(normalizeAccountName)).check(refusing(accountNameFault));
const guid = z.string().check(z.refine(isGuid, 'must be a lowercase GUID'));
/**
 * Points a task, a challenge or an endorsement gives: at most a million, so a member's totals
 * (sums of them) stay exact integers however long a community runs.
 */
export const MAX_POINTS = 1_000_000;
const points = z.int().check(z.minimum(0, 'must be 0 or more'), z.maximum(MAX_POINTS, `must be at most ${MAX_POINTS}`));
/** An ISO 8601 instant with a zone (`2026-11-20T10:00:00Z`); kept as epoch ms. */
const instant = z
  .string()
  .check(
    z.refine(
      (value) => /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)$/i.test(value) && !Number.isNaN(Date.parse(value)),
      'must be an ISO 8601 date-time with a zone, such as 2026-11-20T10:00:00Z',
    ),
  );

export const LEADERBOARD_TYPES = ['score', 'xp', 'weekly', 'monthly'] as const;
export type LeaderboardType = (typeof LEADERBOARD_TYPES)[number];
export const RANK_POLICIES = ['olympic', 'dense', 'ordinal'] as const;
export type RankPolicy = (typeof RANK_POLICIES)[number];

/** No input: extra parameters are ignored (operational endpoints, POSTs without URL options). */
export const anyQuery = z.object({});
export const healthQuery = anyQuery;

export const getChallengeQuery = z.object({ challenge_id: guid });

const endorsementId = identifier(MAX_ENDORSEMENT_ID_LENGTH);

export const endorseAccountBody = z.object({
  app_id: appId,
  from_account: accountName,
  to_account: accountName,
  endorsement_id: endorsementId,
});

export const getUserInfoQuery = z.object({ app_id: appId, account_name: accountName });

/** Whether `from_account` has endorsed `to_account` in the category: what an endorse button shows after a reload. */
export const getEndorsementQuery = z.object({
  app_id: text,
  from_account: accountName,
  to_account: accountName,
  endorsement_id: endorsementId,
});

/** Query values arrive as text; paging numbers are parsed here. */
const pagingNumber = (min: number, max: number) =>
  z.optional(
    z
      .pipe(z.string().check(z.regex(/^\d+$/, 'must be a whole number')), z.transform(Number))
      .check(z.minimum(min, `must be at least ${min}`), z.maximum(max, `must be at most ${max}`)),
  );

/**
 * The language of an HTML leaderboard's words and numbers. A malformed tag is refused like any
 * bad input; a well-formed one Questboard has no words for reads English.
 */
const languageTag = z
  .string()
  .check(
    z.refine(
      (tag) => canonicalLanguageTag(tag) !== null,
      `must be a BCP 47 language tag of at most ${MAX_LANGUAGE_TAG_LENGTH} characters, such as de or pt-BR`,
    ),
  );

/** The most members a leaderboard page lists. */
export const LEADERBOARD_PAGE_MOST = 1000;

export const getLeaderboardQuery = z.object({
  app_id: appId,
  widget_response: z.optional(z.enum(['html', 'json'], 'must be html or json')),
  locale: z.optional(languageTag),
  leaderboard_type: z.optional(z.enum(LEADERBOARD_TYPES, `must be one of ${LEADERBOARD_TYPES.join(', ')}`)),
  limit: pagingNumber(1, LEADERBOARD_PAGE_MOST),
  offset: pagingNumber(0, Number.MAX_SAFE_INTEGER),
  around: z.optional(accountName),
  season: z.optional(guid),
});

export const connectSocialBody = z.object({
  app_id: appId,
  account_name: accountName,
  twitter_name: z.string().check(z.regex(X_HANDLE, 'must be 1–15 letters, digits or _ (a leading @ is allowed)')),
});

export const getTaskProgressQuery = z.object({ task_id: guid, account_name: accountName });

export const eventsQuery = z.object({ app_id: appId });

/**
 * Where a body's JSON numbers are kept as their digits (json-text.ts): every amount in the API,
 * which must be exact from the request's own text. The schemas below read them as JsonNumber.
 */
export const EXACT_NUMBER_PATHS: ReadonlySet<string> = new Set([
  'quantity', // airdrop_token_ledger, admin/log_task
  'apps.*.challenges.*.tasks.*.quantity',
  'apps.*.progress.*.quantity',
  'challenge.tasks.*.quantity', // admin/save_challenge
]);
const jsonNumber = z.custom<JsonNumber>((value) => value instanceof JsonNumber, 'must be a number');

/**
 * Both airdrop forms give the amount's text: a JSON number's own digits in the body, the value in
 * the query. An amount is kept in its one spelling (`0.10`, `1e-1` and `.1` are `0.1`), so a
 * retry that writes it otherwise is the same request (idempotency.ts); anything else goes on as
 * it came, for the transfer to refuse.
 */
export const airdropInput = z.object({
  to_address: text,
  /** Only with an installation admin key, which belongs to no app. */
  app_id: z.optional(appId),
  quantity: z.pipe(
    z.union(
      [
        z.pipe(
          jsonNumber,
          z.transform((number) => number.text),
        ),
        text,
      ],
      'must be a number',
    ),
    z.transform((amount) => {
      const coins = parseCoins(amount);
      return coins.ok ? formatCoins(coins.tinybars) : amount;
    }),
  ),
});

/**
 * A task quantity: at most four decimals, read from the number's own digits (so a sixteenth
 * decimal is refused, not rounded away), and at most 1e9, so sums of them in units of 1/10,000
 * stay exact integers.
 */
const quantity = (min: z.core.$ZodCheck<number>) =>
  z
    .pipe(
      jsonNumber.check(z.refine((number) => (decimalPlaces(number.text) ?? Infinity) <= 4, 'must have at most 4 decimals')),
      z.transform((number) => Number(number.text)),
    )
    .check(min, z.maximum(1e9, 'must be at most 1000000000'));
const quantityNumber = quantity(z.minimum(0, 'must be 0 or more'));

/** Codes a task takes: enough for a quiz's spellings of one answer. */
const MAX_ANSWERS = 50;
const MAX_ANSWER_LENGTH = 500;
const answerText = z.string().check(z.maxLength(MAX_ANSWER_LENGTH, `must be at most ${MAX_ANSWER_LENGTH} characters`));
const answerHash = z.string().check(z.regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 in lowercase hex'));

/**
 * Where a server sends a webhook or asks a callback: an https: URL without credentials
 * (docs/quests.md). An http: one is taken here and refused by the import unless the server allows
 * private webhooks (HandlerOptions.allowPrivateWebhooks); its address is checked where it is sent.
 */
export const webhookUrl = z.string().check(
  z.maxLength(2048, 'must be at most 2048 characters'),
  z.refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'https:' || url.protocol === 'http:') && url.username === '' && url.password === '';
    } catch {
      return false;
    }
  }, 'must be an https: URL without a user name or password'),
);

export const logTaskBody = z.object({
  task_id: guid,
  account_name: accountName,
  quantity: quantityNumber,
});

/** A badge's id: a word or slug the site picks, as an endorsement's. */
export const MAX_BADGE_ID_LENGTH = 64;
const badgeId = identifier(MAX_BADGE_ID_LENGTH);
const atLeast = z.int().check(z.minimum(1, 'must be at least 1'), z.maximum(1e9, 'must be at most 1000000000'));
const BADGE_RULE_KINDS = ['tasks_completed', 'challenges_completed', 'level', 'streak', 'challenge', 'manual'] as const;

export type BadgeRule =
  | { kind: 'tasks_completed' | 'challenges_completed' | 'level' | 'streak'; at_least: number }
  | { kind: 'challenge'; challenge_id: string }
  | { kind: 'manual' };

const THRESHOLD_KINDS: ReadonlySet<string> = new Set(['tasks_completed', 'challenges_completed', 'level', 'streak']);

/**
 * When a member earns a badge (docs/rules.md, Badges): a kind, and the one field its kind takes.
 * Checked field by field, so that a refusal names the field (`rule.at_least: is required`).
 */
export const badgeRule = z.pipe(
  z
    .strictObject({
      kind: z.enum(BADGE_RULE_KINDS, `must be one of ${BADGE_RULE_KINDS.join(', ')}`),
      at_least: z.optional(atLeast),
      challenge_id: z.optional(guid),
    })
    .check(
      z.superRefine((rule, ctx) => {
        const wanted = THRESHOLD_KINDS.has(rule.kind) ? 'at_least' : rule.kind === 'challenge' ? 'challenge_id' : null;
        for (const field of ['at_least', 'challenge_id'] as const) {
          const message =
            field === wanted
              ? rule[field] === undefined && 'is required'
              : rule[field] !== undefined && `is not taken by kind ${rule.kind}`;
          if (message) ctx.addIssue({ code: 'custom', path: [field], message, input: rule });
        }
      }),
    ),
  z.transform((rule) => rule as BadgeRule),
);

const badgeFields = {
  badge_id: badgeId,
  name: text.check(z.maxLength(200, 'must be at most 200 characters')),
  description: z.string().check(z.maxLength(2000, 'must be at most 2000 characters')),
  image_url: z.optional(
    z.nullable(
      z
        .string()
        .check(z.maxLength(2000, 'must be at most 2000 characters'), z.regex(/^https?:\/\/\S+$/i, 'must be an http(s) URL')),
    ),
  ),
  rule: badgeRule,
};

export const defineBadgeBody = z.object({ app_id: appId, ...badgeFields });
export const awardBadgeBody = z.object({ app_id: appId, badge_id: badgeId, account_name: accountName });
export const getAchievementsQuery = z.object({ app_id: appId, account_name: accountName });
/** get_badges: the app's badges, and with an account_name that member's standing toward each. */
export const getBadgesQuery = z.object({ app_id: appId, account_name: z.optional(accountName) });
export const getSeasonsQuery = z.object({ app_id: appId });
/** What a member sends for review: a text or a link, as a message would hold. */
export const MAX_SUBMISSION_TEXT = 4000;

export const submitTaskBody = z.object({
  task_id: guid,
  account_name: accountName,
  answer: z.optional(answerText),
  text: z.optional(z.string().check(z.maxLength(MAX_SUBMISSION_TEXT, `must be at most ${MAX_SUBMISSION_TEXT} characters`))),
});

export const getSubmissionsQuery = z.object({ app_id: appId, account_name: accountName });

export const SUBMISSION_STATUSES = ['pending', 'approved', 'rejected'] as const;
export const adminSubmissionsQuery = z.object({
  app_id: appId,
  status: z.optional(z.enum(SUBMISSION_STATUSES, `must be one of ${SUBMISSION_STATUSES.join(', ')}`)),
  limit: pagingNumber(1, 100),
  offset: pagingNumber(0, Number.MAX_SAFE_INTEGER),
});

const MAX_REVIEWED_AT_ONCE = 100;
const reason = z.optional(z.string().check(z.maxLength(1000, 'must be at most 1000 characters')));
const decision = z.enum(['approve', 'reject'], 'must be approve or reject');
/** One submission (`submission_id`) or many at once (`submission_ids`), with one decision. */
export const reviewBody = z.union([
  z.strictObject({ submission_id: guid, decision, reason }),
  z.strictObject({
    submission_ids: z
      .array(guid)
      .check(
        z.minLength(1, 'must list at least one'),
        z.maxLength(MAX_REVIEWED_AT_ONCE, `must list at most ${MAX_REVIEWED_AT_ONCE}`),
      ),
    decision,
    reason,
  }),
]);

export const exportQuery = z.object({ app_id: appId });

const rank = z.int().check(z.minimum(1, 'must be 1 or more'));
/** A season's rank rewards: members ranked from_rank to to_rank (inclusive) at its end earn the badge. */
const seasonReward = z
  .object({ from_rank: rank, to_rank: rank, badge_id: identifier(MAX_APP_ID_LENGTH) })
  .check(z.refine((reward) => reward.to_rank >= reward.from_rank, { message: 'must be at least from_rank', path: ['to_rank'] }));
export const seasonBody = z
  .object({
    app_id: appId,
    season_id: guid,
    name: z.string().check(z.minLength(1, 'must not be empty'), z.maxLength(200, 'must be at most 200 characters')),
    starts_at: instant,
    ends_at: instant,
    rewards: z.optional(z.array(seasonReward).check(z.maxLength(100, 'must hold at most 100 rewards'))),
  })
  .check(
    z.refine((season) => Date.parse(season.ends_at) > Date.parse(season.starts_at), {
      message: 'must be later than starts_at',
      path: ['ends_at'],
    }),
  );
/** Listing needs the app; a POST's body is then read as a season (seasonBody). */
export const seasonsInput = z.looseObject({ app_id: appId });
/** A season in a dataset: its definition and its board (points, and when the last of them came). */
const datasetSeason = z.strictObject({
  season_id: guid,
  name: z.string(),
  starts_at: instant,
  ends_at: instant,
  rewards: z.optional(z.array(seasonReward)),
  frozen: z.optional(z.boolean()),
  board: z.optional(
    z.array(z.strictObject({ account_name: accountName, points: z.int().check(z.minimum(0, 'must be 0 or more')), at: instant })),
  ),
});
export const adminAppsQuery = anyQuery;

export const importQuery = z.object({
  mode: z.optional(z.enum(['merge', 'replace'], 'must be merge or replace')),
  /** Runs the import and says what it changed, then rolls all of it back. */
  dry_run: z.optional(
    z.pipe(
      z.enum(['true', 'false'], 'must be true or false'),
      z.transform((flag) => flag === 'true'),
    ),
  ),
});

/** A page of an app's webhook deliveries, newest first. */
export const webhookDeliveriesQuery = z.object({
  app_id: appId,
  limit: pagingNumber(1, 1000),
  offset: pagingNumber(0, Number.MAX_SAFE_INTEGER),
});
export const webhookRedeliverBody = z.object({
  app_id: appId,
  delivery_id: z.string().check(z.regex(/^msg_[0-9a-f]{32}$/, 'must be a delivery_id as webhook_deliveries lists it')),
});

/** How deep a task's metadata may nest (the body as a whole may nest MAX_JSON_DEPTH levels). */
export const MAX_METADATA_DEPTH = 32;

/** The levels of objects and arrays in a JSON value, counted without recursion. */
function nesting(value: unknown): number {
  let deepest = 0;
  const pending: [unknown, number][] = [[value, 1]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, depth] = next;
    if (item === null || typeof item !== 'object') continue;
    deepest = Math.max(deepest, depth);
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * A task's metadata: the site's own JSON object, kept as it came (not copied key by key, which
 * would turn a `__proto__` key into a prototype and lose it).
 */
const metadata = z
  .custom<Record<string, unknown>>(
    (value) => value !== null && typeof value === 'object' && !Array.isArray(value),
    'must be an object',
  )
  .check(z.refine((value) => nesting(value) <= MAX_METADATA_DEPTH, `must nest at most ${MAX_METADATA_DEPTH} levels`));

/**
 * How a member completes a task on their own (docs/quests.md). A code's answers come in clear
 * from a site's dataset, or as the hashes an export gives (never in clear: quests.ts).
 */
const verification = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('backend') }),
  z.strictObject({
    kind: z.literal('code'),
    answers: z.optional(z.array(answerText).check(z.maxLength(MAX_ANSWERS, `must list at most ${MAX_ANSWERS}`))),
    answer_hashes: z.optional(z.array(answerHash).check(z.maxLength(MAX_ANSWERS, `must list at most ${MAX_ANSWERS}`))),
  }),
  z.strictObject({ kind: z.literal('review') }),
  z.strictObject({ kind: z.literal('callback'), url: webhookUrl }),
]);

const datasetTask = z.strictObject({
  verification: z.optional(verification),
  task_id: z.optional(guid),
  name: text,
  quantity: quantity(z.positive('must be greater than 0')),
  operator: z.int().check(z.refine((value) => value === 0 || value === 1, 'must be 0 (cumulative) or 1 (single log)')),
  metadata: z.optional(metadata),
  points: z.optional(points),
  allowretry: z.optional(z.boolean()),
  alloweditquantity: z.optional(z.boolean()),
  create_date: z.optional(instant),
});

const datasetChallenge = z.strictObject({
  challenge_id: z.optional(guid),
  name: text,
  description: z.optional(z.string()),
  start_date: z.optional(instant),
  points: z.optional(points),
  create_date: z.optional(instant),
  /** Hidden from members and counting no new progress; its history stays (core/catalog.ts). */
  retired: z.optional(z.boolean()),
  tasks: z.array(datasetTask),
});

/** A P-256 coordinate or an Ed25519 public key: 32 bytes. */
const keyBytes = z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/, 'must be 32 bytes in base64url (43 characters)'));
export const MAX_MEMBER_TOKEN_KEYS = 20;

/**
 * A public key (RFC 7517 JWK) that member tokens of the app are verified with, named by its
 * `kid`. The private half stays with the site's backend: a key holding one is refused, since
 * the settings are read by anyone with an export, and copied into every visitor's worker.
 */
const memberTokenKey = z
  .strictObject({
    kid: identifier(MAX_KID_LENGTH),
    kty: z.enum(['EC', 'OKP'], 'must be EC (a P-256 key, ES256) or OKP (an Ed25519 key, EdDSA)'),
    crv: z.enum(['P-256', 'Ed25519'], 'must be P-256 (ES256) or Ed25519 (EdDSA)'),
    x: keyBytes,
    y: z.optional(keyBytes),
    alg: z.optional(z.enum(MEMBER_TOKEN_ALGORITHMS, `must be one of ${MEMBER_TOKEN_ALGORITHMS.join(', ')}`)),
    use: z.optional(z.literal('sig', "must be 'sig'")),
    d: z.optional(
      z.custom<never>(
        () => false,
        "is the private key: member_token_keys take the public key only (keep the private one on the site's backend)",
      ),
    ),
  })
  .check(
    z.superRefine((key, ctx) => {
      const alg = algorithmOfCurve(key.crv)!;
      const { kty } = MEMBER_TOKEN_KEY_TYPES[alg];
      const fault = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message, input: key });
      if (key.kty !== kty) fault('kty', `must be ${kty} for crv ${key.crv}`);
      else if (kty === 'EC' && key.y === undefined) fault('y', 'is required');
      else if (kty === 'OKP' && key.y !== undefined) fault('y', `must not be given for crv ${key.crv}`);
      else if (key.alg !== undefined && key.alg !== alg) fault('alg', `must be ${alg} for crv ${key.crv}`);
    }),
  );

const memberTokenKeys = z.array(memberTokenKey).check(
  z.maxLength(MAX_MEMBER_TOKEN_KEYS, `must hold at most ${MAX_MEMBER_TOKEN_KEYS} keys`),
  z.superRefine((keys, ctx) => {
    const seen = new Set<string>();
    for (const [index, key] of keys.entries()) {
      if (seen.has(key.kid)) ctx.addIssue({ code: 'custom', path: [index, 'kid'], message: 'appears twice', input: keys });
      seen.add(key.kid);
    }
  }),
);

/** One write limit: at most `writes` in any `window_seconds`; null turns that limit off. */
const rateLimit = z.nullable(
  z.strictObject({
    writes: z.int().check(z.minimum(1, 'must be at least 1'), z.maximum(1_000_000, 'must be at most 1000000')),
    window_seconds: z.int().check(z.minimum(1, 'must be at least 1'), z.maximum(86_400, 'must be at most 86400 (a day)')),
  }),
);

/** An app's write limits on a server (src/handler/rate-limits.ts); a limit left out keeps its default. */
export const rateLimits = z.strictObject({
  per_key: z.optional(rateLimit),
  per_member: z.optional(rateLimit),
  per_ip: z.optional(rateLimit),
});
export type RateLimits = z.infer<typeof rateLimits>;
export type RateLimit = NonNullable<RateLimits['per_key']>;

/**
 * The origins a server takes browser requests for an app from: at most 100. Each is compared
 * with a request's Origin as text, so a pattern (`https://*.example.org`, which a URL takes as a
 * host named `*.example`) would be kept and match nothing.
 */
const allowedOrigins = z
  .array(
    z
      .string()
      .check(
        z.refine(isOrigin, 'must be an origin as a browser sends it, scheme://host[:port], such as https://forum.example.org'),
      ),
  )
  .check(z.maxLength(100, 'must list at most 100 origins'));

/**
 * An app's key in a dataset: the key itself, or its SHA-256 as an export gives it (no store keeps
 * a key, src/store/records.ts), so an export imported elsewhere answers to the same keys.
 */
const datasetApiKey = z
  .strictObject({
    key: z.optional(apiKey),
    key_sha256: z.optional(z.string().check(z.regex(SHA256_HEX, "must be the key's SHA-256: 64 lowercase hex digits"))),
    scopes: z.array(z.enum(SCOPES, `must be one of ${SCOPES.join(', ')}`)),
  })
  .check(
    z.superRefine((entry, ctx) => {
      if ((entry.key === undefined) === (entry.key_sha256 === undefined)) {
        ctx.addIssue({ code: 'custom', path: ['key'], message: 'give key or key_sha256, not both', input: entry });
      }
    }),
  );

/**
 * A webhook endpoint's secret as Standard Webhooks writes it: `whsec_` and the key's bytes in
 * base64, 24 to 64 of them (the key of the HMAC that signs each delivery).
 */
const webhookSecret = z.string().check(
  z.refine((value) => {
    const match = /^whsec_((?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?)$/.exec(value);
    const bytes = match ? (match[1]!.length / 4) * 3 - (match[1]!.match(/=/g)?.length ?? 0) : 0;
    return bytes >= 24 && bytes <= 64;
  }, 'must be whsec_ followed by 24 to 64 bytes in base64'),
);

export const MAX_WEBHOOK_ENDPOINTS = 10;

/** The events an endpoint is sent. */
const webhookEvents = z.array(z.enum(WEBHOOK_EVENT_TYPES, `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}`)).check(
  z.minLength(1, 'must name at least one event'),
  z.refine((events) => new Set(events).size === events.length, 'must name each event once'),
);

/** The endpoints an app's events are delivered to (a server's only: src/server/webhook-delivery.ts). */
const webhooks = z
  .array(z.strictObject({ url: webhookUrl, secret: webhookSecret, events: webhookEvents }))
  .check(z.maxLength(MAX_WEBHOOK_ENDPOINTS, `must list at most ${MAX_WEBHOOK_ENDPOINTS} endpoints`));
export type WebhookEndpoint = z.infer<typeof webhooks>[number];

const datasetApp = z.strictObject({
  app_id: appId,
  name: z.optional(z.string()),
  api_keys: z.optional(z.array(datasetApiKey)),
  treasury: z.optional(
    z.strictObject({
      account_id: z.string().check(z.regex(/^\d+\.\d+\.\d+$/, 'must be shard.realm.num')),
      balance: z.string().check(z.regex(/^\d+(\.\d{1,8})?$/, 'must be a coin amount with at most 8 decimals')),
    }),
  ),
  settings: z.optional(
    z.strictObject({
      endorsement_xp: z.optional(points),
      rank_policy: z.optional(z.enum(RANK_POLICIES, `must be one of ${RANK_POLICIES.join(', ')}`)),
      /** Replaced whole when given: a kid left out no longer verifies (key rotation). */
      member_token_keys: z.optional(memberTokenKeys),
      // Each replaced whole when given; null goes back to the server's defaults (--cors-origin).
      rate_limits: z.optional(z.nullable(rateLimits)),
      allowed_origins: z.optional(z.nullable(allowedOrigins)),
      time_zone: z.optional(
        z.string().check(z.refine(isTimeZone, 'must be an IANA time zone name, such as UTC or Europe/Berlin')),
      ),
      streak_freezes_per_month: z.optional(z.int().check(z.minimum(0, 'must be 0 or more'), z.maximum(31, 'must be at most 31'))),
      // Replaced whole when given; null removes them all.
      webhooks: z.optional(z.nullable(webhooks)),
    }),
  ),
  users: z.optional(
    z.array(
      z.strictObject({
        account_name: accountName,
        id: z.optional(guid),
        twitter_name: z.optional(z.nullable(z.string().check(z.regex(X_HANDLE, 'must be 1–15 letters, digits or _')))),
        is_active: z.optional(z.boolean()),
        joined_at: z.optional(instant),
      }),
    ),
  ),
  challenges: z.optional(z.array(datasetChallenge)),
  seasons: z.optional(z.array(datasetSeason)),
  progress: z.optional(
    z.array(
      z.strictObject({
        task_id: guid,
        account_name: accountName,
        quantity: quantityNumber,
        at: z.optional(instant),
      }),
    ),
  ),
  endorsements: z.optional(
    z.array(
      z.strictObject({
        from_account: accountName,
        to_account: accountName,
        endorsement_id: endorsementId,
        at: z.optional(instant),
      }),
    ),
  ),
  badges: z.optional(z.array(z.strictObject(badgeFields))),
  /** The badges members hold, with when: a badge given by hand or before its rule changed is kept as it was. */
  badge_awards: z.optional(
    z.array(
      z.strictObject({
        badge_id: badgeId,
        account_name: accountName,
        earned_at: instant,
        reason: z.optional(text.check(z.maxLength(200, 'must be at most 200 characters'))),
      }),
    ),
  ),
});

export const dataset = z.strictObject({
  admin_keys: z.optional(z.array(apiKey)),
  // An export is an API answer with the common fields: importing it as it
  // came must work, so they are allowed here and carry no meaning.
  is_valid: z.optional(z.boolean()),
  message: z.optional(z.nullable(z.string())),
  apps: z.optional(z.array(datasetApp)),
});

export type EndorseAccountBody = z.infer<typeof endorseAccountBody>;
export type GetLeaderboardQuery = z.infer<typeof getLeaderboardQuery>;
export type GetEndorsementQuery = z.infer<typeof getEndorsementQuery>;
export type ConnectSocialBody = z.infer<typeof connectSocialBody>;
export type LogTaskBody = z.infer<typeof logTaskBody>;
export type SubmitTaskBody = z.infer<typeof submitTaskBody>;
export type Dataset = z.infer<typeof dataset>;
export type DatasetApp = z.infer<typeof datasetApp>;
export type DatasetChallenge = z.infer<typeof datasetChallenge>;
export type DatasetTask = z.infer<typeof datasetTask>;
export type Verification = z.infer<typeof verification>;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];
export type MemberTokenKey = z.infer<typeof memberTokenKey>;

// The console's admin API (docs/api.md, "The admin API").
export const appQuery = z.object({ app_id: appId });
/** GET /v1/admin/stats: the app's overview. */
export const adminStatsQuery = appQuery;
/** What a key's id is: the start of its SHA-256, as GET /v1/admin/keys lists it. */
export const KEY_ID_LENGTH = 16;
export const createKeyBody = z.object({
  app_id: appId,
  scopes: z.array(z.enum(SCOPES, `must be one of ${SCOPES.join(', ')}`)).check(z.minLength(1, 'must name at least one scope')),
});
export const revokeKeyBody = z.object({
  app_id: appId,
  key_id: z.string().check(z.regex(/^[0-9a-f]{16}$/, `must be a key id: ${KEY_ID_LENGTH} hex digits`)),
});
export const addMemberTokenKeyBody = z.object({ app_id: appId, key: memberTokenKey });
export const removeMemberTokenKeyBody = z.object({ app_id: appId, kid: identifier(MAX_KID_LENGTH) });
/** An endpoint's secret is made by the server and answered once: a manager never types a weak one. */
export const saveWebhookBody = z.object({
  app_id: appId,
  url: webhookUrl,
  events: webhookEvents,
  new_secret: z.optional(z.boolean()),
});
export const removeWebhookBody = z.object({ app_id: appId, url: webhookUrl });
export const membersQuery = z.object({
  app_id: appId,
  prefix: z.optional(
    z.string().check(z.maxLength(MAX_ACCOUNT_NAME_LENGTH, `must be at most ${MAX_ACCOUNT_NAME_LENGTH} characters`)),
  ),
  offset: pagingNumber(0, Number.MAX_SAFE_INTEGER),
  limit: pagingNumber(1, 100),
});
export const memberQuery = getUserInfoQuery;
/** Why a manager changed a score: kept in the audit log beside the change. */
const adjustReason = z.string().check(z.minLength(1, 'must say why'), z.maxLength(500, 'must be at most 500 characters'));
export const adjustBody = z.object({ ...logTaskBody.shape, app_id: appId, reason: adjustReason });
export const setActiveBody = z.object({ app_id: appId, account_name: accountName, active: z.boolean() });
export const auditQuery = z.object({
  app_id: appId,
  before: pagingNumber(0, Number.MAX_SAFE_INTEGER),
  limit: pagingNumber(1, 200),
});
export const ledgerQuery = z.object({
  app_id: appId,
  offset: pagingNumber(0, Number.MAX_SAFE_INTEGER),
  limit: pagingNumber(1, 200),
});
export const upsertChallengeBody = z.object({ app_id: appId, challenge: datasetChallenge });
