// What every operation's definition uses, apart from operations.ts so that the admin API's
// operations (admin-operations.ts) define theirs the same way.
import type * as z from 'zod/mini';
import * as schemas from '../api/schemas.js';
import { requireApp } from '../core/access.js';
import { findApp } from '../core/lookups.js';
import type { Call, Operation } from './operations.js';

/** The success half of every answer. */
export const OK = { is_valid: true, message: null } as const;

/** An operation, its schemas' types carried into `run`; `query` by default takes no options. */
export const define = <Schema extends z.ZodMiniType, Query extends z.ZodMiniType = typeof schemas.anyQuery>(
  operation: Omit<Operation<Schema, Query>, 'query'> & { query?: Query },
) => ({ query: schemas.anyQuery, ...operation }) as unknown as Operation;

/** The app named by the input, which the key must belong to. */
export async function appFor(call: Call<{ app_id: string }>) {
  const app = await findApp(call.tx, call.input.app_id);
  requireApp(call.key, app.app_id);
  return app;
}
