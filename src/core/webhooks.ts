// An app's webhook endpoints as the admin API edits them, one at a time (an import sets them all):
// listed without their secrets, saved by URL, removed. Delivery is a server's
// (src/server/webhook-delivery.ts); a browser's store keeps them as data only.
import type { WebhookEndpointSummary } from '../api/admin-responses.js';
import { INVALID_INPUT, WEBHOOK_NOT_FOUND } from '../api/error-codes.js';
import { ApiError } from '../api/errors.js';
import { MAX_WEBHOOK_ENDPOINTS, type WebhookEndpoint } from '../api/schemas.js';
import type { AppRecord, WebhookEndpointRecord } from '../store/index.js';
import { rotatedWebhooks } from './webhook-secrets.js';

/** What may be shown of an endpoint: never its secret, which only signs. */
export const webhookShape = ({ url, events }: WebhookEndpoint): WebhookEndpointSummary => ({ url, events });

/** A new secret: 32 random bytes, as Standard Webhooks writes one. */
function newWebhookSecret(): string {
  return `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;
}

export interface SavedWebhook {
  webhooks: WebhookEndpointRecord[];
  /** The secret made for it, answered this once; null when the endpoint keeps its own. */
  secret: string | null;
}

/**
 * The app's endpoints with the one at `url` added or changed. A new endpoint, or one asked for
 * `new_secret`, gets a secret made here; any other keeps its own. A secret replaced at `now`
 * still signs for a day, as when an import changes it (webhook-secrets.ts).
 */
export function saveWebhook(
  app: AppRecord,
  { url, events, new_secret = false }: { url: string; events: WebhookEndpoint['events']; new_secret?: boolean | undefined },
  now: number,
): SavedWebhook {
  const webhooks = app.webhooks ?? [];
  const existing = webhooks.find((endpoint) => endpoint.url === url);
  if (!existing && webhooks.length >= MAX_WEBHOOK_ENDPOINTS) {
    const reason = `the app has ${MAX_WEBHOOK_ENDPOINTS} endpoints, the most it may: remove one first`;
    throw new ApiError(INVALID_INPUT, { field: 'url', reason });
  }
  const secret = existing && !new_secret ? null : newWebhookSecret();
  const saved = { url, secret: secret ?? existing!.secret, events };
  const saving = existing ? webhooks.map((endpoint) => (endpoint === existing ? saved : endpoint)) : [...webhooks, saved];
  return { webhooks: rotatedWebhooks(saving, app.webhooks, now), secret };
}

/** The app's endpoints without the one at `url`; a 404 when it has none there. */
export function removeWebhook(app: AppRecord, url: string): WebhookEndpointRecord[] {
  const webhooks = app.webhooks ?? [];
  if (!webhooks.some((endpoint) => endpoint.url === url)) throw new ApiError(WEBHOOK_NOT_FOUND, { url });
  return webhooks.filter((endpoint) => endpoint.url !== url);
}
