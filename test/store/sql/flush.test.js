// A write's flush (src/store/sql/transaction.ts): a request's few moves on the boards go as
// statements that read nothing first, with the records; many (an import's) read the boards
// first, before the records. It asks for its COMMIT once every statement is sent: also when no
// one moves on a board, where the boards ask for it before the records are sent. The change
// notices it was told to announce go with the COMMIT, after every other statement.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { importSource } from '../../source-module.js';
import { recordingStore } from './recording-store.js';
import { userRecord } from './user-record.js';

/** @typedef {import('../../../src/store/index.js').UserRecord} UserRecord */
/** @typedef {import('../../../src/store/index.js').Transaction} Transaction */
/** @typedef {import('../../../src/store/sql/index.js').SqlStore} SqlStore */

/** @type {typeof import('../../../src/store/sql/index.js')} */
let source;
before(async () => {
  source = await importSource('src/store/sql/index.ts');
});

describe("a write's flush", () => {
  /** @type {SqlStore} */
  let store;
  /** @type {string[]} */
  let sent;
  before(async () => {
    ({ store, sent } = await recordingStore(source, { announceChanges: true }));
    await store.write(async (tx) => {
      tx.put('users', userRecord({ app_id: 'guild', account_name: 'ann', total_score: 10, score_at: 1 }));
    });
  });
  after(() => store?.close());

  /**
   * The statements of one write, COMMIT included.
   * @param {(tx: Transaction) => Promise<void>} work
   */
  async function statementsOf(work) {
    sent.length = 0;
    await store.write(work);
    return [...sent];
  }

  it("sends a request's moves with its records, reading nothing of the boards first, and COMMIT last", async () => {
    const sent = await statementsOf(async (tx) => {
      const ann = /** @type {UserRecord} */ (await tx.get('users', ['guild', 'ann'])); // joined in before()
      tx.put('users', { ...ann, total_score: 20, score_at: 2 });
    });
    assert.deepEqual(sent, ['SELECT users', 'WITH board_sections', 'WITH board_blocks', 'INSERT users', 'COMMIT']);
  });

  it("sends many members' reads of the boards before the records, and COMMIT after every statement", async () => {
    // 40 members joining two boards each (the score board and all names): 80 moves, past what goes as statements.
    const sent = await statementsOf(async (tx) => {
      for (let i = 0; i < 40; i++) {
        tx.put('users', userRecord({ app_id: 'guild', account_name: `member-${i}`, total_score: i, score_at: 1 }));
      }
    });
    /** @param {string} label */
    const at = (label) => sent.indexOf(label);
    for (const read of ['SELECT board_blocks', 'SELECT board_sections']) {
      assert.ok(at(read) >= 0 && at(read) < at('INSERT users'), `${read} before the records: ${JSON.stringify(sent)}`);
    }
    assert.equal(sent.at(-1), 'COMMIT', JSON.stringify(sent));
    assert.equal(sent.filter((label) => label === 'COMMIT').length, 1);
  });

  it('asks for COMMIT after the records where no one moves on a board', async () => {
    const sent = await statementsOf(async (tx) => {
      const ann = /** @type {UserRecord} */ (await tx.get('users', ['guild', 'ann'])); // joined in before()
      tx.put('users', { ...ann, twitter_name: 'ann_on_x' });
    });
    assert.deepEqual(sent, ['SELECT users', 'INSERT users', 'COMMIT']);
    const kept = await store.read((tx) => tx.get('users', ['guild', 'ann']));
    assert.equal(/** @type {UserRecord} */ (kept).twitter_name, 'ann_on_x');
  });

  it('sends the change notices announced with COMMIT, after the board counts', async () => {
    const sent = await statementsOf(async (tx) => {
      const ann = /** @type {UserRecord} */ (await tx.get('users', ['guild', 'ann'])); // joined in before()
      tx.put('users', { ...ann, total_score: 30, score_at: 3 });
      // A store opened with announceChanges has it.
      /** @type {NonNullable<Transaction['announce']>} */ (tx.announce)({
        app_id: 'guild',
        scope: 'members',
        account_names: ['ann'],
      });
    });
    assert.deepEqual(sent.slice(-2), ['SELECT pg_notify', 'COMMIT'], JSON.stringify(sent));
    assert.ok(sent.includes('WITH board_blocks'), JSON.stringify(sent));
    assert.equal(sent.filter((label) => label === 'SELECT pg_notify').length, 1);
  });

  it('sends them after the records where no one moves on a board', async () => {
    const sent = await statementsOf(async (tx) => {
      const ann = /** @type {UserRecord} */ (await tx.get('users', ['guild', 'ann'])); // joined in before()
      tx.put('users', { ...ann, twitter_name: 'ann_elsewhere' });
      /** @type {NonNullable<Transaction['announce']>} */ (tx.announce)({
        app_id: 'guild',
        scope: 'members',
        account_names: ['ann'],
      });
    });
    assert.deepEqual(sent, ['SELECT users', 'INSERT users', 'SELECT pg_notify', 'COMMIT']);
  });
});

describe('records written together', () => {
  /** @type {SqlStore} */
  let store;
  before(async () => {
    ({ store } = await recordingStore(source));
  });
  after(() => store?.close());

  it('come back as they went in, whatever their strings hold, and logs in the order appended', async () => {
    // Records travel joined by U+001E (transaction.ts): strings holding it, the other control
    // characters, quotes, backslashes and characters outside the BMP must not split or change them.
    const strings = ['a\u001eb', '\u001e', '\u0000\u0001\u001f', '"quoted" \\ back\\slash', '🏆 \ud800 lone', ''];
    const members = strings.map((twitter_name, i) => ({
      ...userRecord({ app_id: 'guild', account_name: `member\u001e${i}`, total_score: i, score_at: 1 }),
      twitter_name,
    }));
    const logs = strings.map((note, i) => ({
      app_id: 'guild',
      account_name: `member\u001e${i}`,
      task_id: 't',
      quantity_e4: i,
      at: 10 - i,
      note,
    }));
    await store.write(async (tx) => {
      for (const member of members) tx.put('users', member);
      for (const log of logs) await tx.append(log);
    });
    const kept = await store.read((tx) => Promise.all(members.map((member) => tx.get('users', ['guild', member.account_name]))));
    assert.deepEqual(kept, members);
    const data = await store.read((tx) => tx.readAppData('guild'));
    assert.deepEqual(data.logs, logs);
  });
});
