// Every refusal the API answers, each under a stable code sent in the X-Questboard-Error answer
// header: what a client acts on, and what a page translates, without reading the message
// (which stays English, for people). docs/errors.md holds the table of them all.
//
// Codes are lowercase words joined by hyphens, as the member token codes that shipped first
// (`member-token-expired`): the header already says they are Questboard's, so they carry no
// prefix. A code never changes once shipped; a new refusal gets a new code.
//
// Each refusal is an export of its own, named as its code, rather than a key of one object, so
// that a bundle keeps only those its code can answer with (the worker none of the Node host's).
// A refusal is made with `new ApiError(REFUSAL, { placeholder: value })` (src/api/errors.ts).

/** The answer header naming a refusal's code. */
export const ERROR_CODE_HEADER = 'X-Questboard-Error';

/** A refusal: its code, its HTTP status, and its English message, whose `{name}`s are filled in. */
export interface Refusal<Code extends string = string, Message extends string = string> {
  readonly code: Code;
  readonly status: number;
  readonly message: Message;
}

/* @__NO_SIDE_EFFECTS__ */
const refusal = <const Code extends string, const Message extends string>(
  code: Code,
  status: number,
  message: Message,
): Refusal<Code, Message> => ({ code, status, message });

// The request as a whole.
export const UNKNOWN_OPERATION = refusal('unknown-operation', 404, 'Unknown operation: {path}.');
export const METHOD_NOT_ALLOWED = refusal('method-not-allowed', 405, 'Method {method} is not allowed here; use {allow}.');
export const UNSUPPORTED_CONTENT_TYPE = refusal(
  'unsupported-content-type',
  415,
  'Unsupported content-type: send the body as application/json, in UTF-8.',
);
export const INVALID_BODY = refusal('invalid-body', 400, 'The request body {problem}.');
export const BODY_TOO_LARGE = refusal('body-too-large', 413, 'The request body is larger than {limit} bytes.');
export const INVALID_INPUT = refusal('invalid-input', 400, '{field}: {reason}.');
export const INVALID_IDEMPOTENCY_KEY = refusal(
  'invalid-idempotency-key',
  400,
  'Idempotency-Key: must be 1–255 visible ASCII characters (no spaces).',
);
export const IDEMPOTENCY_KEY_REUSED = refusal(
  'idempotency-key-reused',
  409,
  'Idempotency-Key was already used for a different request.',
);
export const TOO_MANY_WRITES = refusal(
  'too-many-writes',
  429,
  'Too many writes {who}: at most {writes} every {window} s. Try again in {seconds} s.',
);
export const TOO_MANY_FAILED_AUTHENTICATIONS = refusal(
  'too-many-failed-authentications',
  429,
  'Too many failed authentications from the address {address}: at most {failures} every {window} s. Try again in {seconds} s.',
);
export const TOO_MANY_EVENT_STREAMS = refusal(
  'too-many-event-streams',
  429,
  'Too many event streams: {why}. Close one, or retry later.',
);
export const NO_CHANGE_FEED = refusal(
  'no-change-feed',
  501,
  'Live updates (GET /v1/events) are not served here: only a Questboard server has a feed of changes to stream.',
);
export const INTERNAL_ERROR = refusal('internal-error', 500, 'Internal error: the request could not be completed.');

// API keys and members.
export const API_KEY_MISSING = refusal('api-key-missing', 401, 'Missing API key: send the header Authorization: Bearer <key>.');
export const API_KEY_INVALID = refusal('api-key-invalid', 401, 'Invalid API key.');
export const NO_ADMIN_KEY_YET = refusal(
  'no-admin-key-yet',
  401,
  'This server has no admin key yet, and takes none from the dataset itself: its operator gives it one ' +
    '(QUESTBOARD_ADMIN_KEYS or --admin-keys-file), or starts it once with --allow-bootstrap.',
);
export const SCOPE_MISSING = refusal('scope-missing', 403, "Not allowed: this API key does not carry the '{scope}' scope.");
export const OTHER_APP = refusal('other-app', 403, 'Not allowed: this API key belongs to another app.');
export const IMPORT_NOT_ALLOWED = refusal(
  'import-not-allowed',
  403,
  'Not allowed: this API key may import only its own app, and no admin keys.',
);
export const ADMIN_KEYS_FROM_OPERATOR = refusal(
  'admin-keys-from-operator',
  400,
  'admin_keys: this server takes its admin keys only from its operator (QUESTBOARD_ADMIN_KEYS or --admin-keys-file); leave them out of the dataset.',
);
export const NOT_THAT_MEMBER = refusal(
  'not-that-member',
  403,
  'Not allowed: with a member key, {field} must be the member the token names (or be left out).',
);

