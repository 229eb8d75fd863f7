// Apps and their members: the lookups every operation starts from.
import { APP_NOT_FOUND, MEMBER_NOT_FOUND } from '../api/error-codes.js';
import { ApiError } from '../api/errors.js';
import type { Transaction } from '../store/index.js';

/** The spec's answer for an unknown app is a 404, whichever key asks. */
export async function findApp(tx: Transaction, app_id: string) {
  const app = await tx.get('apps', app_id);
  if (!app) throw new ApiError(APP_NOT_FOUND, { app_id });
  return app;
}

export async function findMember(tx: Transaction, app_id: string, account_name: string, field = 'account_name') {
  const user = await tx.get('users', [app_id, account_name]);
  if (!user) throw new ApiError(MEMBER_NOT_FOUND, { field });
  return user;
}
