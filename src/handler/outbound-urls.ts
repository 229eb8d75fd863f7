// Where a server sends webhooks and asks callbacks (docs/quests.md): https: only, unless its
// operator allows private addresses. Checked when a dataset or a challenge brings a URL; the
// address itself is checked where the request is sent (src/server/public-address.ts).
import { INVALID_INPUT } from '../api/error-codes.js';
import { ApiError } from '../api/errors.js';
import type * as schemas from '../api/schemas.js';

/**
 * Webhooks are sent, and callbacks asked, over https: only, unless the operator allows private
 * ones (for tests and intranets): an http: one is refused before anything is imported.
 */
export function refuseHttpWebhooks(dataset: schemas.Dataset): void {
  for (const [appIndex, app] of (dataset.apps ?? []).entries()) {
    for (const [index, { url }] of (app.settings?.webhooks ?? []).entries())
      refuseHttp(`apps.${appIndex}.settings.webhooks.${index}.url`, url);
    for (const [challengeIndex, challenge] of (app.challenges ?? []).entries()) {
      for (const [taskIndex, { verification }] of challenge.tasks.entries()) {
        const path = `apps.${appIndex}.challenges.${challengeIndex}.tasks.${taskIndex}.verification.url`;
        if (verification?.kind === 'callback') refuseHttp(path, verification.url);
      }
    }
  }
}

/** Refuses an http: URL, naming its field. */
export function refuseHttp(field: string, url: string): void {
  if (new URL(url).protocol !== 'https:') {
    throw new ApiError(INVALID_INPUT, { field, reason: 'must be an https: URL (or a server run with --allow-private-webhooks)' });
  }
}
