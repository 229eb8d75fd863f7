// Member tokens: a JWT the site's backend signs for its signed-in member, which
// lets a key with the `member` scope write as that member and no one else. Only
// public keys are needed to verify one, so the worker, the in-page handler and
// the server all verify it here, the same way. jose does the JWS and the claims
// (RFC 7515, 7519); this module picks the key and says which rule a token broke.
import { ApiError } from '../api/errors.js';
import { accountNameFault, normalizeAccountName } from '../api/account-names.js';
import {
  MAX_MEMBER_TOKEN_LIFETIME_S,
  MEMBER_TOKEN_ALGORITHMS,
  MEMBER_TOKEN_CLOCK_TOLERANCE_S,
  MEMBER_TOKEN_KEY_TYPES,
  MEMBER_TOKENS_NEED_WEBCRYPTO,
  refuseMemberToken,
  type MemberTokenAlgorithm,
} from '../api/member-tokens.js';
import type { MemberTokenKey } from '../api/schemas.js';
import type { AppRecord } from '../store/index.js';
// The entry points themselves, not the package's index: the worker's budget counts every byte.
import { JOSEAlgNotAllowed, JOSEError, JWSSignatureVerificationFailed, JWTClaimValidationFailed, JWTExpired } from 'jose/errors';
import { jwtVerify, type JWTVerifyGetKey } from 'jose/jwt/verify';
import { importJWK } from 'jose/key/import';

/**
 * The account name of the member a token names, once it is shown to be signed by one of the
 * app's keys, for this app, and current at `at` (the handler's clock). Otherwise a 401 that
 * says which rule it broke. Called outside any store transaction: WebCrypto's turns would let
 * an IndexedDB transaction commit under the caller.
 */
export async function verifyMemberToken(token: string | null, app: AppRecord | undefined, at: Date): Promise<string> {
  const keys = app?.member_token_keys ?? [];
  if (keys.length === 0) throw refuseMemberToken('notEnabled');
  if (token === null || token === '') throw refuseMemberToken('missing');
  if (globalThis.crypto?.subtle === undefined) throw MEMBER_TOKENS_NEED_WEBCRYPTO;
  let claims: Record<string, unknown>;
  try {
    ({ payload: claims } = await jwtVerify(token, keyNamedBy(keys), {
      algorithms: [...MEMBER_TOKEN_ALGORITHMS],
      requiredClaims: ['app_id', 'sub', 'iat', 'exp'],
      currentDate: at,
      clockTolerance: MEMBER_TOKEN_CLOCK_TOLERANCE_S,
      // With it jose also refuses an iat in the future (past the tolerance).
      maxTokenAge: MAX_MEMBER_TOKEN_LIFETIME_S,
    }));
  } catch (error) {
    throw refusalOf(error);
  }
  const { app_id, sub, iat, exp } = claims as { app_id: unknown; sub: unknown; iat: number; exp: number };
  if (typeof app_id !== 'string' || typeof sub !== 'string') throw refuseMemberToken('badClaims');
  if (exp - iat > MAX_MEMBER_TOKEN_LIFETIME_S) throw refuseMemberToken('tooLong');
  if (app_id !== app!.app_id) throw refuseMemberToken('otherApp');
  const member = normalizeAccountName(sub);
  if (accountNameFault(member) !== null) throw refuseMemberToken('badSub');
  return member;
}

/** The app's key that the token's header names by `kid`, ready for the token's `alg`. */
function keyNamedBy(keys: MemberTokenKey[]): JWTVerifyGetKey {
  return async ({ kid, alg }) => {
    const jwk = keys.find((key) => key.kid === kid);
    if (jwk === undefined) throw refuseMemberToken('unknownKey');
    // jose has checked that alg is one of MEMBER_TOKEN_ALGORITHMS.
    if (MEMBER_TOKEN_KEY_TYPES[alg as MemberTokenAlgorithm].crv !== jwk.crv) throw refuseMemberToken('keyMismatch');
    try {
      return await importJWK({ ...jwk }, alg);
    } catch {
      // The import checked the key's form only: WebCrypto, which sees whether the point is on its curve, cannot run inside its transaction.
      throw refuseMemberToken('unusableKey');
    }
  };
}

/** What jose's refusal means for the caller; anything else is a bug, answered 500. */
function refusalOf(error: unknown): unknown {
  if (error instanceof ApiError || !(error instanceof JOSEError)) return error;
  if (error instanceof JWTExpired) return refuseMemberToken('expired');
  if (error instanceof JWTClaimValidationFailed) {
    const early = error.reason === 'check_failed' && (error.claim === 'nbf' || error.claim === 'iat');
    return refuseMemberToken(early ? 'notYetValid' : 'badClaims');
  }
  if (error instanceof JWSSignatureVerificationFailed) return refuseMemberToken('badSignature');
  if (error instanceof JOSEAlgNotAllowed) return refuseMemberToken('algorithmNotAllowed');
  // JWSInvalid, JWTInvalid, JOSENotSupported (an unknown `crit`): not a token this API reads.
  return refuseMemberToken('notCompact');
}
