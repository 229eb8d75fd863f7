// The SQL drivers run each kind of transaction as src/store/sql/sql.ts says:
// reads in one snapshot that cannot write, writes at READ COMMITTED (their
// rows locked as read), a relaxed write's COMMIT not waiting for the disk on
// PostgreSQL. The modes go with BEGIN on PostgreSQL, to save a round trip;
// this checks they still take effect.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { socketOf } from '../../../scripts/postgres.js';
import { sharedDatabase } from '../../postgres-or-skip.js';
import { importSource } from '../../source-module.js';

/** @typedef {import('../../../src/store/sql/sql.js').SqlSession} SqlSession */
/** @typedef {import('../../../src/store/sql/sql.js').SqlDriver} SqlDriver */
/** @typedef {import('../../../src/store/sql/transaction.js').SqlTransaction} SqlTransaction */

/** @type {typeof import('../../../src/store/sql/postgres-driver.js') & typeof import('../../../src/store/sql/pglite-driver.js')} */
let sql;
before(async () => {
  sql = await importSource('src/store/sql/postgres-driver.ts', 'src/store/sql/pglite-driver.ts');
});

/** @param {SqlSession} session */
const settings = async (session) => {
  const [row] = await session.query({
    text: `SELECT current_setting('transaction_isolation') AS isolation, current_setting('transaction_read_only') AS read_only,
      current_setting('synchronous_commit') AS synchronous_commit`,
    values: [],
  });
  return { ...row };
};

const READ = { isolation: 'repeatable read', read_only: 'on', synchronous_commit: 'on' };
const WRITE = { isolation: 'read committed', read_only: 'off', synchronous_commit: 'on' };

/**
 * `relaxedCommit`: what a relaxed write's synchronous_commit is ('on' where every write is strict).
 * @param {SqlDriver} driver
 * @param {string} relaxedCommit
 */
async function checkModes(driver, relaxedCommit) {
  assert.deepEqual(await driver.transaction('read', settings), READ);
  assert.deepEqual(await driver.transaction('write', settings), WRITE, 'strict unless asked');
  assert.deepEqual(await driver.transaction('write', settings, 'strict'), WRITE);
  assert.deepEqual(await driver.transaction('write', settings, 'relaxed'), { ...WRITE, synchronous_commit: relaxedCommit });
  assert.deepEqual(await driver.transaction('write', settings), WRITE, 'relaxed for its own transaction only');
  await assert.rejects(
    driver.transaction('read', (session) => session.query({ text: 'CREATE TABLE refused (id integer)', values: [] })),
    /read-only transaction/,
  );
}

