// Tests that need PostgreSQL. Where none answers, they say loudly that they
// skipped; in CI, which always has one (.ci/run starts one where none runs),
// they fail instead.
import assert from 'node:assert/strict';
import { postgresAnswers } from '../scripts/postgres.js';

/** The test `t` needs PostgreSQL, which does not answer: skipped, or failed in CI. */
export function skipWithoutPostgres(t) {
  if (process.env.CI) assert.fail('PostgreSQL does not answer, and CI never skips it');
  t.skip('SKIPPED: PostgreSQL does not answer (set QB_DATABASE_URL)');
}

/** Whether PostgreSQL answers; where it does not, the test `t` is skipped (failed in CI). */
export async function postgresOrSkip(t) {
  if (await postgresAnswers()) return true;
  skipWithoutPostgres(t);
  return false;
}
