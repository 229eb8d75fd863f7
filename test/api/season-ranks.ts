// A season's board as its members' points say it should read, computed here by brute force:
// the most points first, then the earlier to reach them, then by name; ranked by the tie rule.

export interface SeasonMember {
  account_name: string;
  points: number;
  at: number;
}

/** The board's entries as `rank:name:points`, in board order. */
export function expectedSeasonBoard(members: Iterable<SeasonMember>, policy: string): string[] {
  const ordered = [...members].sort(
    (a, b) =>
      b.points - a.points || a.at - b.at || (a.account_name < b.account_name ? -1 : a.account_name > b.account_name ? 1 : 0),
  );
  return ordered.map(({ account_name, points }, index) => {
    const higher = ordered.filter((other) => other.points > points);
    const rank =
      policy === 'ordinal'
        ? index + 1
        : policy === 'dense'
          ? new Set(higher.map((other) => other.points)).size + 1
          : higher.length + 1;
    return `${rank}:${account_name}:${points}`;
  });
}

/** A leaderboard answer's entries as `rank:name:points`. */
export const seasonEntries = (answer: { leaderboard_users: any[] }): string[] =>
  answer.leaderboard_users.map((entry) => `${entry.rank}:${entry.external_user.username}:${entry.score}`);
