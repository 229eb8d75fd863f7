// What a remote's answers must look like before they are passed on or kept
// for offline use: the contract's own response schemas (src/api/responses.ts),
// per operation. Extra fields are allowed, so a newer server stays usable.
import type * as z from 'zod/mini';
import * as answers from '../api/responses.js';

export { errorBody as failureShape } from '../api/responses.js';

/** The success shape of an operation's answer, or null for operations the strategy does not know (admin ones). */
export function successShape(operation: string, url: URL): z.ZodMiniType | null {
  switch (operation) {
    case 'health':
      return answers.health;
    case 'get_challenge':
      return answers.challenge;
    case 'get_userinfo':
      return answers.userInfo;
    case 'get_leaderboard':
      return url.searchParams.get('widget_response') === 'html' ? answers.leaderboardHtml : answers.leaderboard;
    case 'get_task_progress':
      return answers.taskProgress;
    case 'get_endorsement':
      return answers.endorsement;
    case 'endorse_account':
    case 'connect_social':
      return answers.acknowledged;
    case 'airdrop_token_ledger':
      return answers.airdropResult;
    default:
      return null;
  }
}

/** "field.path: why" for the first thing wrong, so the message says what the remote got wrong. */
export function describeMismatch(error: z.core.$ZodError): string {
  const issue = error.issues[0]!;
  const path = issue.path.map(String).join('.');
  return `${path === '' ? 'the answer' : path}: ${issue.message}`;
}
