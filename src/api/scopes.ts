// The scopes an API key may hold: apart from schemas.ts so that a page listing them (the
// console's key form) carries no zod.

/**
 * `member`: what a site puts in its page's script tag beside `read`. Such a key writes only what
 * a member may (endorse, connect a profile), only with a member token, and only as that member.
 */
export const SCOPES = ['read', 'write', 'ledger', 'admin', 'member'] as const;
export type Scope = (typeof SCOPES)[number];
