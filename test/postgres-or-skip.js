// Tests that need PostgreSQL. Where none answers, they say loudly that they
// skipped; in CI, which always has one (.ci/run starts one where none runs),
// they fail instead.
import assert from 'node:assert/strict';
import { createDatabase, postgresAnswers } from '../scripts/postgres.js';

/**
 * The test `t` needs PostgreSQL, which does not answer: skipped, or failed in CI.
 * @param {import('node:test').TestContext} t
 */
export function skipWithoutPostgres(t) {
  if (process.env.CI) assert.fail('PostgreSQL does not answer, and CI never skips it');
  t.skip('SKIPPED: PostgreSQL does not answer (set QB_DATABASE_URL)');
}

/**
 * Whether PostgreSQL answers; where it does not, the test `t` is skipped (failed in CI).
 * @param {import('node:test').TestContext} t
 */
export async function postgresOrSkip(t) {
  if (await postgresAnswers()) return true;
  skipWithoutPostgres(t);
  return false;
}

/**
 * One database for the tests of a suite, created by the first that asks for it:
 * `orSkip(t)` gives it, or null where PostgreSQL does not answer (the test skipped, failed
 * in CI); `drop` removes it (in the suite's after()).
 * @param {string} prefix
 */
export function sharedDatabase(prefix) {
  /** @type {Awaited<ReturnType<typeof createDatabase>> | undefined} */
  let database;
  return {
    /** @param {import('node:test').TestContext} t */
    async orSkip(t) {
      if (!(await postgresOrSkip(t))) return null;
      database ??= await createDatabase(prefix);
      return database;
    },
    drop: () => database?.drop(),
  };
}
