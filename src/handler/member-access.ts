// Keys with the `member` scope: who may call as a member, and the body such a
// call is read with. The token itself is verified in core/member-token.ts.
import { normalizeAccountName } from '../api/account-names.js';
import { notThatMember } from '../api/member-tokens.js';
import type { ApiKeyRecord } from '../store/index.js';
import type { Operation } from './operations.js';

/**
 * Whether `key` calls `operation` as a member: the operation is open to members, and the key
 * lacks the operation's own scope but carries `member`. A key with the scope (a site's server
 * calling with `write`) acts as it always has, and a member token sent with it is not read.
 */
export function callsAsMember(key: ApiKeyRecord, operation: Operation): boolean {
  return (
    operation.asMember !== undefined &&
    operation.scope !== null &&
    key.app_id !== null &&
    !key.scopes.includes(operation.scope) &&
    key.scopes.includes('member')
  );
}

/**
 * The body a member's call is read from: the field naming the member (`from_account`,
 * `account_name`) is the token's member when left out, and a 403 when it names someone else.
 * So the body as filled in is also what an Idempotency-Key's fingerprint holds: two members
 * sharing the page's key never share a fingerprint.
 */
export function memberBody(operation: Operation, raw: unknown, member: string): unknown {
  const field = operation.asMember!;
  const named = (raw as Record<string, unknown>)[field];
  if (named === undefined) return { ...(raw as object), [field]: member };
  // Anything but text is the schema's to refuse (400).
  if (typeof named === 'string' && normalizeAccountName(named) !== member) throw notThatMember(field);
  return raw;
}
