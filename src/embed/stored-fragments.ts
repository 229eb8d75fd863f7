// The last leaderboard each kind of container showed, kept in the page's localStorage so that a
// returning visitor's page paints it at once, while the worker is still asked for the current
// one (which replaces it a moment later where it differs). Only fresh answers are kept, without
// their <style> (the embed brings that itself); storage that refuses (a sandboxed frame, a full
// quota) keeps nothing and the page simply waits for the answer.

const PREFIX = 'questboard:leaderboard:';

export function storedFragment(key: string): string | null {
  try {
    return localStorage.getItem(PREFIX + key);
  } catch {
    return null;
  }
}

/** `markup`: the fragment without its <style>. */
export function storeFragment(key: string, markup: string): void {
  try {
    localStorage.setItem(PREFIX + key, markup);
  } catch {
    // Not kept: the next visit waits for the answer, as a first visit does.
  }
}
