// The member token a page writes with: a string the page was given (the embed's
// data-member-token), or a function through which the page's own code gets one
// from its backend. It is asked for at its first use (the page's elements share
// one, config.ts), kept, and asked for again only when an answer says that it
// has expired.
import { unverifiedClaims } from '../api/member-tokens.js';

/**
 * The signed-in member's token, or a function (plain or async) giving it; empty, null or
 * undefined when no member is signed in.
 */
export type MemberTokenOption = string | (() => string | null | undefined | Promise<string | null | undefined>);

export class MemberTokens {
  private current: Promise<string | null> | undefined;

  constructor(private readonly source: MemberTokenOption | undefined) {}

  /** The token to send, or null without one; the source is asked the first time only. */
  token(): Promise<string | null> {
    this.current ??= this.ask();
    return this.current;
  }

  /**
   * The account name the token names (its `sub`), read without verifying it: for showing who
   * is signed in, never for deciding anything. Null without a token or without a readable `sub`
   * (which the API refuses anyway).
   */
  async member(): Promise<string | null> {
    const token = await this.token();
    return token === null ? null : unverifiedClaims(token).sub;
  }

  /**
   * A new token in place of `expired`, which an answer said has run out: the function is asked
   * once however many writes were refused with the same token. Null when it cannot give
   * another (a plain string, or a function that gives the same token again).
   */
  async renewed(expired: string): Promise<string | null> {
    if (typeof this.source !== 'function') return null;
    const held = this.current;
    if (held === undefined || (await held.catch(() => null)) === expired) {
      // Unless another write has asked meanwhile.
      if (this.current === held) this.current = this.ask();
    }
    const token = await this.token();
    return token === expired ? null : token;
  }

  private ask(): Promise<string | null> {
    const source = this.source;
    const asked = (async () => {
      const token = typeof source === 'function' ? await source() : source;
      return typeof token === 'string' && token !== '' ? token : null;
    })();
    // A function that failed (the site's backend did not answer) is asked again next time.
    asked.catch(() => {
      if (this.current === asked) this.current = undefined;
    });
    return asked;
  }
}
