// A write's flush (src/store/sql/transaction.ts) sends the boards' reads first, then its
// records, and asks for its COMMIT once every statement is sent: also when no one moves on a
// board, where the boards ask for it before the records are sent. The change notices it was
// told to announce go with the COMMIT, after every other statement.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { importSource } from '../../source-module.js';
import { userRecord } from './user-record.js';

let source;
before(async () => {
  source = await importSource('src/store/sql/open-store.ts', 'src/store/sql/pglite-driver.ts');
});

/** A statement as the tests name it: its verb and the first of the store's tables it names. */
const TABLE = /\b(users|board_blocks|board_sections|name_periods|logs|endorsements|apps|api_keys|pg_notify)\b/;
const labelOf = (text) => `${text.trim().split(/\s+/)[0]} ${TABLE.exec(text)?.[1] ?? '?'}`;

/** A store over PGlite whose driver records, in order, each statement (labelOf) and each COMMIT asked for. */
async function recordingStore({ announceChanges = false } = {}) {
  const driver = await source.pgliteDriver();
  const sent = [];
  const store = await source.openSqlStore({
    driver: {
      transaction: (mode, work, durability) =>
        driver.transaction(
          mode,
          (session) =>
            work({
              query: (query) => {
                sent.push(labelOf(query.text));
                return session.query(query);
              },
              // PGlite's driver commits once the work is done; here the ask is only noted.
              commit: () => sent.push('COMMIT'),
            }),
          durability,
        ),
      close: () => driver.close(),
    },
    announceChanges,
  });
  return { store, sent };
}

describe("a write's flush", () => {
  let store;
  let sent;
  before(async () => {
    ({ store, sent } = await recordingStore({ announceChanges: true }));
    await store.write(async (tx) => {
      tx.put('users', userRecord({ app_id: 'guild', account_name: 'ann', total_score: 10, score_at: 1 }));
    });
  });
  after(() => store?.close());

  /** The statements of one write, COMMIT included. */
  async function statementsOf(work) {
    sent.length = 0;
    await store.write(work);
    return [...sent];
  }

  it("sends the boards' reads before the records, and COMMIT after every statement", async () => {
    const sent = await statementsOf(async (tx) => {
      const ann = await tx.get('users', ['guild', 'ann']);
      tx.put('users', { ...ann, total_score: 20, score_at: 2 });
    });
    const at = (label) => sent.indexOf(label);
    assert.equal(at('SELECT users'), 0, JSON.stringify(sent));
    for (const read of ['SELECT board_blocks', 'SELECT board_sections']) {
      assert.ok(at(read) > 0 && at(read) < at('INSERT users'), `${read} before the records: ${JSON.stringify(sent)}`);
    }
    assert.equal(sent.at(-1), 'COMMIT', JSON.stringify(sent));
    assert.equal(sent.filter((label) => label === 'COMMIT').length, 1);
  });

  it('asks for COMMIT after the records where no one moves on a board', async () => {
    const sent = await statementsOf(async (tx) => {
      const ann = await tx.get('users', ['guild', 'ann']);
      tx.put('users', { ...ann, twitter_name: 'ann_on_x' });
    });
    assert.deepEqual(sent, ['SELECT users', 'INSERT users', 'COMMIT']);
    const kept = await store.read((tx) => tx.get('users', ['guild', 'ann']));
    assert.equal(kept.twitter_name, 'ann_on_x');
  });

  it('sends the change notices announced with COMMIT, after the board counts', async () => {
    const sent = await statementsOf(async (tx) => {
      const ann = await tx.get('users', ['guild', 'ann']);
      tx.put('users', { ...ann, total_score: 30, score_at: 3 });
      tx.announce({ app_id: 'guild', scope: 'members', account_names: ['ann'] });
    });
    assert.deepEqual(sent.slice(-2), ['SELECT pg_notify', 'COMMIT'], JSON.stringify(sent));
    assert.ok(sent.indexOf('INSERT board_blocks') < sent.indexOf('SELECT pg_notify'), JSON.stringify(sent));
    assert.equal(sent.filter((label) => label === 'SELECT pg_notify').length, 1);
  });

  it('sends them after the records where no one moves on a board', async () => {
    const sent = await statementsOf(async (tx) => {
      const ann = await tx.get('users', ['guild', 'ann']);
      tx.put('users', { ...ann, twitter_name: 'ann_elsewhere' });
      tx.announce({ app_id: 'guild', scope: 'members', account_names: ['ann'] });
    });
    assert.deepEqual(sent, ['SELECT users', 'INSERT users', 'SELECT pg_notify', 'COMMIT']);
  });
});
