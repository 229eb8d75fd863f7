// What the demo's panels drawn from one leaderboard answer (members near you, the HTML
// fragment) share: each draws the board of the chosen type now, again on every change to the
// demo app and whenever the type changes, and says so in its place when the board cannot load.
import { changeAffects, subscribeToChanges } from '../src/client/index.js';
import type { LeaderboardType } from '../src/api/schemas.js';
import { DEMO_APP_ID } from './dataset.js';

export interface BoardPanel {
  setType(type: LeaderboardType): void;
  /** Draws the board again, for a panel that also shows something else that changed. */
  refresh(): void;
}

export function followBoard<Answer>({
  initialType,
  load,
  draw,
  showFailure,
}: {
  initialType: LeaderboardType;
  load(type: LeaderboardType): Promise<Answer>;
  draw(answer: Answer, type: LeaderboardType): void;
  showFailure(message: string): void;
}): BoardPanel {
  let type = initialType;
  let latest = 0;

  async function render(): Promise<void> {
    const request = ++latest;
    const answer = await load(type);
    // A slower older answer must not overwrite a newer one.
    if (request === latest) draw(answer, type);
  }

  function refresh(): void {
    render().catch((error: unknown) => showFailure((error as Error).message));
  }

  subscribeToChanges((change) => {
    if (changeAffects(change, DEMO_APP_ID)) refresh();
  });
  refresh();
  return {
    setType(next) {
      type = next;
      refresh();
    },
    refresh,
  };
}
