// The server's side of a callback task (docs/quests.md): Questboard asks the site's endpoint
// whether the member did what the task asks, by a POST signed as a webhook delivery is
// (webhook-signature.ts), with the secrets every endpoint of the app's webhooks signs with
// (core/webhook-secrets.ts: a secret changed within a day signs too), and to a public address only
// (public-address.ts). The handler is given it (HandlerOptions.checkCallback); the service worker
// and the in-page handler have none.
import { CALLBACK_UNANSWERED } from '../api/error-codes.js';
import { ApiError } from '../api/errors.js';
import type { CheckCallback as HandlersCheck } from '../core/quests.js';
import { signingSecrets } from '../core/webhook-secrets.js';
import type { AppRecord } from '../store/index.js';
import { postSigned } from './outbound-post.js';
import type { AddressRules } from './public-address.js';

/** What a check asks about: the task, with its callback URL, and the member. */
export interface CallbackTask {
  task_id: string;
  app_id: string;
  challenge_id?: string;
  verification: { kind: 'callback'; url: string };
}

export interface CallbackMember {
  account_name: string;
}

export interface CallbackVerdict {
  completed: boolean;
  /** Why not, in the site's words (its answer's `reason`) or in ours. */
  reason?: string;
}

/** The site did not answer the check (no answer in time, an address refused, a 5xx): answered 502. */
export class CallbackUnanswered extends Error {
  override name = 'CallbackUnanswered';
}

/** The longest reason passed on from a site's answer. */
const REASON_LIMIT = 500;

/** `app`: whose webhook secrets sign the check, as the write that asks read it; no transaction is open meanwhile. */
export type CheckCallback = (
  task: CallbackTask,
  member: CallbackMember,
  app: Pick<AppRecord, 'webhooks'>,
) => Promise<CallbackVerdict>;

/**
 * The check the Node server gives its handler. `200 {"completed":true}` completes the task; any
 * other answer is a reason not to, the site's own where it gives one (`{"completed":false,
 * "reason":"…"}`); no answer, or a 5xx, throws CallbackUnanswered. `now`: the clock the
 * secrets' rotation is told by.
 */
export function createCallbackCheck(rules: AddressRules, now: () => number = Date.now): CheckCallback {
  return async (task, member, app) => {
    const secrets = (app.webhooks ?? []).flatMap((endpoint) => signingSecrets(endpoint, now()));
    if (secrets.length === 0) {
      return { completed: false, reason: 'the app has no webhook secret to sign the check with (settings.webhooks)' };
    }
    const body = JSON.stringify({
      type: 'task.check',
      timestamp: new Date().toISOString(),
      data: {
        app_id: task.app_id,
        task_id: task.task_id,
        ...(task.challenge_id === undefined ? {} : { challenge_id: task.challenge_id }),
        account_name: member.account_name,
      },
    });
    const id = `msg_${crypto.randomUUID().replaceAll('-', '')}`;
    let answer;
    try {
      answer = await postSigned({ url: task.verification.url, id, body, secrets }, rules);
    } catch (error) {
      throw new CallbackUnanswered(`the site's callback did not answer: ${(error as Error).message}`);
    }
    if (answer.status >= 500) throw new CallbackUnanswered(`the site's callback answered ${answer.status}`);
    const said = parsed(answer.text);
    if (answer.status === 200 && said?.completed === true) return { completed: true };
    const reason = typeof said?.reason === 'string' && said.reason.trim() !== '' ? said.reason : null;
    return {
      completed: false,
      reason: (reason ?? (answer.status === 200 ? 'the site says it is not done' : `the site answered ${answer.status}`)).slice(
        0,
        REASON_LIMIT,
      ),
    };
  };
}

function parsed(text: string): { completed?: unknown; reason?: unknown } | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? value : null;
  } catch {
    return null;
  }
}

/**
 * The check as the handler asks it (core/quests.ts): of a task record, whose verification says
 * where to ask; a site that does not answer is the request's 502.
 */
export function handlersCallbackCheck(check: CheckCallback): HandlersCheck {
  return async (task, member, app) => {
    if (task.verification?.kind !== 'callback') return { completed: false, reason: 'the task is not a callback task' };
    const asked = {
      task_id: task.task_id,
      app_id: task.app_id,
      challenge_id: task.challenge_id,
      verification: task.verification,
    };
    try {
      return await check(asked, member, app);
    } catch (error) {
      if (error instanceof CallbackUnanswered) throw new ApiError(CALLBACK_UNANSWERED, { reason: error.message });
      throw error;
    }
  };
}
