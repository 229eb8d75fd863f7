// English: built into every bundle, and the source of the message ids (their union type is
// MessageId) and of each message's placeholders, which every other catalog must keep.
// A message is a whole sentence: {name} placeholders stand for values, never for words of the
// sentence. A message whose words follow a number is an object of plural forms, chosen by
// Intl.PluralRules for its {count}.

/** The HTML fragment's words, shared with <qb-leaderboard>: every server and worker carries these for all languages. */
export const table = {
  'leaderboard.caption.score': 'Leaderboard by score',
  'leaderboard.caption.xp': 'Leaderboard by XP',
  'leaderboard.caption.weekly': 'Leaderboard this week',
  'leaderboard.caption.monthly': 'Leaderboard this month',
  // Each column's header, and the short form shown where the table is narrow (in an <abbr> titled with the header).
  'leaderboard.column.rank': 'Rank',
  'leaderboard.column.rank.short': '#',
  'leaderboard.column.member': 'Member',
  'leaderboard.column.score': 'Score',
  'leaderboard.column.score.short': 'Score',
  'leaderboard.column.weekly': 'Score this week',
  'leaderboard.column.weekly.short': 'Week',
  'leaderboard.column.monthly': 'Score this month',
  'leaderboard.column.monthly.short': 'Month',
  'leaderboard.column.xp': 'XP',
  'leaderboard.column.xp.short': 'XP',
  'leaderboard.column.challenges': 'Challenges',
  'leaderboard.column.challenges.short': 'Chal.',
  'leaderboard.column.tasks': 'Tasks',
  'leaderboard.column.tasks.short': 'Tasks',
  'leaderboard.summary': {
    one: 'Showing {first}–{last} of {count} member',
    other: 'Showing {first}–{last} of {count} members',
  },
  'leaderboard.total': { one: '{count} member', other: '{count} members' },
  'leaderboard.empty': 'No members on this leaderboard yet.',
} as const;

/** The elements' words (and the embed's notices): loaded with the page's language. */
export const elements = {
  'status.offline': 'Offline — last updated {time}',
  'status.retry': 'Try again',
  'error.unreachable': 'the Questboard service is unreachable. Try again.',
  'error.noApiKey': 'No Questboard API key: set the api-key attribute or call Questboard.configure({ apiKey }).',

  'leaderboard.idle': 'No leaderboard selected.',
  'leaderboard.loading': 'Loading the leaderboard…',
  'leaderboard.loadFailed': 'Could not load the leaderboard.',
  'leaderboard.loadFailedBecause': 'Could not load the leaderboard: {reason}',
  'leaderboard.yourPosition': 'Your position',
  'leaderboard.loadMore': 'Load more',
  'leaderboard.loadingMore': 'Loading…',
  'leaderboard.loadMoreFailed': 'Could not load more members.',
  'leaderboard.loadMoreFailedBecause': 'Could not load more members: {reason}',
  'leaderboard.unavailable': 'Leaderboard unavailable: {reason}',
  'leaderboard.noAppId': 'Leaderboard unavailable: the container has no data-app-id.',

  'userCard.idle': 'No member selected.',
  'userCard.loading': 'Loading {name}’s progress…',
  'userCard.loadFailed': 'Could not load {name}’s progress.',
  'userCard.loadFailedBecause': 'Could not load {name}’s progress: {reason}',
  'userCard.noActivity': '{name} has no activity yet.',
  'userCard.level': 'Level {level}',
  'userCard.xpTowardLevel': 'XP toward level {level}',
  'userCard.xp': '{current} of {next} XP',
  'userCard.totalScore': 'Total score',
  'userCard.weeklyScore': 'Score this week',
  'userCard.monthlyScore': 'Score this month',
  'userCard.challengesCompleted': 'Challenges completed',
  'userCard.tasksCompleted': 'Tasks completed',
  'userCard.achievements': 'Achievements',

  'taskProgress.idle': 'No task selected.',
  'taskProgress.loading': 'Loading task progress…',
  'taskProgress.loadFailed': 'Could not load task progress.',
  'taskProgress.loadFailedBecause': 'Could not load task progress: {reason}',
  'taskProgress.notStarted': 'Not started yet.',
  'taskProgress.counts': '{completed} of {required}',
  'taskProgress.completed': 'Completed',
  'taskProgress.countsCompleted': '{completed} of {required}, completed',

  'challenge.idle': 'No challenge selected.',
  'challenge.loading': 'Loading the challenge…',
  'challenge.loadFailed': 'Could not load the challenge.',
  'challenge.loadFailedBecause': 'Could not load the challenge: {reason}',
  'challenge.notStarted': 'This challenge has not started yet.',
  'challenge.tasks': 'Tasks',
  'challenge.noTasks': 'This challenge has no tasks yet.',
  'challenge.quantity': '× {quantity}',

  'endorse.label': 'Endorse {name}',
  'endorse.signIn': 'Sign in to endorse.',
  'endorse.pending': 'Endorsing…',
  'endorse.done': 'Endorsed',
  'endorse.failed': 'Could not endorse.',
  'endorse.failedBecause': 'Could not endorse: {reason}',

  'connectSocial.signIn': 'Sign in to connect your X account.',
  'connectSocial.label': 'X (Twitter) handle',
  'connectSocial.hint': 'Letters, digits and underscores, up to {max}.',
  'connectSocial.save': 'Save',
  'connectSocial.saving': 'Saving…',
  'connectSocial.saved': 'Saved {handle}.',
  'connectSocial.empty': 'Enter your X handle.',
  'connectSocial.tooLong': {
    one: 'An X handle has at most {count} character.',
    other: 'An X handle has at most {count} characters.',
  },
  'connectSocial.badCharacters': 'An X handle has only letters, digits and underscores.',
  'connectSocial.failed': 'Could not save.',
  'connectSocial.failedBecause': 'Could not save: {reason}',
} as const;

/** The words of the elements the embed loads on demand (src/components/lazy.ts). */
export const onDemand = {
  'achievements.idle': 'No member selected.',
  'achievements.loading': 'Loading {name}’s achievements…',
  'achievements.loadFailed': 'Could not load {name}’s achievements.',
  'achievements.loadFailedBecause': 'Could not load {name}’s achievements: {reason}',
  'achievements.heading': '{name}’s achievements',
  'achievements.currentStreak': 'Current streak',
  'achievements.longestStreak': 'Longest streak',
  'achievements.days': { one: '{count} day', other: '{count} days' },
  'achievements.freezesLeft': 'Streak freezes left',
  'achievements.badges': 'Badges',
  'achievements.earnedCount': { one: '{earned} of {count} badge earned', other: '{earned} of {count} badges earned' },
  'achievements.noBadges': 'This community has no badges yet.',
  'achievements.earnedOn': 'Earned {date}',
  'achievements.progress': '{current} of {target}',
  'achievements.progressToward': 'Progress toward {badge}',
  'achievements.byHand': 'Given by the community team',
} as const;
