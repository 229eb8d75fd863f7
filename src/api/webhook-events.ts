// What happened in an app, as a server's webhooks tell the site's backend (docs/quests.md).
// The rules say it inside the write's transaction (Transaction.recordEvent), so an event is
// kept exactly when the change it tells of commits.

/** Every event a webhook endpoint may subscribe to: part of the contract sites code against. */
export const WEBHOOK_EVENT_TYPES = [
  'task.completed',
  'challenge.completed',
  'level.changed',
  'badge.awarded',
  'submission.created',
  'submission.reviewed',
  'season.ended',
  'ledger.transfer',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export interface WebhookEvent {
  app_id: string;
  type: WebhookEventType;
  /** Epoch ms of the change. */
  at: number;
  /** The body's `data`: what the event type documents. */
  data: Record<string, unknown>;
}
