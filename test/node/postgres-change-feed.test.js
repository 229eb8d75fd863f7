// The change feed of server processes sharing one PostgreSQL database
// (src/node/postgres-change-feed.ts): the notices of one turn of the event loop
// go out together, one per app and scope, and each reaches every process
// listening, this one included; closing sends what still waits.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { sharedDatabase } from '../postgres-or-skip.js';
import { importSource } from '../source-module.js';

const CHANNEL = 'questboard_changes';
const database = sharedDatabase('questboard_feed');
let source;
before(async () => {
  source = await importSource('src/node/postgres-change-feed.ts');
});
after(() => database.drop());

const members = (app_id, ...account_names) => ({ type: 'questboard:change', app_id, scope: 'members', account_names });
const silentLogger = { error: (fields, message) => assert.fail(`${message}: ${JSON.stringify(fields)}`) };

/** What another process hears on the channel, as parsed notices, until `count` have come. */
async function listener(url) {
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  const heard = [];
  let wake = () => undefined;
  await sql.listen(CHANNEL, (payload) => {
    heard.push(JSON.parse(payload));
    wake();
  });
  return {
    heard,
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

/** The notices of this feed's own subscribers of `app_id`, as they are handed over. */
async function subscribed(feed, app_id) {
  const changes = [];
  await feed.subscribe(app_id, null, (event) => changes.push(event.change));
  return changes;
}

/**
 * Runs `work(feed, other)`: a feed of this process, and `other` hearing the channel as another
 * process would, on the suite's database (skipped where PostgreSQL does not answer).
 */
async function withFeed(t, work) {
  const db = await database.orSkip(t);
  if (!db) return;
  const other = await listener(db.url);
  const feed = await source.postgresChangeFeed(db.url, silentLogger);
  try {
    await work(feed, other);
  } finally {
    await feed.close();
    await other.end();
  }
}

describe('change notices through PostgreSQL', () => {
  it("sends a turn's notices together: one per app and scope, the members' names merged", (t) =>
    withFeed(t, async (feed, other) => {
      const own = await subscribed(feed, 'guild');
      feed.publish(members('guild', 'ann', 'bob'));
      feed.publish(members('guild', 'bob', 'cy'));
      feed.publish({ type: 'questboard:change', app_id: 'guild', scope: 'treasury' });
      feed.publish(members('club', 'dee'));
      await other.until(3);
      // Nothing more comes for the four.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const byKey = (notice) => `${notice.app_id} ${notice.scope}`;
      assert.deepEqual(
        [...other.heard].sort((a, b) => byKey(a).localeCompare(byKey(b))),
        [
          members('club', 'dee'),
          members('guild', 'ann', 'bob', 'cy'),
          { type: 'questboard:change', app_id: 'guild', scope: 'treasury' },
        ],
      );
      assert.deepEqual(
        own.map(byKey).sort(),
        ['guild members', 'guild treasury'],
        "this process's own subscribers hear its notices, of their app only",
      );
      // A later turn's notices are sent on their own.
      feed.publish(members('guild', 'ann'));
      await other.until(4);
      assert.deepEqual(other.heard[3], members('guild', 'ann'));
    }));

  it('says the whole app changed where the names would not fit in one notice', (t) =>
    withFeed(t, async (feed, other) => {
      // Each notice fits alone; merged, 500 names of 20 characters do not (PostgreSQL takes under 8000 bytes).
      for (let index = 0; index < 500; index++) feed.publish(members('guild', `member-${String(index).padStart(13, '0')}`));
      await other.until(1);
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.deepEqual(other.heard, [{ type: 'questboard:change', app_id: 'guild', scope: 'app' }]);
    }));

  it('sends what waits when it closes', (t) =>
    withFeed(t, async (feed, other) => {
      feed.publish(members('guild', 'ann'));
      await feed.close();
      await other.until(1);
      assert.deepEqual(other.heard, [members('guild', 'ann')]);
    }));
});
