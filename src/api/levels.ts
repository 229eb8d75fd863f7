// Level L begins at 50·(L−1)·L total XP: 1 at 0, 2 at 100, 3 at 300, 4 at 600…
// Part of the contract: the rules compute levels, and the user card draws the bar between them.

/** The total XP at which `level` begins. */
export const levelStart = (level: number) => 50 * (level - 1) * level;

export function levelFor(xp: number): { current_level: number; next_level_xp: number } {
  // Inverse of the quadratic, then corrected for floating point at the edges.
  let level = Math.max(1, Math.floor((1 + Math.sqrt(1 + (4 * xp) / 50)) / 2));
  while (levelStart(level + 1) <= xp) level++;
  while (level > 1 && levelStart(level) > xp) level--;
  return { current_level: level, next_level_xp: levelStart(level + 1) };
}
