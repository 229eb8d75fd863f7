// Delivers the webhooks the outbox keeps (src/store/sql/webhook-outbox.ts): at once after the
// write that recorded them commits, on start for those a stopped or killed process left, and
// each retry when it is due. Every process on one database delivers; the outbox's lease makes
// sure that no two send one delivery at once.
import { signingSecrets } from '../core/webhook-secrets.js';
import { KEPT_FOR_MS, type ClaimedDelivery, type WebhookOutbox } from '../store/sql/index.js';
import type { Logger } from './logger.js';
import { OUTBOUND_TIMEOUT_MS, postSigned } from './outbound-post.js';
import type { AddressRules } from './public-address.js';

/** Deliveries claimed at once, and at most in flight. */
const BATCH = 16;
/**
 * How long a claimed delivery stays this process's: past the attempt's timeout, with room for a
 * busy machine. A process killed mid-attempt leaves it due again after this.
 */
const LEASE_MS = OUTBOUND_TIMEOUT_MS + 20_000;
/**
 * The longest wait between two looks at the outbox: another process's writes (on a shared
 * database) and leases run out are seen within it. Due retries are looked for when due.
 */
const IDLE_LOOK_MS = 5_000;
/** How often delivered and failed rows past KEPT_FOR_MS are deleted. */
const FORGET_EVERY_MS = 3_600_000;

export interface DeliveryOptions extends AddressRules {
  logger: Logger;
  /**
   * Whether this process alone delivers from the outbox (PGlite): a lease found at start is then
   * a killed process's, and its delivery is due at once, not when the lease runs out.
   */
  alone: boolean;
  /** The clock, which tells a secret's rotation run out; tests move it (test/hosts/test-server.ts). */
  now?: () => number;
}

export interface WebhookDelivery {
  /** Stops looking; resolves once the attempts under way have finished. */
  stop(): Promise<void>;
}

export function startWebhookDelivery(outbox: WebhookOutbox, options: DeliveryOptions): WebhookDelivery {
  const { logger, now = Date.now } = options;
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let looking = false;
  let lookAgain = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let forgotAt = 0;
  let looked: Promise<void> = Promise.resolve();

  const attempt = async (delivery: ClaimedDelivery) => {
    let outcome;
    try {
      const answer = await postSigned(
        { url: delivery.url, id: delivery.id, body: delivery.body, secrets: signingSecrets(delivery.endpoint, now()) },
        options,
      );
      outcome = {
        status: answer.status,
        ...(answer.status >= 300 || answer.status < 200 ? { error: `answered ${answer.status}` } : {}),
      };
    } catch (error) {
      outcome = { status: null, error: (error as Error).message };
    }
    if (outcome.error !== undefined) {
      logger.warn({ delivery_id: delivery.id, attempt: delivery.attempt, reason: outcome.error }, 'a webhook delivery failed');
    }
    await outbox.finish(delivery, outcome, now());
  };

  /** Claims and sends what is due, batch after batch, then waits for the next due or a wake. */
  const look = () => {
    if (stopped) return;
    if (looking) {
      lookAgain = true;
      return;
    }
    looking = true;
    looked = lookNow();
  };
  const lookNow = async () => {
    clearTimeout(timer);
    try {
      do {
        lookAgain = false;
        if (now() - forgotAt > FORGET_EVERY_MS) {
          forgotAt = now();
          await outbox.forget(now() - KEPT_FOR_MS);
        }
        const room = BATCH - inFlight.size;
        const claimed = room > 0 ? await outbox.claim(now(), room, LEASE_MS) : [];
        for (const delivery of claimed) {
          const sent = attempt(delivery)
            .catch((error: unknown) => logger.error({ err: error }, 'a webhook attempt could not be recorded'))
            .finally(() => {
              inFlight.delete(sent);
              // Room again: what waits may go.
              look();
            });
          inFlight.add(sent);
        }
        if (claimed.length === room && room > 0) lookAgain = true;
      } while (lookAgain && !stopped);
      const due = await outbox.nextDue();
      const wait = due === null ? IDLE_LOOK_MS : Math.min(IDLE_LOOK_MS, Math.max(0, due - now()));
      if (!stopped) timer = setTimeout(() => look(), wait);
    } catch (error) {
      logger.error({ err: error }, 'could not read the webhook outbox; trying again shortly');
      if (!stopped) timer = setTimeout(() => look(), IDLE_LOOK_MS);
    } finally {
      looking = false;
    }
    // A wake while it waited for the next due time: what it woke for may be due now.
    if (lookAgain) look();
  };

  const stopListening = outbox.onRecorded(() => look());
  if (options.alone) {
    looking = true;
    looked = outbox
      .releaseLeases()
      .catch((error: unknown) => logger.error({ err: error }, 'could not release the webhook leases left at start'))
      .finally(() => {
        looking = false;
        look();
      });
  } else look();
  return {
    async stop() {
      stopped = true;
      stopListening();
      clearTimeout(timer);
      await looked;
      await Promise.all(inFlight);
    },
  };
}
