// Member tokens on the wire: the headers that carry them and their refusals,
// each with a code (./error-codes.ts) a client can act on without reading the
// message, and words that say which rule the token broke, which live here and
// only here; so does the reading of a token's base64url parts, which the
// verifier and the clients share.
import {
  MEMBER_TOKEN_EXPIRED,
  MEMBER_TOKEN_INVALID,
  MEMBER_TOKEN_MALFORMED,
  MEMBER_TOKEN_MISSING,
  MEMBER_TOKEN_NOT_YET_VALID,
  MEMBER_TOKEN_OTHER_APP,
  MEMBER_TOKEN_UNKNOWN_KEY,
  MEMBER_TOKENS_NEED_HTTPS,
  MEMBER_TOKENS_NOT_ENABLED,
  NOT_THAT_MEMBER,
  type Refusal,
} from './error-codes.js';
import { ApiError } from './errors.js';

/** The request header a page sends a member token in, beside its `Authorization`. */
export const MEMBER_TOKEN_HEADER = 'X-Questboard-Member';

/** What a site may sign member tokens with: no `none`, and no shared secrets (HS*), which a page's keys would give away. */
export const MEMBER_TOKEN_ALGORITHMS = ['ES256', 'EdDSA'] as const;
export type MemberTokenAlgorithm = (typeof MEMBER_TOKEN_ALGORITHMS)[number];
/** The key each algorithm verifies with (RFC 7518 3.4, RFC 8037 3.1): its JWK `kty` and `crv`. */
export const MEMBER_TOKEN_KEY_TYPES = {
  ES256: { kty: 'EC', crv: 'P-256' },
  EdDSA: { kty: 'OKP', crv: 'Ed25519' },
} as const satisfies Record<MemberTokenAlgorithm, { kty: string; crv: string }>;
/** The algorithm a key of this curve verifies (a JWK's `alg` is optional); undefined for another curve. */
export const algorithmOfCurve = (crv: string): MemberTokenAlgorithm | undefined =>
  MEMBER_TOKEN_ALGORITHMS.find((alg) => MEMBER_TOKEN_KEY_TYPES[alg].crv === crv);
/** The longest a token may live, from its `iat` to its `exp`: a stolen one is worth a day at most. */
export const MAX_MEMBER_TOKEN_LIFETIME_S = 24 * 60 * 60;
/**
 * How far the signing backend's clock may run ahead of or behind the verifier's: `exp`, `nbf`
 * and `iat` are compared with this much slack, as a site's backend and a visitor's browser
 * (where the worker checks) never quite agree on the time.
 */
export const MEMBER_TOKEN_CLOCK_TOLERANCE_S = 30;

/** Why a member token is refused: each reason's refusal (with its code), and the rule it broke. */
const REFUSALS = {
  notEnabled: [
    MEMBER_TOKENS_NOT_ENABLED,
    "its settings hold no member_token_keys, so a key with the 'member' scope cannot write",
  ],
  missing: [
    MEMBER_TOKEN_MISSING,
    `a key with the 'member' scope writes only with the header ${MEMBER_TOKEN_HEADER}: <token>, signed for the signed-in member by the site's backend`,
  ],
  notCompact: [
    MEMBER_TOKEN_MALFORMED,
    'it is not a signed JWT in compact form (three base64url parts: header.payload.signature)',
  ],
  badClaims: [
    MEMBER_TOKEN_MALFORMED,
    'its claims must hold app_id and sub as text, and iat and exp (and nbf, if any) as NumericDates in seconds',
  ],
  badSub: [MEMBER_TOKEN_MALFORMED, 'its sub is not an account name the API accepts'],
  expired: [MEMBER_TOKEN_EXPIRED, "its exp has passed; the site's backend signs a new one"],
  notYetValid: [
    MEMBER_TOKEN_NOT_YET_VALID,
    `its nbf or iat lies ahead of this clock by more than ${MEMBER_TOKEN_CLOCK_TOLERANCE_S} seconds`,
  ],
  badSignature: [MEMBER_TOKEN_INVALID, "its signature does not verify with the app's key that its kid names"],
  // MEMBER_TOKEN_ALGORITHMS, written out: a join() here would stay in the embed, which reads only the headers.
  algorithmNotAllowed: [MEMBER_TOKEN_INVALID, 'it must be signed with ES256 or EdDSA'],
  keyMismatch: [MEMBER_TOKEN_INVALID, 'its alg is not the algorithm of the key its kid names'],
  unusableKey: [
    MEMBER_TOKEN_INVALID,
    "the app's key its kid names cannot be used here (not a point of its curve, or a curve this engine lacks)",
  ],
  tooLong: [
    MEMBER_TOKEN_INVALID,
    `its exp is more than ${MAX_MEMBER_TOKEN_LIFETIME_S / 3600} hours after its iat; member tokens live a day at most`,
  ],
  unknownKey: [
    MEMBER_TOKEN_UNKNOWN_KEY,
    "the token's kid names none of the app's member_token_keys (a key rotated out, or no kid at all)",
  ],
  otherApp: [MEMBER_TOKEN_OTHER_APP, "its app_id is not this API key's app"],
} as const satisfies Record<string, readonly [Refusal<string, `${string}{why}.`>, string]>;

export type MemberTokenRefusal = keyof typeof REFUSALS;

/** A refused member token: 401, with its code in X-Questboard-Error. */
export function refuseMemberToken(reason: MemberTokenRefusal): ApiError {
  const [refusal, why] = REFUSALS[reason];
  return new ApiError(refusal, { why });
}

/** A member key naming someone else in the body: the token is fine, the request is not. */
export const notThatMember = (field: string) => new ApiError(NOT_THAT_MEMBER, { field });

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** Whether a segment is base64url without padding (RFC 7515 2). */
export const isBase64url = (segment: string) => BASE64URL.test(segment);

/** The bytes of a base64url segment without padding (RFC 7515 2), or null. */
export function bytesOf(segment: string): Uint8Array | null {
  if (!BASE64URL.test(segment) || segment.length % 4 === 1) return null;
  const binary = atob(segment.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** The JSON a base64url segment holds as UTF-8, or undefined. */
export function jsonOf(segment: string): unknown {
  const bytes = bytesOf(segment);
  if (bytes === null) return undefined;
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return undefined;
  }
}

/** What a member token says of itself, each claim null when it is missing or not of its type. */
export interface UnverifiedClaims {
  sub: string | null;
  exp: number | null;
}

/**
 * The `sub` and `exp` a token claims, read without checking its signature: for showing whom a
 * page's token names, and for not sending a queued write whose token has run out. Never for
 * deciding who may do what; only the API's verifier (core/member-token.ts) is trusted for that.
 */
export function unverifiedClaims(token: string): UnverifiedClaims {
  const claims = jsonOf(token.split('.')[1] ?? '') as { sub?: unknown; exp?: unknown } | null | undefined;
  const sub = claims?.sub;
  const exp = claims?.exp;
  return {
    sub: typeof sub === 'string' ? sub : null,
    exp: typeof exp === 'number' && Number.isFinite(exp) ? exp : null,
  };
}

/**
 * Where the handler runs without WebCrypto (the in-page handler on an http: page, not a secure
 * context) no signature can be checked: said as such, not as a fault of the token. Made when
 * thrown, so that a bundle reading only this module's headers (the embed) leaves it out.
 */
export const memberTokensNeedWebCrypto = () => new ApiError(MEMBER_TOKENS_NEED_HTTPS);
