// Every failure the API answers with: a refusal of the catalog (./error-codes.ts), its code for
// programs and its message, filled in, for people.
import type * as z from 'zod/mini';
import type * as refusals from './error-codes.js';
import { INVALID_INPUT, type Refusal } from './error-codes.js';

/** Every code of the catalog. */
export type ErrorCode = {
  [Name in keyof typeof refusals]: (typeof refusals)[Name] extends Refusal<infer Code> ? Code : never;
}[keyof typeof refusals];

/** `{name}`s of a message. */
type PlaceholdersIn<Text> = Text extends `${string}{${infer Name}}${infer Rest}` ? Name | PlaceholdersIn<Rest> : never;
/** What a refusal takes besides itself: a value for each placeholder of its message (and headers to answer with), or nothing. */
type Filling<R extends Refusal> = [PlaceholdersIn<R['message']>] extends [never]
  ? []
  : [values: Record<PlaceholdersIn<R['message']>, string | number>, headers?: Record<string, string>];

export class ApiError<R extends Refusal = Refusal> extends Error {
  readonly code: R['code'];
  readonly status: number;
  readonly headers: Record<string, string>;
  constructor(refusal: R, ...filling: Filling<R>) {
    const [values = {}, headers = {}] = filling as [Record<string, string | number>?, Record<string, string>?];
    super(refusal.message.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name])));
    this.name = 'ApiError';
    this.code = refusal.code;
    this.status = refusal.status;
    this.headers = headers;
  }
}

/** Turns zod's first issue into "field: why", so a caller knows what to fix. */
export function invalidInput(error: z.core.$ZodError, input: unknown, where = ''): ApiError {
  const issue = error.issues[0]!;
  const path = [where, ...issue.path.map(String)].filter(Boolean).join('.');
  return new ApiError(INVALID_INPUT, { field: path || 'input', reason: describeIssue(issue, valueAt(input, issue.path)) });
}

function describeIssue(issue: z.core.$ZodIssue, value: unknown): string {
  if (issue.code === 'invalid_type') {
    if (value === undefined) return 'is required';
    return `must be ${issue.expected === 'int' ? 'a whole number' : `a ${issue.expected}`}`;
  }
  if (issue.code === 'unrecognized_keys') return `unknown field ${issue.keys.map((key) => `'${key}'`).join(', ')}`;
  if ((issue.code === 'invalid_union' || issue.code === 'custom') && value === undefined) return 'is required';
  return issue.message === 'Invalid input' ? 'is invalid' : issue.message;
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}