describe('transaction modes', () => {
  // In this process, a crash of the server is one of the database: every write waits for the disk.
  it('on PGlite, every write strict', async () => {
    const driver = await sql.pgliteDriver();
    try {
      await checkModes(driver, 'on');
    } finally {
      await driver.close();
    }
  });

  describe('on PostgreSQL', () => {
    const shared = sharedDatabase('questboard_drivers');
    after(() => shared.drop());
    /**
     * A driver of one connection on the test's database, or null where PostgreSQL does not answer (never in CI).
     * @param {import('node:test').TestContext} t
     */
    async function driverOrSkip(t) {
      const database = await shared.orSkip(t);
      return database && sql.postgresDriver({ url: database.url, max: 1 });
    }

    /**
     * How many backends of the server pg_stat_activity lists `where`, asked through `driver` until
     * `settled` says the count is the one awaited, at most 100 times 50 ms apart.
     * @param {SqlDriver} driver
     * @param {string} where
     * @param {(count: number) => boolean} settled
     */
    async function backendsOnceSettled(driver, where, settled) {
      for (let look = 0; ; look++) {
        const [row] = await driver.transaction('read', (session) =>
          session.query({ text: `SELECT count(*)::integer AS n FROM pg_stat_activity WHERE ${where}`, values: [] }),
        );
        // count(*)::integer
        const count = /** @type {number} */ (row.n);
        if (settled(count) || look === 99) return count;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }

    it('with the modes given to BEGIN', async (t) => {
      const driver = await driverOrSkip(t);
      if (!driver) return;
      try {
        await checkModes(driver, 'off');
      } finally {
        await driver.close();
      }
    });

    // BEGIN goes out with the first statement, and a read's COMMIT is not waited for.
    it('with the first statement inside the transaction, and a read ended before the next begins', async (t) => {
      const driver = await driverOrSkip(t);
      if (!driver) return;
      /** @param {string} text */
      const statement = (text) => ({ text, values: [] });
      try {
        await driver.transaction('write', (session) => session.query(statement('CREATE TABLE kept (id integer)')));
        await assert.rejects(
          driver.transaction('write', async (session) => {
            await session.query(statement('INSERT INTO kept VALUES (1)'));
            await session.query(statement('SELECT no_such_column FROM kept'));
          }),
          /no_such_column/,
        );
        /** @param {SqlSession} session */
        const count = async (session) => (await session.query(statement('SELECT count(*)::integer AS n FROM kept')))[0].n;
        assert.equal(await driver.transaction('read', count), 0, 'the rolled back insert is gone');
        // One connection: each transaction queues behind the last one's COMMIT, and has its own modes.
        const [read, write, nextRead] = await Promise.all([
          driver.transaction('read', settings),
          driver.transaction('write', settings),
          driver.transaction('read', settings),
        ]);
        assert.deepEqual([read, write, nextRead], [READ, WRITE, READ]);
      } finally {
        await driver.close();
      }
    });

    // A write's statements of its first turn go out with BEGIN, not behind its answer (a write's key,
    // its app's lock and what the server reads ahead): they are still the transaction's own.
    it("with a write's first turn sent with BEGIN, inside the transaction", async (t) => {
      const driver = await driverOrSkip(t);
      if (!driver) return;
      /** @param {string} text */
      const statement = (text) => ({ text, values: [] });
      /** @param {SqlSession} session */
      const transactionOf = (session) =>
        session.query(statement('SELECT pg_current_xact_id()::text AS id')).then(([row]) => row.id);
      try {
        await driver.transaction('write', (session) => session.query(statement('CREATE TABLE turned (id integer)')));
        await assert.rejects(
          driver.transaction('write', async (session) => {
            const first = session.query(statement('INSERT INTO turned VALUES (1)'));
            const opened = transactionOf(session);
            // Later in the same turn, as the server's read-ahead sends its statements.
            await Promise.resolve();
            const second = session.query(statement('INSERT INTO turned VALUES (2)'));
            const alsoOpened = transactionOf(session);
            await Promise.all([first, second]);
            assert.equal(await alsoOpened, await opened, 'one transaction');
            assert.equal(await transactionOf(session), await opened, 'the same after its answers');
            await session.query(statement('SELECT no_such_column FROM turned'));
          }),
          /no_such_column/,
        );
        /** @param {SqlSession} session */
        const count = async (session) => (await session.query(statement('SELECT count(*)::integer AS n FROM turned')))[0].n;
        assert.equal(await driver.transaction('read', count), 0, 'rolled back with the rest');
      } finally {
        await driver.close();
      }
    });

    // A write's COMMIT may go out with its last statements (SqlSession.commit), before they are answered.
    it('with a COMMIT sent behind the last statements: kept when they succeed, rolled back when one fails', async (t) => {
      const driver = await driverOrSkip(t);
      if (!driver) return;
      /** @param {string} text */
      const statement = (text) => ({ text, values: [] });
      const ids = async () =>
        (await driver.transaction('read', (session) => session.query(statement('SELECT id FROM sent ORDER BY id')))).map(
          (row) => row.id,
        );
      try {
        await driver.transaction('write', (session) => session.query(statement('CREATE TABLE sent (id integer PRIMARY KEY)')));
        // PostgreSQL's sessions have commit, optional in SqlSession only.
        await driver.transaction('write', async (session) => {
          const inserted = session.query(statement('INSERT INTO sent VALUES (1)'));
          /** @type {() => void} */ (session.commit)();
          await inserted;
          await assert.rejects(session.query(statement('INSERT INTO sent VALUES (2)')), /after its transaction ended/);
        });
        assert.deepEqual(await ids(), [1], 'committed, and nothing after its COMMIT');
        await assert.rejects(
          driver.transaction('write', async (session) => {
            const first = session.query(statement('INSERT INTO sent VALUES (3)'));
            const duplicate = session.query(statement('INSERT INTO sent VALUES (1)'));
            /** @type {() => void} */ (session.commit)();
            await Promise.all([first, duplicate]);
          }),
          /duplicate key/,
        );
        await assert.rejects(
          driver.transaction('write', async (session) => {
            void session.query(statement('INSERT INTO sent VALUES (4)'));
            // Failed and not awaited: the COMMIT, answered ROLLBACK, fails the write all the same.
            session.query(statement('INSERT INTO sent VALUES (1)')).catch(() => undefined);
            /** @type {() => void} */ (session.commit)();
          }),
          /rolled back/,
        );
        assert.deepEqual(await ids(), [1], 'neither write kept a row');
      } finally {
        await driver.close();
      }
    });

    // A VACUUM takes seconds at a million members: the requests keep every connection of their pool meanwhile.
    it('with maintenance on a connection beside the pool', async (t) => {
      const driver = await driverOrSkip(t);
      if (!driver) return;
      try {
        let maintained = false;
        // PostgreSQL's driver has it (SqlDriver.maintain).
        const maintaining = /** @type {NonNullable<SqlDriver['maintain']>} */ (driver.maintain)(['SELECT pg_sleep(3)']).then(
          () => {
            maintained = true;
          },
        );
        // The pool's one connection asks after maintenance until it sleeps: it was never taken.
        const sleeping = await backendsOnceSettled(
          driver,
          "datname = current_database() AND query = 'SELECT pg_sleep(3)' AND pid <> pg_backend_pid()",
          (count) => count > 0,
        );
        assert.equal(sleeping, 1, 'maintenance sleeps on a connection of its own');
        assert.equal(maintained, false, 'the pool served while maintenance went on');
        await maintaining;
      } finally {
        await driver.close();
      }
    });

    // Seen as a store closed while its statistics keeper's read connected: the connection stayed
    // open, and the database's drop then failed its type fetch, an unhandled rejection.
    it('closed while a transaction connects: no connection left open', async (t) => {
      const database = await shared.orSkip(t);
      if (!database) return;
      const url = new URL(database.url);
      url.searchParams.set('application_name', 'closed_while_connecting');
      const driver = sql.postgresDriver({ url: url.href, max: 1 });
      const reading = driver.transaction('read', (session) => session.query({ text: 'SELECT 1', values: [] }));
      await driver.close();
      await assert.rejects(reading, /closed/);
      const observer = sql.postgresDriver({ url: database.url, max: 1 });
      try {
        // Its backend leaves pg_stat_activity once it has exited, a moment after its client closed the socket.
        const open = await backendsOnceSettled(observer, "application_name = 'closed_while_connecting'", (count) => count === 0);
        assert.equal(open, 0, 'the connection was closed with the driver');
      } finally {
        await observer.close();
      }
    });

    // As libpq names a socket's directory: the URL's host (and port) parameters, or the host percent-encoded.
    it('through a Unix socket where the URL names its directory', async (t) => {
      const database = await shared.orSkip(t);
      if (!database) return;
      const { directory, port } = await socketOf(database.url);
      assert.ok(directory.startsWith('/'), `the server has a socket directory (${directory})`);
      const { username, pathname } = new URL(database.url);
      const urls = [
        `postgresql://${username}@localhost${pathname}?host=${encodeURIComponent(directory)}&port=${port}`,
        `postgres://${username}@${encodeURIComponent(directory)}:${port}${pathname}`,
      ];
      /** @param {SqlSession} session */
      const where = (session) =>
        session.query({ text: 'SELECT current_database() AS database, inet_server_addr() AS address', values: [] });
      for (const url of [database.url, ...urls]) {
        const driver = sql.postgresDriver({ url, max: 1 });
        try {
          const [row] = await driver.transaction('read', where);
          assert.equal(row.database, pathname.slice(1), url);
          // No server address: a Unix socket. The test's own URL goes over TCP.
          assert.equal(row.address === null, url !== database.url, url);
        } finally {
          await driver.close();
        }
      }
    });
  });
});

describe('statements after their transaction', () => {
  it('are refused, so none runs on its own after a ROLLBACK or COMMIT', async () => {
    const { openSqlStore } = /** @type {typeof import('../../../src/store/sql/open-store.js')} */ (
      await importSource('src/store/sql/open-store.ts')
    );
    const store = await openSqlStore({ memory: true });
    try {
      /** @type {SqlTransaction | undefined} */
      let kept;
      await store.write(async (tx) => {
        // The SQL store's transactions are SqlTransactions.
        kept = /** @type {SqlTransaction} */ (tx);
      });
      await assert.rejects(
        /** @type {SqlTransaction} */ (kept).session.query({ text: 'SELECT 1', values: [] }),
        /after its transaction ended/,
      );
      await assert.rejects(
        store.write(async (tx) => {
          kept = /** @type {SqlTransaction} */ (tx);
          throw new Error('the work failed');
        }),
        /the work failed/,
      );
      await assert.rejects(
        /** @type {SqlTransaction} */ (kept).session.query({ text: 'SELECT 1', values: [] }),
        /after its transaction ended/,
      );
    } finally {
      await store.close();
    }
  });
});

describe('durability', () => {
  it("asks the driver for relaxed writes, strict where the write says so (the ledger's)", async () => {
    const { openSqlStore } = /** @type {typeof import('../../../src/store/sql/open-store.js')} */ (
      await importSource('src/store/sql/open-store.ts')
    );
    const driver = await sql.pgliteDriver();
    /** @type {Array<[string, string | undefined]>} */
    const asked = [];
    const store = await openSqlStore({
      driver: {
        transaction: (mode, work, durability) => {
          asked.push([mode, durability]);
          return driver.transaction(mode, work, durability);
        },
        close: () => driver.close(),
      },
    });
    try {
      asked.length = 0; // the migrations' own
      await store.write(async () => undefined);
      await store.write(async () => undefined, { durability: 'strict' });
      await store.read(async () => undefined);
      assert.deepEqual(asked, [
        ['write', 'relaxed'],
        ['write', 'strict'],
        ['read', undefined],
      ]);
    } finally {
      await store.close();
    }
  });
});
