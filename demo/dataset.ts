// The demo community: a builders' guild generated from a seed, in the shape
// POST /v1/admin/import takes. The same seed and the same `now` always give
// the same dataset; `now` only moves the timestamps, so weekly and monthly
// boards look alive whenever the demo is opened.

import type { Dataset as ApiDataset } from '../src/api/schemas.js';
import { seededRandom } from '../bench/seeded-random.js';

export const DEMO_APP_ID = 'guild';
/**
 * The key the pages use, what a site puts in its script tag: it reads, and writes only as the
 * member a member token names (demo/member-tokens.ts signs them for the viewed member).
 */
export const DEMO_MEMBER_KEY = 'pk_demo_member';
/** The site's own server key, which may write for anyone and pay out coins: the presenter's controls use it as a site's backend would. */
export const DEMO_API_KEY = 'pk_demo_guild';
/**
 * The public half of the demo's member token key pair, in the app's settings. The private half
 * is in demo/member-tokens.ts, standing in for a site's backend, where it would stay.
 */
export const DEMO_MEMBER_TOKEN_KEY = {
  kid: 'demo-2026',
  kty: 'EC',
  crv: 'P-256',
  x: 'gfyy19qJoo6bWp18uJQ3dQKOl-YC_boaxkyb80UvrhI',
  y: 'tKwPYBNsJQCHGZ_CHQ1TDp-RsTJQi9CKCM--IKDZ_zA',
  alg: 'ES256',
  use: 'sig',
} as const;
/** The installation's admin key: the presenter's control panel uses it for logging progress and import/export. */
export const DEMO_ADMIN_KEY = 'sk_demo_admin';
export const DEMO_TREASURY = '0.0.1001';
export const DEMO_TREASURY_BALANCE = '10000';
/** A wallet outside the guild that the control panel pays by default. */
export const DEMO_WALLET = '0.0.2002';
export const HOSTILE_NAME = '"><img src=x onerror=alert(1)>';

export const CHALLENGE_IDS = {
  onboarding: '6a1b2c3d-0001-4000-8000-00000000c001',
  buildInPublic: '6a1b2c3d-0002-4000-8000-00000000c002',
  mentorCircle: '6a1b2c3d-0003-4000-8000-00000000c003',
  winterHackathon: '6a1b2c3d-0004-4000-8000-00000000c004',
  meetupQuest: '6a1b2c3d-0005-4000-8000-00000000c005',
} as const;

/** The guild's seasons: one finished (its board frozen, its winners holding its badges) and one under way. */
export const SEASON_IDS = {
  autumn: '6a1b2c3d-0005-4000-8000-00000000e001',
  winter: '6a1b2c3d-0006-4000-8000-00000000e002',
} as const;

export const TASK_IDS = {
  introduce: '7b2c3d4e-0101-4000-8000-00000000a101',
  postThree: '7b2c3d4e-0102-4000-8000-00000000a102',
  connectX: '7b2c3d4e-0103-4000-8000-00000000a103',
  shipProject: '7b2c3d4e-0201-4000-8000-00000000a201',
  buildLogWords: '7b2c3d4e-0202-4000-8000-00000000a202',
  streamHour: '7b2c3d4e-0203-4000-8000-00000000a203',
  reviewPulls: '7b2c3d4e-0301-4000-8000-00000000a301',
  officeHours: '7b2c3d4e-0302-4000-8000-00000000a302',
  answerQuestions: '7b2c3d4e-0303-4000-8000-00000000a303',
  formTeam: '7b2c3d4e-0401-4000-8000-00000000a401',
  submitDemo: '7b2c3d4e-0402-4000-8000-00000000a402',
  meetupCode: '7b2c3d4e-0501-4000-8000-00000000a501',
  showBuild: '7b2c3d4e-0502-4000-8000-00000000a502',
} as const;

/** The code said at the demo's meetup: the quest's code task takes it (docs/quests.md). */
export const MEETUP_CODE = 'riverside';

/** Members the presenter is likely to pick: each shows something different. */
export const FEATURED_MEMBERS = ['alice', 'bob', 'Αθηνά', 'أحمد', '🦊 Fox', HOSTILE_NAME] as const;

