import type { ErrorCode } from '../api/errors.js';

/**
 * What went wrong, told apart once here (from the status and the answer's X-Questboard-Error
 * code) so that no element reads message text.
 */
export type QuestboardErrorKind =
  /** No answer at all: the network, or a remote that cannot be reached. */
  | 'unreachable'
  /** 404 challenge-not-started. */
  | 'not-started'
  /** 404 member-not-found: the app has not heard of the member yet. */
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

/** What a code says by itself; other refusals are told apart by their status. */
const KIND_OF_CODE: Partial<Record<string, QuestboardErrorKind>> = {
  'member-token-missing': 'signed-out',
  'member-token-expired': 'signed-out',
  'member-not-found': 'unknown-member',
  'challenge-not-started': 'not-started',
} satisfies Partial<Record<ErrorCode, QuestboardErrorKind>>;

const KIND_OF_STATUS: Partial<Record<number, QuestboardErrorKind>> = {
  0: 'unreachable',
  400: 'invalid',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not-found',
  409: 'invalid',
  413: 'invalid',
  415: 'invalid',
  503: 'unavailable',
};

function classify(status: number, code: string | null): QuestboardErrorKind {
  if (code?.startsWith('member-token')) return KIND_OF_CODE[code] ?? 'member-token';
  return KIND_OF_CODE[code!] ?? KIND_OF_STATUS[status] ?? 'other';
}

/** A request the API answered with `is_valid: false`, or one that never got a valid answer (status 0). */
export class QuestboardError extends Error {
  override readonly name = 'QuestboardError';
  readonly kind: QuestboardErrorKind;
  constructor(
    readonly status: number,
    message: string,
    /**
     * Why the API refused: its X-Questboard-Error answer header, one of the codes of
     * src/api/error-codes.ts (docs/errors.md), or null where there was no answer. A string: a
     * newer server may answer a code this client does not know.
     */
    readonly code: ErrorCode | (string & {}) | null = null,
    /** The answer's Retry-After in seconds (a 429's), null where it gave none: when to try again. */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    this.kind = classify(status, code);
  }
}

/**
 * The answer, or null where the API answered 404: a member, say, that the app has not heard of
 * yet, whom an element shows as having nothing yet rather than as an error.
 */
export const nullIfNotFound = <T>(answer: Promise<T>): Promise<T | null> =>
  answer.catch((error: unknown) => {
    if (error instanceof QuestboardError && error.status === 404) return null;
    throw error;
  });
