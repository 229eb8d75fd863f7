// The site's backend, played by the page: it signs a member token for the
// member the presenter views as, which the page's elements write with. A real
// site signs on its server, for the member signed in there, and its private key
// never reaches a browser; the demo has no backend, so its demo-only key pair
// lives here (the public half is in the app's settings, demo/dataset.ts).
import { importJWK, SignJWT } from 'jose';
import { configure } from '../src/client/index.js';
import { DEMO_APP_ID, DEMO_MEMBER_TOKEN_KEY } from './dataset.js';

const DEMO_PRIVATE_KEY = { ...DEMO_MEMBER_TOKEN_KEY, d: '0ksQziG1sJ4m6Ui_uTFYj1brJLyYj94wpbjh7y6w3oI' };
/** An hour: long enough for a demo, short as member tokens should be (the API takes at most a day). */
const TOKEN_LIFETIME_S = 60 * 60;

let signingKey: ReturnType<typeof importJWK> | undefined;

/** A token naming `member`, as a site's backend signs it for its signed-in member. */
export async function signMemberToken(member: string): Promise<string> {
  signingKey ??= importJWK(DEMO_PRIVATE_KEY, DEMO_MEMBER_TOKEN_KEY.alg);
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ app_id: DEMO_APP_ID, sub: member })
    .setProtectedHeader({ alg: DEMO_MEMBER_TOKEN_KEY.alg, kid: DEMO_MEMBER_TOKEN_KEY.kid })
    .setIssuedAt(now)
    .setExpirationTime(now + TOKEN_LIFETIME_S)
    .sign(await signingKey);
}

/** The page's member from now on: its elements write as `member`, with a token signed when first needed (and again once expired). */
export function signInAs(member: string): void {
  configure({ memberToken: () => signMemberToken(member) });
}