export interface DatasetTask {
  task_id: string;
  name: string;
  quantity: number;
  operator: 0 | 1;
  metadata: Record<string, string>;
  points: number;
  allowretry: boolean;
  alloweditquantity: boolean;
  /** How a member completes it themselves (docs/quests.md); left out, the site does (`backend`). */
  verification?: { kind: 'code'; answers: string[] } | { kind: 'review' };
}

export interface DatasetChallenge {
  challenge_id: string;
  name: string;
  description: string;
  start_date: string;
  points: number;
  tasks: DatasetTask[];
}

export interface DatasetUser {
  account_name: string;
  twitter_name?: string;
  is_active: boolean;
}

export interface DatasetProgress {
  task_id: string;
  account_name: string;
  quantity: number;
  at: string;
}

export interface DatasetEndorsement {
  from_account: string;
  to_account: string;
  endorsement_id: string;
}

export interface DatasetApp {
  app_id: string;
  name: string;
  api_keys: { key: string; scopes: ('read' | 'write' | 'ledger' | 'admin' | 'member')[] }[];
  treasury: { account_id: string; balance: string };
  settings: { endorsement_xp: number; member_token_keys: (typeof DEMO_MEMBER_TOKEN_KEY)[] };
  users: DatasetUser[];
  challenges: DatasetChallenge[];
  progress: DatasetProgress[];
  endorsements: DatasetEndorsement[];
  badges: ApiApp['badges'];
  seasons: ApiApp['seasons'];
  badge_awards: ApiApp['badge_awards'];
}

type ApiApp = NonNullable<ApiDataset['apps']>[number];

export interface Dataset {
  admin_keys: string[];
  apps: DatasetApp[];
}

export interface DatasetOptions {
  /** The moment the data is seen from: every timestamp is relative to it. */
  now: Date;
  seed?: number;
  memberCount?: number;
}

export const ENDORSEMENT_KINDS = ['helpful', 'mentor', 'shipper', 'kind', 'teacher'] as const;

const DAY_MS = 86_400_000;

// Names from many scripts, with emoji (one a ZWJ sequence, one a flag) and a
// right-to-left pair: every rendering in the demo has to show them exactly.
const WORLD_NAMES = [
  'Zoë',
  'Björn',
  'Łukasz',
  'Søren',
  'José Álvarez',
  'Ngozi Okafor',
  'Chiamaka',
  'Siobhán',
  'Ægir',
  'Dvořák',
  'Αθηνά',
  'Νίκος',
  'Дмитрий',
  'Светлана',
  'Олександра',
  'Ёжик',
  '李娜',
  '王伟',
  '陈静',
  '張家豪',
  'さくら',
  '山田太郎',
  'ユウキ',
  '김민준',
  '이서연',
  'أحمد',
  'فاطمة الزهراء',
  'יעל',
  'דניאל',
  'प्रिया',
  'अर्जुन',
  'ராஜா',
  'সৌমিত্র',
  'ส้มโอ',
  'Nguyễn Văn An',
  'Trần Thị Bích',
  'Ayşe Yılmaz',
  'Kofi Mensah',
  'Tāne',
  'Ñandú',
  'Gruß Gott',
  'Ólafur',
  'Ħamrun',
  'Şebnem',
  'Ľubica',
  'მარიამი',
  'Արամ',
  'ኣበበ',
  'Ꮳ Cherokee',
  'ᠮᠣᠩᠭᠣᠯ',
];

const EMOJI_NAMES = [
  '🦊 Fox',
  'Ana 🌻',
  '🚀 rocketeer',
  'builder🔨',
  '🐙octo',
  '🌈 Rainbow Dev',
  '👩‍💻 Priya',
  '🇯🇵 Kenji',
  '🧁',
  'Max ⚡',
];

const PLAIN_NAMES = [
  'alice',
  'bob',
  'carol',
  'dave',
  'erin',
  'frank',
  'grace',
  'heidi',
  'ivan',
  'judy',
  'mallory',
  'niaj',
  'olivia',
  'peggy',
  'rupert',
  'sybil',
  'trent',
  'victor',
  'walter',
  'yara',
];

