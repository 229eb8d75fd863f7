// The change notices of server processes sharing one PostgreSQL database: a write
// sends its own by NOTIFY with its commit (src/store/sql/change-notices.ts), so
// every process listening hears them once it commits and never for a write
// rolled back; each process's feed (src/server/postgres-change-feed.ts) hands
// what it hears, its own writes' included, to its subscribers.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { sharedDatabase } from '../postgres-or-skip.js';
import { importSource } from '../source-module.js';

/** @import { Changed, ChangeNotice } from '../../src/api/broadcast.js' */
/** @import { FeedEvent } from '../../src/handler/change-feed.js' */
/** @import { Logger } from '../../src/server/logger.js' */
/** @import { Transaction } from '../../src/store/index.js' */
/** @import { SqlStore } from '../../src/store/sql/index.js' */

const CHANNEL = 'questboard_changes';
const database = sharedDatabase('questboard_feed');
/** @type {typeof import('../../src/server/postgres-change-feed.js')} */
let feedSource;
/** @type {typeof import('../../src/store/sql/index.js')} */
let storeSource;
before(async () => {
  [feedSource, storeSource] = await Promise.all([
    importSource('src/server/postgres-change-feed.ts'),
    importSource('src/store/sql/index.ts'),
  ]);
});
after(() => database.drop());

/**
 * @param {string} app_id
 * @param {...string} account_names
 * @returns {Changed}
 */
const members = (app_id, ...account_names) => ({ app_id, scope: 'members', account_names });
/**
 * @param {Changed} changed
 * @returns {ChangeNotice}
 */
const notice = (changed) => ({ type: 'questboard:change', ...changed });
// Only error is ever called here: the feed warns and informs only when its connection is lost.
const silentLogger = /** @type {Logger} */ (
  /** @type {unknown} */ ({
    error: (/** @type {object} */ fields, /** @type {string} */ message) => assert.fail(`${message}: ${JSON.stringify(fields)}`),
  })
);
/**
 * Announces `changed` with the write `tx`: a store opened with announceChanges, as here, has announce.
 * @param {Transaction} tx
 * @param {Changed | Changed[] | undefined} changed
 */
const announce = (tx, changed) => /** @type {NonNullable<Transaction['announce']>} */ (tx.announce)(changed);
/** @param {number} ms */
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What another process hears on the channel, as parsed notices, until `count` have come.
 * @param {string} url
 */
async function listener(url) {
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  /** @type {ChangeNotice[]} */
  const heard = [];
  /** @type {(value?: unknown) => void} */
  let wake = () => undefined;
  await sql.listen(CHANNEL, (payload) => {
    heard.push(JSON.parse(payload));
    wake();
  });
  return {
    heard,
    /** @param {number} count */
    async until(count) {
      const deadline = Date.now() + 5000;
      while (heard.length < count && Date.now() < deadline) {
        await new Promise((resolve) => {
          wake = resolve;
          setTimeout(resolve, 100);
        });
      }
    },
    end: () => sql.end(),
  };
}

/**
 * Runs `work(store, other)`: a store announcing its writes' changes, in a schema of its own of the
 * suite's database, and `other` hearing the channel as another process would (skipped where
 * PostgreSQL does not answer).
 * @param {import('node:test').TestContext} t
 * @param {(store: SqlStore, other: Awaited<ReturnType<typeof listener>>, db: { url: string }) => Promise<void>} work
 */
async function withStore(t, work) {
  const db = await database.orSkip(t);
  if (!db) return;
  const other = await listener(db.url);
  const store = await storeSource.openSqlStore({ databaseUrl: db.url, schema: 'feed', announceChanges: true });
  try {
    await work(store, other, db);
  } finally {
    await store.close();
    await other.end();
  }
}

describe('change notices through PostgreSQL', () => {
  it('sends what a write announces once it commits, each change a notice', (t) =>
    withStore(t, async (store, other) => {
      await store.write(async (tx) => {
        announce(tx, [members('guild', 'ann', 'bob'), { app_id: 'guild', scope: 'treasury' }]);
        announce(tx, members('club', 'dee'));
        // Not before the commit.
        await pause(200);
        assert.deepEqual(other.heard, []);
      });
      await other.until(3);
      await pause(200);
      assert.deepEqual(other.heard, [
        notice(members('guild', 'ann', 'bob')),
        notice({ app_id: 'guild', scope: 'treasury' }),
        notice(members('club', 'dee')),
      ]);
    }));

  it('sends nothing for a write rolled back, nor for one that announces nothing', (t) =>
    withStore(t, async (store, other) => {
      await assert.rejects(
        store.write(async (tx) => {
          announce(tx, members('guild', 'ann'));
          throw new Error('refused');
        }),
        /refused/,
      );
      await store.write(async (tx) => announce(tx, undefined));
      await store.write(async (tx) => announce(tx, members('guild', 'bob')));
      await other.until(1);
      await pause(200);
      assert.deepEqual(other.heard, [notice(members('guild', 'bob'))]);
    }));

  it('says the whole app changed where the names would not fit in one notice', (t) =>
    withStore(t, async (store, other) => {
      // 500 names of 20 characters: PostgreSQL takes a payload of under 8000 bytes.
      const names = Array.from({ length: 500 }, (_, index) => `member-${String(index).padStart(13, '0')}`);
      await store.write(async (tx) => announce(tx, members('guild', ...names)));
      await other.until(1);
      assert.deepEqual(other.heard, [notice({ app_id: 'guild', scope: 'app' })]);
    }));

  it('announces only from writes of a store that shares its changes', (t) =>
    withStore(t, async (store, _other, db) => {
      assert.equal(await store.read(async (tx) => tx.announce), undefined, 'a read has nothing to announce');
      const own = await storeSource.openSqlStore({ databaseUrl: db.url, schema: 'feed' });
      try {
        assert.equal(await own.write(async (tx) => tx.announce), undefined, 'its host publishes them');
      } finally {
        await own.close();
      }
    }));

  it("hands every process's notices to this process's subscribers of their app", (t) =>
    withStore(t, async (store, other, db) => {
      const feed = await feedSource.postgresChangeFeed(db.url, silentLogger);
      try {
        /** @type {ChangeNotice[]} */
        const guild = [];
        await feed.subscribe('guild', null, (event) =>
          guild.push(/** @type {Extract<FeedEvent, { kind: 'change' }>} */ (event).change),
        );
        // This process's write, and another process's NOTIFY.
        await store.write(async (tx) => announce(tx, members('guild', 'ann')));
        const sql = postgres(db.url, { max: 1, onnotice: () => undefined });
        await sql`SELECT pg_notify(${CHANNEL}, ${JSON.stringify(notice(members('club', 'dee')))})`;
        await sql`SELECT pg_notify(${CHANNEL}, ${JSON.stringify(notice({ app_id: 'guild', scope: 'treasury' }))})`;
        await sql.end();
        await other.until(3);
        await pause(200);
        assert.deepEqual(guild, [notice(members('guild', 'ann')), notice({ app_id: 'guild', scope: 'treasury' })]);
      } finally {
        await feed.close();
      }
    }));
});