// Member tokens (src/api/member-tokens.ts says why each one is refused).
export const MEMBER_TOKENS_NOT_ENABLED = refusal(
  'member-tokens-not-enabled',
  401,
  'Member tokens are not enabled for this app: {why}.',
);
export const MEMBER_TOKEN_MISSING = refusal('member-token-missing', 401, 'Missing member token: {why}.');
export const MEMBER_TOKEN_MALFORMED = refusal('member-token-malformed', 401, 'Malformed member token: {why}.');
export const MEMBER_TOKEN_EXPIRED = refusal('member-token-expired', 401, 'Expired member token: {why}.');
export const MEMBER_TOKEN_NOT_YET_VALID = refusal('member-token-not-yet-valid', 401, 'Member token not yet valid: {why}.');
export const MEMBER_TOKEN_INVALID = refusal('member-token-invalid', 401, 'Invalid member token: {why}.');
export const MEMBER_TOKEN_UNKNOWN_KEY = refusal('member-token-unknown-key', 401, 'Unknown member token key: {why}.');
export const MEMBER_TOKEN_OTHER_APP = refusal('member-token-other-app', 401, 'Member token for another app: {why}.');
export const MEMBER_TOKENS_NEED_HTTPS = refusal(
  'member-tokens-need-https',
  501,
  'Member tokens cannot be checked here: this page is not a secure context (https), where WebCrypto verifies them.',
);

// The admin API (src/handler/admin-operations.ts).
export const KEY_NOT_FOUND = refusal('key-not-found', 404, 'The app has no API key {key_id}.');
export const WEBHOOK_NOT_FOUND = refusal('webhook-not-found', 404, 'The app has no webhook endpoint at {url}.');
export const MEMBER_TOKEN_KEY_NOT_FOUND = refusal(
  'member-token-key-not-found',
  404,
  'The app has no member token key named {kid}.',
);
export const MEMBER_TOKEN_KEY_TAKEN = refusal(
  'member-token-key-taken',
  409,
  'The app has a member token key named {kid} already: remove it first, or name the new one otherwise.',
);
// What the rules refuse.
export const APP_NOT_FOUND = refusal('app-not-found', 404, "app_id not found: no app '{app_id}'.");
export const MEMBER_NOT_FOUND = refusal('member-not-found', 404, 'User not found: {field} is not a member of this app.');
export const CHALLENGE_NOT_FOUND = refusal('challenge-not-found', 404, 'Challenge not found.');
export const CHALLENGE_NOT_STARTED = refusal('challenge-not-started', 404, 'The challenge has not started yet.');
export const CHALLENGE_RETIRED = refusal('challenge-retired', 409, 'The challenge is retired: it counts no new progress.');
export const TASK_NOT_FOUND = refusal('task-not-found', 404, 'Task not found.');
export const SEASON_NOT_FOUND = refusal('season-not-found', 404, 'Season not found.');
export const BADGE_NOT_FOUND = refusal('badge-not-found', 404, 'Badge not found: {field} names no badge of this app.');
export const SELF_ENDORSEMENT = refusal('self-endorsement', 400, 'to_account: a member cannot endorse themselves.');
export const TRANSFER_PRE_CHECK = refusal('transfer-pre-check', 400, 'Transaction Failed Pre-Check: {reason}');
export const KEY_TAKEN = refusal('key-taken', 409, "{field}: this key is already an app's key.");
export const ID_TAKEN = refusal('id-taken', 409, '{field}: this {kind} is not available.');
export const INVALID_DATASET = refusal('invalid-dataset', 400, '{field}: {reason}');