const HANDLE_FIRST = [
  'quiet',
  'rusty',
  'brave',
  'swift',
  'amber',
  'cobalt',
  'copper',
  'lucky',
  'silver',
  'sunny',
  'tidy',
  'nimble',
  'bold',
  'merry',
  'clever',
  'mossy',
  'misty',
  'frosty',
  'iron',
  'velvet',
  'golden',
  'little',
  'grand',
  'wild',
];
const HANDLE_SECOND = [
  'anvil',
  'forge',
  'hammer',
  'chisel',
  'lathe',
  'kiln',
  'loom',
  'quill',
  'rivet',
  'gear',
  'beam',
  'brick',
  'trowel',
  'mason',
  'wright',
  'smith',
  'joiner',
  'tinker',
  'weld',
  'spark',
  'bolt',
  'plank',
];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function isoSeconds(time: number): string {
  return new Date(Math.floor(time / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

function memberNames(random: () => number, count: number): string[] {
  const names = new Set<string>([...PLAIN_NAMES, ...WORLD_NAMES, ...EMOJI_NAMES, HOSTILE_NAME]);
  while (names.size < count) {
    const handle = `${pick(random, HANDLE_FIRST)}${pick(random, HANDLE_SECOND)}`;
    const styled = random() < 0.4 ? `${handle}${Math.floor(random() * 100)}` : random() < 0.5 ? handle : `${handle}_builds`;
    names.add(styled);
  }
  return [...names].slice(0, count);
}

function twitterHandleFor(name: string, random: () => number): string | undefined {
  if (!/^[a-z0-9_]{1,12}$/.test(name) || random() < 0.3) return undefined;
  return `${name}_x`.slice(0, 15);
}

function challenges(now: number): DatasetChallenge[] {
  const task = (
    task_id: string,
    name: string,
    quantity: number,
    operator: 0 | 1,
    metadata: Record<string, string>,
    points: number,
    flags: { allowretry?: boolean; alloweditquantity?: boolean; verification?: DatasetTask['verification'] } = {},
  ): DatasetTask => ({
    task_id,
    name,
    quantity,
    operator,
    metadata,
    points,
    allowretry: flags.allowretry ?? false,
    alloweditquantity: flags.alloweditquantity ?? false,
    ...(flags.verification ? { verification: flags.verification } : {}),
  });
  return [
    {
      challenge_id: CHALLENGE_IDS.onboarding,
      name: 'Welcome to the Guild',
      description: 'Say hello, share what you are building and link your X account.',
      start_date: isoSeconds(now - 70 * DAY_MS),
      points: 50,
      tasks: [
        task(TASK_IDS.introduce, 'Introduce yourself', 1, 1, { action: 'post', channel: 'introductions' }, 10),
        task(TASK_IDS.postThree, 'Post 3 times', 3, 0, { action: 'post' }, 10),
        task(TASK_IDS.connectX, 'Connect your X account', 1, 1, { action: 'connect_social', network: 'x' }, 5),
      ],
    },
    {
      challenge_id: CHALLENGE_IDS.buildInPublic,
      name: 'Build in Public',
      description: 'Ship something, write about it, and stream a session. Every shipped project counts again.',
      start_date: isoSeconds(now - 56 * DAY_MS),
      points: 100,
      tasks: [
        task(TASK_IDS.shipProject, 'Ship a project', 1, 1, { action: 'ship' }, 40, { allowretry: true }),
        task(TASK_IDS.buildLogWords, 'Write 2,000 words of build logs', 2000, 0, { action: 'write', unit: 'words' }, 20),
        task(TASK_IDS.streamHour, 'Stream for an hour in one go', 60, 1, { action: 'stream', unit: 'minutes' }, 15),
      ],
    },
    {
      challenge_id: CHALLENGE_IDS.mentorCircle,
      name: 'Mentor Circle',
      description: 'Help others get unstuck: review their work, hold office hours, answer questions.',
      start_date: isoSeconds(now - 42 * DAY_MS),
      points: 75,
      tasks: [
        task(TASK_IDS.reviewPulls, 'Review 10 pull requests', 10, 0, { action: 'review' }, 15, { allowretry: true }),
        task(TASK_IDS.officeHours, 'Hold 4 office hours this month', 4, 0, { action: 'office_hours', unit: 'hours' }, 10, {
          alloweditquantity: true,
        }),
        task(TASK_IDS.answerQuestions, 'Answer 5 questions', 5, 0, { action: 'answer' }, 10),
      ],
    },
    {
      challenge_id: CHALLENGE_IDS.winterHackathon,
      name: 'Winter Hackathon',
      description: 'Two weeks, one team, one demo. Opens soon.',
      start_date: isoSeconds(now + 12 * DAY_MS),
      points: 200,
      tasks: [
        task(TASK_IDS.formTeam, 'Form a team', 1, 1, { action: 'team' }, 10),
        task(TASK_IDS.submitDemo, 'Submit a demo', 1, 1, { action: 'submit' }, 50),
      ],
    },
    {
      // A quest members complete themselves: no progress is generated for it, so every member can try.
      challenge_id: CHALLENGE_IDS.meetupQuest,
      name: 'Meetup Quest',
      description: `Say the code from the meetup (it was "${MEETUP_CODE}") and show what you built: a reviewer approves it in the console.`,
      start_date: isoSeconds(now - 7 * DAY_MS),
      points: 30,
      tasks: [
        task(TASK_IDS.meetupCode, 'Say the meetup’s code', 1, 1, { action: 'meetup' }, 10, {
          verification: { kind: 'code', answers: [MEETUP_CODE] },
        }),
        task(TASK_IDS.showBuild, 'Show what you built', 1, 1, { action: 'show' }, 20, { verification: { kind: 'review' } }),
      ],
    },
  ];
}

/** How much one log of each task says, as a member would really report it. */
function logQuantity(random: () => number, taskId: string): number {
  switch (taskId) {
    case TASK_IDS.buildLogWords:
      return 150 + Math.floor(random() * 750);
    case TASK_IDS.streamHour:
      return 20 + Math.floor(random() * 70);
    case TASK_IDS.reviewPulls:
      return 1 + Math.floor(random() * 3);
    case TASK_IDS.officeHours:
      return 1 + Math.floor(random() * 5);
    default:
      return 1;
  }
}

// Weights of what members do: posting is common, shipping is rare.
const ACTIVITY: { taskId: string; weight: number; opensDaysAgo: number }[] = [
  { taskId: TASK_IDS.introduce, weight: 3, opensDaysAgo: 70 },
  { taskId: TASK_IDS.postThree, weight: 10, opensDaysAgo: 70 },
  { taskId: TASK_IDS.connectX, weight: 2, opensDaysAgo: 70 },
  { taskId: TASK_IDS.shipProject, weight: 2, opensDaysAgo: 56 },
  { taskId: TASK_IDS.buildLogWords, weight: 5, opensDaysAgo: 56 },
  { taskId: TASK_IDS.streamHour, weight: 2, opensDaysAgo: 56 },
  { taskId: TASK_IDS.reviewPulls, weight: 6, opensDaysAgo: 42 },
  { taskId: TASK_IDS.officeHours, weight: 2, opensDaysAgo: 42 },
  { taskId: TASK_IDS.answerQuestions, weight: 5, opensDaysAgo: 42 },
];
const ACTIVITY_WEIGHT = ACTIVITY.reduce((sum, entry) => sum + entry.weight, 0);

function pickActivity(random: () => number): (typeof ACTIVITY)[number] {
  let roll = random() * ACTIVITY_WEIGHT;
  for (const entry of ACTIVITY) {
    roll -= entry.weight;
    if (roll < 0) return entry;
  }
  return ACTIVITY[ACTIVITY.length - 1]!;
}

function memberProgress(random: () => number, names: string[], now: number): DatasetProgress[] {
  const progress: DatasetProgress[] = [];
  for (const account_name of names) {
    if (SCRIPTED_MEMBERS.has(account_name)) continue;
    // A few members do most of the work, and each has their own busy stretch:
    // that is what makes this week's board differ from the all-time one.
    const eventCount = Math.floor(Math.pow(random(), 2.2) * 22);
    const busiestDaysAgo = random() * 60;
    for (let event = 0; event < eventCount; event += 1) {
      const activity = pickActivity(random);
      const spread = Math.abs(busiestDaysAgo + (random() - 0.5) * 14);
      const daysAgo = Math.min(activity.opensDaysAgo - 1, Math.max(0.02 + random() * 0.5, spread));
      progress.push({
        task_id: activity.taskId,
        account_name,
        quantity: logQuantity(random, activity.taskId),
        at: isoSeconds(now - daysAgo * DAY_MS),
      });
    }
  }
  return progress;
}

const SCRIPTED_MEMBERS = new Set(['alice', 'bob']);

/** Monday 00:00 UTC of the ISO week `time` falls in: where the weekly board starts counting. */
function startOfWeek(time: number): number {
  const day = new Date(time);
  const daysSinceMonday = (day.getUTCDay() + 6) % 7;
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() - daysSinceMonday);
}

/** bob joined this week and did everything at once: he leads the weekly board whatever day it is. */
function bobsWeek(now: number): DatasetProgress[] {
  const weekStart = startOfWeek(now);
  const within = (fraction: number) => isoSeconds(weekStart + (now - weekStart) * fraction);
  const bob = (task_id: string, quantity: number, fraction: number): DatasetProgress => ({
    task_id,
    account_name: 'bob',
    quantity,
    at: within(fraction),
  });
  return [
    bob(TASK_IDS.introduce, 1, 0.1),
    bob(TASK_IDS.buildLogWords, 1100, 0.2),
    bob(TASK_IDS.reviewPulls, 5, 0.3),
    bob(TASK_IDS.streamHour, 90, 0.4),
    bob(TASK_IDS.reviewPulls, 5, 0.5),
    bob(TASK_IDS.buildLogWords, 900, 0.6),
    bob(TASK_IDS.reviewPulls, 10, 0.7),
    bob(TASK_IDS.shipProject, 1, 0.8),
  ];
}

/**
 * The presenter's story. alice sits outside the top ten with everything of
 * "Build in Public" done except shipping, and two of three posts: logging one
 * shipped project completes the challenge too and lifts her into the top ten;
 * one more post completes "Post 3 times". bob leads this week.
 */
function scriptedProgress(now: number): DatasetProgress[] {
  const hoursAgo = (hours: number) => isoSeconds(now - hours * 3_600_000);
  const alice = (task_id: string, quantity: number, hours: number): DatasetProgress => ({
    task_id,
    account_name: 'alice',
    quantity,
    at: hoursAgo(hours),
  });
  return [
    alice(TASK_IDS.introduce, 1, 24 * 40),
    alice(TASK_IDS.postThree, 1, 24 * 39),
    alice(TASK_IDS.postThree, 1, 24 * 12),
    alice(TASK_IDS.buildLogWords, 1200, 24 * 30),
    alice(TASK_IDS.buildLogWords, 900, 24 * 9),
    alice(TASK_IDS.streamHour, 75, 24 * 8),
    alice(TASK_IDS.reviewPulls, 6, 24 * 20),
    alice(TASK_IDS.reviewPulls, 8, 24 * 5),
    alice(TASK_IDS.reviewPulls, 6, 30),
    alice(TASK_IDS.answerQuestions, 5, 24 * 2),
    ...bobsWeek(now),
  ];
}

function endorsements(random: () => number, names: string[]): DatasetEndorsement[] {
  const seen = new Set<string>();
  const result: DatasetEndorsement[] = [];
  const target = Math.floor(names.length * 1.5);
  while (result.length < target) {
    const from_account = pick(random, names);
    // Endorsements cluster on the more visible members, as they do in real communities.
    const to_account = names[Math.floor(Math.pow(random(), 2) * names.length)]!;
    const endorsement_id = pick(random, ENDORSEMENT_KINDS);
    const key = JSON.stringify([from_account, to_account, endorsement_id]);
    if (from_account === to_account || seen.has(key)) continue;
    seen.add(key);
    result.push({ from_account, to_account, endorsement_id });
  }
  return result;
}

export function generateDataset({ now, seed = 20261122, memberCount = 420 }: DatasetOptions): Dataset {
  const random = seededRandom(seed);
  const nowMs = now.getTime();
  const names = memberNames(random, memberCount);
  const users = names.map((account_name) => {
    const twitter_name = twitterHandleFor(account_name, random);
    return { account_name, ...(twitter_name ? { twitter_name } : {}), is_active: random() > 0.04 };
  });
  const progress = [...memberProgress(random, names, nowMs), ...scriptedProgress(nowMs)].sort((a, b) =>
    a.at < b.at ? -1 : a.at > b.at ? 1 : 0,
  );
  return {
    admin_keys: [DEMO_ADMIN_KEY],
    apps: [
      {
        app_id: DEMO_APP_ID,
        name: 'Builders Guild',
        api_keys: [
          { key: DEMO_MEMBER_KEY, scopes: ['read', 'member'] },
          { key: DEMO_API_KEY, scopes: ['read', 'write', 'ledger'] },
        ],
        treasury: { account_id: DEMO_TREASURY, balance: DEMO_TREASURY_BALANCE },
        settings: { endorsement_xp: 5, member_token_keys: [DEMO_MEMBER_TOKEN_KEY] },
        users,
        challenges: challenges(nowMs),
        progress,
        endorsements: endorsements(random, names),
        ...seasonsAndBadges(random, names, nowMs),
      },
    ],
  };
}

const DAY = 24 * 60 * 60 * 1000;

/**
 * The badge wall (rule badges the history earns as it is replayed, and the season winners'
 * badges), a finished season whose top three hold its badges, and a season under way.
 */
function seasonsAndBadges(
  random: () => number,
  names: string[],
  nowMs: number,
): Pick<DatasetApp, 'badges' | 'seasons' | 'badge_awards'> {
  const iso = (ms: number) => new Date(ms).toISOString();
  const board = (from: number, to: number) =>
    names
      .filter(() => random() < 0.3)
      .map((account_name) => ({ account_name, points: Math.ceil(random() ** 2 * 600), at: iso(from + random() * (to - from)) }))
      .sort((a, b) => b.points - a.points || (a.at < b.at ? -1 : 1));
  const autumnEnd = nowMs - 10 * DAY;
  const autumn = board(autumnEnd - 60 * DAY, autumnEnd);
  const winners: [string, string][] = [
    ...autumn.slice(0, 1).map((entry): [string, string] => ['autumn-champion', entry.account_name]),
    ...autumn.slice(0, 3).map((entry): [string, string] => ['autumn-podium', entry.account_name]),
  ];
  return {
    badges: [
      {
        badge_id: 'first-steps',
        name: 'First steps',
        description: 'Completed a first task.',
        rule: { kind: 'tasks_completed', at_least: 1 },
      },
      {
        badge_id: 'busy-builder',
        name: 'Busy builder',
        description: 'Completed ten tasks.',
        rule: { kind: 'tasks_completed', at_least: 10 },
      },
      {
        badge_id: 'welcomed',
        name: 'Welcomed',
        description: 'Finished Welcome to the Guild.',
        rule: { kind: 'challenge', challenge_id: CHALLENGE_IDS.onboarding },
      },
      { badge_id: 'level-3', name: 'Rising', description: 'Reached level 3.', rule: { kind: 'level', at_least: 3 } },
      {
        badge_id: 'on-a-roll',
        name: 'On a roll',
        description: 'Active three days in a row.',
        rule: { kind: 'streak', at_least: 3 },
      },
      {
        badge_id: 'autumn-champion',
        name: 'Autumn champion',
        description: 'First in the Autumn season.',
        rule: { kind: 'manual' },
      },
      {
        badge_id: 'autumn-podium',
        name: 'Autumn podium',
        description: 'In the top three of the Autumn season.',
        rule: { kind: 'manual' },
      },
    ],
    seasons: [
      {
        season_id: SEASON_IDS.autumn,
        name: 'Autumn season',
        starts_at: iso(autumnEnd - 60 * DAY),
        ends_at: iso(autumnEnd),
        rewards: [
          { from_rank: 1, to_rank: 1, badge_id: 'autumn-champion' },
          { from_rank: 1, to_rank: 3, badge_id: 'autumn-podium' },
        ],
        frozen: true,
        board: autumn,
      },
      {
        season_id: SEASON_IDS.winter,
        name: 'Winter season',
        starts_at: iso(nowMs - 9 * DAY),
        ends_at: iso(nowMs + 50 * DAY),
        board: board(nowMs - 9 * DAY, nowMs - DAY),
      },
    ],
    badge_awards: winners.map(([badge_id, account_name]) => ({
      badge_id,
      account_name,
      earned_at: iso(autumnEnd),
      reason: 'Autumn season',
    })),
  };
}

/** Every task of the challenges that have started, for the control panel's "log progress" list. */
export function loggableTasks(dataset: Dataset, now: Date): { challenge: string; task: DatasetTask }[] {
  const [app] = dataset.apps;
  return (app?.challenges ?? [])
    .filter((challenge) => Date.parse(challenge.start_date) <= now.getTime())
    .flatMap((challenge) => challenge.tasks.map((task) => ({ challenge: challenge.name, task })));
}
