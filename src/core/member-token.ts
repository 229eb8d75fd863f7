// Member tokens: a JWT the site's backend signs for its signed-in member, which
// lets a key with the `member` scope write as that member and no one else. Only
// public keys are needed to verify one, so the worker, the in-page handler and
// the server all verify it here, the same way.
//
// WebCrypto checks the signature; this module reads the compact JWS (RFC 7515
// 7.1) and the claims (RFC 7519 4.1) with the rules jose applies, in jose's
// order. jose itself (which the CLI and the tests use to sign) would cost the
// worker 6 KB of its 40 KB min+gzip; test/api/member-tokens.test.ts checks that
// jose's jwtVerify and this verifier accept exactly the same tokens.
import * as z from 'zod/mini';
import type { ApiError } from '../api/errors.js';
import { accountNameFault, normalizeAccountName } from '../api/account-names.js';
import {
  MAX_MEMBER_TOKEN_LIFETIME_S,
  MEMBER_TOKEN_ALGORITHMS,
  MEMBER_TOKEN_CLOCK_TOLERANCE_S,
  MEMBER_TOKEN_KEY_TYPES,
  memberTokensNeedWebCrypto,
  bytesOf,
  isBase64url,
  jsonOf,
  refuseMemberToken,
  type MemberTokenAlgorithm,
} from '../api/member-tokens.js';
import type { MemberTokenKey } from '../api/schemas.js';
import type { AppRecord } from '../store/index.js';

/** The WebCrypto parameters of each algorithm (RFC 7518 3.4: ES256's signature is r‖s, as WebCrypto's ECDSA takes it). */
const WEB_CRYPTO = {
  ES256: { key: { name: 'ECDSA', namedCurve: 'P-256' }, verify: { name: 'ECDSA', hash: 'SHA-256' } },
  EdDSA: { key: { name: 'Ed25519' }, verify: { name: 'Ed25519' } },
} satisfies Record<MemberTokenAlgorithm, { key: EcKeyImportParams | Algorithm; verify: EcdsaParams | Algorithm }>;

/** `crit` names extensions the verifier must understand (RFC 7515 4.1.11): this one understands none. */
const header = z.object({ alg: z.string(), kid: z.optional(z.unknown()), crit: z.optional(z.never()) });
const numericDate = z.number().check(z.refine(Number.isFinite));
const claimsSchema = z.object({
  app_id: z.string(),
  sub: z.string(),
  iat: numericDate,
  exp: numericDate,
  nbf: z.optional(numericDate),
});

const memberTokensEnabled = (app: AppRecord | undefined) => (app?.member_token_keys ?? []).length > 0;

/** Why a member's call without a (usable) token is refused: the app takes none, or none was sent. */
export const noMemberToken = (app: AppRecord | undefined): ApiError =>
  refuseMemberToken(memberTokensEnabled(app) ? 'missing' : 'notEnabled');

/**
 * The account name of the member a token names, once it is shown to be signed by one of the
 * app's keys, for this app, and current at `at` (the handler's clock). Otherwise a 401 that
 * says which rule it broke. Called outside any store transaction: WebCrypto's turns would let
 * an IndexedDB transaction commit under the caller.
 */
export async function verifyMemberToken(token: string | null, app: AppRecord | undefined, at: Date): Promise<string> {
  if (token === null || token === '' || !memberTokensEnabled(app)) throw noMemberToken(app);
  const keys = app!.member_token_keys!;
  if (globalThis.crypto?.subtle === undefined) throw memberTokensNeedWebCrypto();

  const parts = token.split('.');
  if (parts.length !== 3) throw refuseMemberToken('notCompact');
  const [encodedHeader, encodedClaims, encodedSignature] = parts as [string, string, string];
  const parsedHeader = header.safeParse(jsonOf(encodedHeader));
  if (!parsedHeader.success) throw refuseMemberToken('notCompact');
  const { alg, kid } = parsedHeader.data;
  if (!(MEMBER_TOKEN_ALGORITHMS as readonly string[]).includes(alg)) throw refuseMemberToken('algorithmNotAllowed');
  const key = await keyNamedBy(keys, kid, alg as MemberTokenAlgorithm);
  const signature = bytesOf(encodedSignature);
  if (signature === null || !isBase64url(encodedClaims)) throw refuseMemberToken('notCompact');
  const signed = new TextEncoder().encode(`${encodedHeader}.${encodedClaims}`);
  if (!(await verifies(alg as MemberTokenAlgorithm, key, signature, signed))) throw refuseMemberToken('badSignature');

  const claims = jsonOf(encodedClaims);
  if (claims === null || typeof claims !== 'object' || Array.isArray(claims)) throw refuseMemberToken('notCompact');
  const parsedClaims = claimsSchema.safeParse(claims);
  if (!parsedClaims.success) throw refuseMemberToken('badClaims');
  const { app_id, sub, iat, exp, nbf } = parsedClaims.data;
  // NumericDates are seconds; each time is compared with MEMBER_TOKEN_CLOCK_TOLERANCE_S of slack.
  const now = Math.floor(at.getTime() / 1000);
  const tolerance = MEMBER_TOKEN_CLOCK_TOLERANCE_S;
  if (nbf !== undefined && nbf > now + tolerance) throw refuseMemberToken('notYetValid');
  if (exp <= now - tolerance) throw refuseMemberToken('expired');
  if (now - iat - tolerance > MAX_MEMBER_TOKEN_LIFETIME_S) throw refuseMemberToken('expired');
  if (iat > now + tolerance) throw refuseMemberToken('notYetValid');
  if (exp - iat > MAX_MEMBER_TOKEN_LIFETIME_S) throw refuseMemberToken('tooLong');
  if (app_id !== app!.app_id) throw refuseMemberToken('otherApp');
  const member = normalizeAccountName(sub);
  if (accountNameFault(member) !== null) throw refuseMemberToken('badSub');
  return member;
}

/** The app's key that the token's header names by `kid`, imported for the token's `alg`. */
async function keyNamedBy(keys: MemberTokenKey[], kid: unknown, alg: MemberTokenAlgorithm): Promise<CryptoKey> {
  const jwk = keys.find((key) => key.kid === kid);
  if (jwk === undefined) throw refuseMemberToken('unknownKey');
  if (MEMBER_TOKEN_KEY_TYPES[alg].crv !== jwk.crv) throw refuseMemberToken('keyMismatch');
  const { kty, crv, x, y } = jwk;
  try {
    return await crypto.subtle.importKey('jwk', { kty, crv, x, y }, WEB_CRYPTO[alg].key, false, ['verify']);
  } catch {
    // The import checked the key's form only: WebCrypto, which knows whether the point is on its curve, cannot run inside its transaction.
    throw refuseMemberToken('unusableKey');
  }
}

async function verifies(alg: MemberTokenAlgorithm, key: CryptoKey, signature: Uint8Array, signed: Uint8Array) {
  try {
    return await crypto.subtle.verify(WEB_CRYPTO[alg].verify, key, signature as BufferSource, signed as BufferSource);
  } catch {
    // A signature WebCrypto cannot even read is one that does not verify.
    return false;
  }
}
