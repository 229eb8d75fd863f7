// The secrets an app's webhook endpoint signs with (docs/quests.md, Rotating a secret): its
// secret, and for a day after it changed the one before, so that a site which changes its secret
// and then its check keeps accepting what is sent in between, whichever it checks with first.
// The server's deliveries and callback checks both sign with these (src/server).
import type { AppRecord, WebhookEndpointRecord } from '../store/index.js';

/** How long an endpoint still signs with a secret once another replaced it. */
export const ROTATION_GRACE_MS = 24 * 3_600_000;

/** The secrets `endpoint` signs with at `now`: its own first, then those replaced less than a day before. */
export function signingSecrets(endpoint: WebhookEndpointRecord, now: number): string[] {
  const previous = (endpoint.previous_secrets ?? []).filter(({ until }) => until > now).map(({ secret }) => secret);
  return [endpoint.secret, ...previous];
}

/**
 * The endpoints an app's webhooks setting saves, given the endpoints it replaces (matched by URL):
 * a secret changed at `now` is kept as a previous one for ROTATION_GRACE_MS; those run out are dropped.
 */
export function rotatedWebhooks(
  given: readonly WebhookEndpointRecord[],
  replaced: AppRecord['webhooks'],
  now: number,
): WebhookEndpointRecord[] {
  return given.map((endpoint) => {
    const before = replaced?.find(({ url }) => url === endpoint.url);
    const previous = (
      before ? [{ secret: before.secret, until: now + ROTATION_GRACE_MS }, ...(before.previous_secrets ?? [])] : []
    )
      // The endpoint's secret unchanged, or changed back, is no previous one.
      .filter(({ secret, until }) => until > now && secret !== endpoint.secret);
    return previous.length > 0 ? { ...endpoint, previous_secrets: previous } : endpoint;
  });
}
