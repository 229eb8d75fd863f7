// Standard Webhooks signatures (https://www.standardwebhooks.com/): each request carries
// webhook-id, webhook-timestamp (seconds) and webhook-signature, `v1,` and the base64 HMAC-SHA256
// of "id.timestamp.body" under the key the `whsec_` secret holds in base64. docs/quests.md shows
// a site how to check one in Node and in Python.
import { createHmac } from 'node:crypto';

/** The signature of one secret: `v1,<base64>`. */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The headers of a signed request; several secrets give several signatures, space-separated. */
export function signedHeaders(secrets: string[], id: string, timestamp: number, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': [...new Set(secrets)].map((secret) => signature(secret, id, timestamp, body)).join(' '),
  };
}
