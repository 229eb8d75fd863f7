// Member tokens as a site's backend makes them, for the tests of the pages and
// remotes that pass them on: a key pair made with jose, and tokens signed with
// it against the real clock (the worker, the in-page handler and the reference
// server all verify with it).
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';

export interface SiteKey {
  privateKey: CryptoKey;
  /** The public half, as an app's settings.member_token_keys lists it. */
  publicJwk: JWK;
}

export async function siteKey(kid = 'site-key'): Promise<SiteKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  return { privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256' } };
}

export interface TokenClaims {
  sub?: string;
  app_id?: string;
  /** Seconds from now; may be negative. */
  issuedIn?: number;
  expiresIn?: number;
}

/** A token for `sub` (alice) of `app_id` (guild), issued now and expiring in an hour unless told otherwise. */
export function mint(key: SiteKey, { sub = 'alice', app_id = 'guild', issuedIn = 0, expiresIn = 3600 }: TokenClaims = {}) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ app_id, sub, iat: now + issuedIn, exp: now + expiresIn })
    .setProtectedHeader({ alg: 'ES256', kid: key.publicJwk.kid! })
    .sign(key.privateKey);
}

/** A token whose exp passed a minute ago, beyond the verifiers' 30 s of tolerance. */
export const mintExpired = (key: SiteKey, claims: TokenClaims = {}) => mint(key, { ...claims, issuedIn: -600, expiresIn: -60 });

/** The key with the `member` scope a site puts in its script tag. */
export const MEMBER_KEY = 'pk_member';

/** Merged into an app: the member key, and the site's public key for its tokens. */
export const memberTokensFor = (key: SiteKey, app_id = 'guild') => ({
  apps: [
    {
      app_id,
      api_keys: [{ key: MEMBER_KEY, scopes: ['read', 'member'] as ('read' | 'member')[] }],
      settings: { member_token_keys: [key.publicJwk] },
    },
  ],
});

/** The parts of a token that must never be found in clear: the whole token, and its claims (payload). */
export const secretParts = (token: string) => [token, token.split('.')[1]!];
