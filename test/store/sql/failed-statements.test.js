// A write's statements go out together (src/store/sql/transaction.ts), and the database refuses
// every statement behind one that failed (25P02, "current transaction is aborted"). Whichever
// refusal the work hears of first, the store judges the write by the first statement that
// failed: a conflict is run again and, past its attempts, answered 503, never 500. (Under the
// benchmark's mixed load, endorse_account met a block due to be cut, heard of a refusal behind it
// first, and was answered 500.)
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sharedDatabase } from '../../postgres-or-skip.js';
import { importSource } from '../../source-module.js';

/** @type {typeof import('../../../src/store/sql/index.js') & typeof import('../../../src/api/errors.js')} */
let source;
before(async () => {
  source = await importSource('src/store/sql/index.ts', 'src/api/errors.ts');
});

const database = sharedDatabase('questboard_failed_statements');
after(() => database.drop());

/**
 * A write whose first statement fails as a block due to be cut does, heard of after the refusal behind it.
 * @param {import('../../../src/store/sql/index.js').SqlStore} store
 */
async function checkFirstFailureJudged(store) {
  let attempts = 0;
  const refused = store.write(async (tx) => {
    attempts += 1;
    // The SQL store's transactions are SqlTransactions, with their session.
    const cut = /** @type {import('../../../src/store/sql/transaction.js').SqlTransaction} */ (tx).session.query({
      text: 'SELECT questboard_split_due()',
      values: [],
    });
    const behind = /** @type {import('../../../src/store/sql/transaction.js').SqlTransaction} */ (tx).session.query({
      text: 'SELECT 1 AS one',
      values: [],
    });
    const heardLate = cut.catch(async (error) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      throw error;
    });
    await Promise.all([heardLate, behind]);
  });
  await assert.rejects(refused, (error) => {
    assert.ok(error instanceof source.ApiError, `an answer, not ${String(error)}`);
    assert.equal(/** @type {{ status: number }} */ (error).status, 503);
    return true;
  });
  assert.equal(attempts, 8, 'run again as after any conflict');
}

describe('a write judged by its first failed statement, not by those refused behind it', () => {
  it('on PGlite', async () => {
    const store = await source.openSqlStore({ memory: true });
    try {
      await checkFirstFailureJudged(store);
    } finally {
      await store.close();
    }
  });

  it('on PostgreSQL', async (t) => {
    const db = await database.orSkip(t);
    if (!db) return;
    const store = await source.openSqlStore({ databaseUrl: db.url });
    try {
      await checkFirstFailureJudged(store);
    } finally {
      await store.close();
    }
  });
});