// Quests members complete themselves (docs/quests.md).
export const TASK_COMPLETED_BY_BACKEND = refusal(
  'task-completed-by-backend',
  409,
  "This task is completed by the site's backend (admin/log_task), not by a member's submission.",
);
export const TASK_ALREADY_COMPLETED = refusal(
  'task-already-completed',
  409,
  'This task is already completed and allows no retry.',
);
export const WRONG_ANSWER = refusal('wrong-answer', 422, 'That is not the answer; nothing was counted.');
export const TOO_MANY_WRONG_ANSWERS = refusal(
  'too-many-wrong-answers',
  429,
  'Too many wrong answers to this task: at most {limit} in {minutes} minutes. Try again in {seconds} s.',
);
export const SUBMISSION_PENDING = refusal(
  'submission-pending',
  409,
  'A submission for this task is already waiting for review: {submission_id}.',
);
export const SUBMISSION_NOT_FOUND = refusal('submission-not-found', 404, 'Submission not found: {submission_id}.');
export const SUBMISSION_ALREADY_REVIEWED = refusal(
  'submission-already-reviewed',
  409,
  'Submission {submission_id} was already {status}.',
);
export const CALLBACK_NOT_COMPLETED = refusal('callback-not-completed', 422, 'The site says the task is not done: {reason}');
export const CALLBACK_UNANSWERED = refusal(
  'callback-unanswered',
  502,
  'The site could not say whether the task is done: {reason}. Try again later.',
);
export const CALLBACKS_ON_SERVER_ONLY = refusal(
  'callbacks-on-server-only',
  501,
  "This task is checked by the site's endpoint, which only a Questboard server calls: send it to the server.",
);

// The store.
export const DATABASE_UNAVAILABLE = refusal('database-unavailable', 503, 'The database does not answer{since}; {then}.');
export const DATABASE_BUSY = refusal('database-busy', 503, 'The server is busy with conflicting writes; try again.');
// A data directory of the server's own (PGlite): its disk's faults, said as such.
export const DISK_FULL = refusal(
  'disk-full',
  507,
  "The server's disk is full: nothing more can be written until space is freed.",
);
export const STORAGE_FAILED = refusal(
  'storage-failed',
  503,
  "The server cannot use its data directory; the server's log says why.",
);
export const STORAGE_NOT_ANSWERING = refusal(
  'storage-not-answering',
  503,
  "The server's data directory does not answer; try again shortly.",
);
/** Health's answer when the store refuses with another status (a full disk's 507): not healthy, and why. */
export const NOT_HEALTHY = refusal('not-healthy', 503, 'Not healthy: {reason}');
export const OLDER_VERSION_OPEN = refusal(
  'older-version-open',
  503,
  "Questboard is being updated, but another tab holds an older version of Questboard's database open; close or reload it.",
);
export const NEWER_VERSION_OPEN = refusal(
  'newer-version-open',
  503,
  'A newer version of Questboard is open in another tab; reload this page.',
);

// A page's remote server, answered for by the worker or the in-page handler.
export const REMOTE_UNREACHABLE = refusal(
  'remote-unreachable',
  503,
  'The remote server {remote} cannot be reached ({reason}){then}',
);
export const REMOTE_ANSWER_INVALID = refusal('remote-answer-invalid', 502, '{reason}');

// The Node server's HTTP host.
export const ORIGIN_NOT_ALLOWED = refusal(
  'origin-not-allowed',
  403,
  'Not allowed: pages at {origin} may not call this API; the origin is not among {allowed}.',
);
export const METHOD_NOT_IMPLEMENTED = refusal(
  'method-not-implemented',
  501,
  '{method} is not implemented by this server: it takes {allowed}.',
);
export const MALFORMED_REQUEST = refusal(
  'malformed-request',
  400,
  'The request cannot be read: its target or a header is malformed.',
);
export const MALFORMED_HTTP = refusal('malformed-http', 400, 'The request is not well-formed HTTP/1.1.');
export const CONSOLE_NOT_BUILT = refusal('console-not-built', 404, 'The console is not built: run npm run build.');
export const HEADERS_TOO_LARGE = refusal(
  'headers-too-large',
  431,
  "The request's URL and headers are larger than {limit} bytes.",
);
export const REQUEST_TOO_SLOW = refusal('request-too-slow', 408, 'The request took too long to arrive.');
export const BODY_CUT_SHORT = refusal(
  'body-cut-short',
  400,
  'The request body was cut short: the connection closed before it ended.',
);
export const ANSWERED_BEFORE_BODY = refusal('answered-before-body', 503, 'The request was answered before its body was read.');
export const EXPECTATION_FAILED = refusal('expectation-failed', 417, 'Expect: only 100-continue is understood here.');
export const ANSWER_TIMEOUT = refusal(
  'answer-timeout',
  503,
  'The request did not finish within {ms} ms. A write may still complete: retry it with the same Idempotency-Key.',
);
