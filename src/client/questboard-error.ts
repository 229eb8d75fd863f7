import type { MemberTokenErrorCode } from '../api/member-tokens.js';

/**
 * What went wrong, told apart once here (from the status, the answer's X-Questboard-Error code
 * and the spec's messages) so that no element reads message text.
 */
export type QuestboardErrorKind =
  /** No answer at all: the network, or a remote that cannot be reached. */
  | 'unreachable'
  /** 404 "The challenge has not started yet." */
  | 'not-started'
  /** 404 "User not found: …": the app has not heard of the member yet. */
  | 'unknown-member'
  /** Any other 404: no such challenge, task or app. */
  | 'not-found'
  /** 401: a missing or unknown API key. */
  | 'unauthorized'
  /**
   * 401 member-token-missing, or member-token-expired when asking the page for a new token
   * did not help: the member has to sign in (again).
   */
  | 'signed-out'
  /** 401 for any other fault of the member token (malformed, wrongly signed, another app's, a key rotated out): the site's to fix. */
  | 'member-token'
  /** 403: the key may not do this (a member key writing as someone else, too). */
  | 'forbidden'
  /** 400, 409, 413, 415: the request itself. */
  | 'invalid'
  /** 503: the store or the remote cannot answer now (another tab's version, a remote down). */
  | 'unavailable'
  | 'other';

const SIGNED_OUT: readonly MemberTokenErrorCode[] = ['member-token-missing', 'member-token-expired'];

function classify(status: number, message: string, code: string | null): QuestboardErrorKind {
  switch (status) {
    case 0:
      return 'unreachable';
    case 404:
      if (message === 'The challenge has not started yet.') return 'not-started';
      return message.startsWith('User not found:') ? 'unknown-member' : 'not-found';
    case 401:
      if (code === null) return 'unauthorized';
      return (SIGNED_OUT as readonly string[]).includes(code) ? 'signed-out' : 'member-token';
    case 403:
      return 'forbidden';
    case 400:
    case 409:
    case 413:
    case 415:
      return 'invalid';
    case 503:
      return 'unavailable';
    default:
      return 'other';
  }
}

/** A request the API answered with `is_valid: false`, or one that never got a valid answer (status 0). */
export class QuestboardError extends Error {
  override readonly name = 'QuestboardError';
  readonly kind: QuestboardErrorKind;
  constructor(
    readonly status: number,
    message: string,
    /** Why the API refused the member token: its X-Questboard-Error answer header (one of MEMBER_TOKEN_ERROR_CODES), or null. */
    readonly code: string | null = null,
  ) {
    super(message);
    this.kind = classify(status, message, code);
  }
}
