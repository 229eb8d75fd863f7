// Every failure the API answers with: a status and a message for people.
import type * as z from 'zod/mini';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const notFound = (what: string) => new ApiError(404, `${what} not found.`);

/** Turns zod's first issue into "field: why", so a caller knows what to fix. */
export function invalidInput(error: z.core.$ZodError, input: unknown, where = ''): ApiError {
  const issue = error.issues[0]!;
  const path = [where, ...issue.path.map(String)].filter(Boolean).join('.');
  return new ApiError(400, `${path || 'input'}: ${describeIssue(issue, valueAt(input, issue.path))}.`);
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
