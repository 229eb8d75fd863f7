// The server answers identical reads that arrive together once (src/server/shared-reads.ts):
// a read that comes while an identical one waits for its transaction takes that one's
// answer; one that comes once the transaction has begun runs on its own, so it sees every
// write answered before it came. Reads that differ in what their answer depends on, and
// writes (a GET airdrop among them), never share.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sharedDatabase } from '../postgres-or-skip.js';
import { importSource } from '../source-module.js';

const ADMIN = 'sk_shared_reads_admin';
const KEY = 'pk_shared_reads';
/** @import { Transaction, WriteOptions } from '../../src/store/index.js' */
/** @import { RequestContext } from '../../src/handler/request-guards.js' */
/** @import { SqlDriver } from '../../src/store/sql/sql.js' */
/**
 * @type {typeof import('../../src/server/shared-reads.js') & typeof import('../../src/handler/handler.js') &
 *   typeof import('../../src/store/sql/index.js')}
 */
let source;

before(async () => {
  source = await importSource('src/server/shared-reads.ts', 'src/handler/handler.ts', 'src/store/sql/index.ts');
});

/**
 * The server's handler, reads shared, over a SQL store of `storeOptions` with one app; `begun`
 * counts transactions begun, and `onBegin` (settable) runs as each begins, once the handler's
 * work has begun (and told its host).
 * @param {import('../../src/store/sql/index.js').SqlStoreOptions} storeOptions
 */
async function server(storeOptions) {
  const counted = { begun: 0, onBegin: () => {} };
  const opened = await source.openSqlStore(storeOptions);
  /**
   * @template {unknown[]} Args
   * @template Done
   * @param {(...args: Args) => Done} work
   * @returns {(...args: Args) => Done}
   */
  const counting =
    (work) =>
    (...args) => {
      const done = work(...args);
      counted.begun += 1;
      counted.onBegin();
      return done;
    };
  const store = {
    ...opened,
    /**
     * @template T
     * @param {(tx: Transaction) => Promise<T>} work
     */
    read: (work) => opened.read(counting(work)),
    /**
     * @template T
     * @param {(tx: Transaction) => Promise<T>} work
     * @param {WriteOptions} [options]
     */
    write: (work, options) => opened.write(counting(work), options),
    // Health's transaction: the database's ping.
    ping: (/** @type {(() => void) | undefined} */ begun) => opened.ping(() => counting(() => begun?.())()),
  };
  // Each answer of the handler, to tell whether a reader has it as it is.
  /** @type {Response[]} */
  const handlerAnswers = [];
  const handler = source.createHandler({ store });
  const handle = source.sharingReads(async (request, context) => {
    const answer = await handler(request, context);
    handlerAnswers.push(answer);
    return answer;
  });
  /**
   * @param {string} method
   * @param {string} path
   * @param {{ key?: string, headers?: Record<string, string>, body?: unknown }} options
   */
  const request = (method, path, { key = KEY, headers = {}, body }) =>
    new Request(`http://q.test${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  /**
   * @param {string} method
   * @param {string} path
   * @param {{ key?: string, headers?: Record<string, string>, body?: unknown, context?: RequestContext }} [options]
   */
  const call = async (method, path, options = {}) => {
    const response = await handle(request(method, path, options), options.context);
    return { status: response.status, body: await response.json() };
  };
  const imported = await call('POST', '/v1/admin/import', {
    key: ADMIN,
    body: {
      admin_keys: [ADMIN],
      apps: [
        {
          app_id: 'guild',
          api_keys: [{ key: KEY, scopes: ['read', 'write', 'ledger'] }],
          treasury: { account_id: '0.0.1001', balance: '10' },
          users: [{ account_name: 'alice' }, { account_name: 'bob' }],
        },
      ],
    },
  });
  assert.equal(imported.status, 200, JSON.stringify(imported.body));
  counted.begun = 0;
  return { call, counted, handle, request, handlerAnswers, close: () => store.close() };
}

const ALICE = '/v1/get_userinfo?app_id=guild&account_name=alice';

describe('on PGlite', () => {
  /** @type {Awaited<ReturnType<typeof server>>} */
  let shared;
  before(async () => {
    shared = await server({ memory: true });
  });
  after(() => shared.close());

  it('answers identical reads that come together with one transaction', async () => {
    const { call, counted } = shared;
    counted.begun = 0;
    const answers = await Promise.all(Array.from({ length: 8 }, () => call('GET', ALICE)));
    assert.equal(counted.begun, 1);
    for (const answer of answers) assert.deepEqual(answer, answers[0]);
    assert.equal(answers[0].status, 200, JSON.stringify(answers[0].body));
    assert.equal(answers[0].body.account_name, 'alice');
  });

  it('gives a read that no one joined the handler’s answer as it is, and readers who shared answers of their own', async () => {
    const { handle, request, handlerAnswers } = shared;
    handlerAnswers.length = 0;
    const alone = await handle(request('GET', ALICE, {}));
    assert.equal(handlerAnswers.length, 1);
    assert.equal(alone, handlerAnswers[0], 'not read and made again');
    const lone = await alone.json();
    assert.equal(lone.account_name, 'alice');

    handlerAnswers.length = 0;
    const together = await Promise.all([handle(request('GET', ALICE, {})), handle(request('GET', ALICE, {}))]);
    assert.equal(handlerAnswers.length, 1);
    assert.notEqual(together[0], together[1]);
    for (const answer of together) {
      assert.notEqual(answer, handlerAnswers[0], 'each reader has a body of its own to read');
      assert.deepEqual(await answer.json(), lone);
    }
  });

  it('runs a read that comes once the transaction has begun on its own', async () => {
    const { call, counted } = shared;
    counted.begun = 0;
    /** @type {Promise<unknown>} */
    let late = Promise.resolve('no second read was sent');
    counted.onBegin = () => {
      counted.onBegin = () => {};
      late = call('GET', ALICE);
    };
    const first = await call('GET', ALICE);
    assert.deepEqual(await late, first);
    assert.equal(counted.begun, 2);
  });

  it('answers health checks that come together with one ping, and one that comes once it has begun with its own', async () => {
    const { call, counted } = shared;
    counted.begun = 0;
    const together = await Promise.all(Array.from({ length: 8 }, () => call('GET', '/v1/health')));
    assert.equal(counted.begun, 1);
    for (const answer of together) assert.deepEqual(answer, { status: 200, body: together[0].body });
    assert.equal(together[0].body.is_valid, true);

    counted.begun = 0;
    /** @type {Promise<unknown>} */
    let late = Promise.resolve('no second check was sent');
    counted.onBegin = () => {
      counted.onBegin = () => {};
      late = call('GET', '/v1/health');
    };
    const first = await call('GET', '/v1/health');
    assert.deepEqual(await late, first);
    assert.equal(counted.begun, 2);
  });

  it('tells each reader’s host what the CORS check was given, the readers who joined too', async () => {
    const { call, counted } = shared;
    counted.begun = 0;
    /** @type {{ index: number, allowed: readonly string[] | undefined }[]} */
    const checked = [];
    /** @param {number} index */
    const reader = (index) => ({
      headers: { origin: 'https://forum.example.org' },
      context: { checkOrigin: (/** @type {readonly string[] | undefined} */ allowed) => void checked.push({ index, allowed }) },
    });
    const answers = await Promise.all([call('GET', ALICE, reader(0)), call('GET', ALICE, reader(1))]);
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [200, 200],
    );
    assert.equal(counted.begun, 1);
    assert.deepEqual(
      checked.map(({ index }) => index).sort((a, b) => a - b),
      [0, 1],
    );
    assert.deepEqual(checked[0].allowed, checked[1].allowed);
  });

  it('never shares between reads whose answers may differ, nor between writes', async () => {
    const { call, counted } = shared;
    counted.begun = 0;
    const [good, wrongKey, otherLanguage, otherOrigin] = await Promise.all([
      call('GET', ALICE),
      call('GET', ALICE, { key: 'pk_nobody' }),
      call('GET', ALICE, { headers: { 'accept-language': 'de' } }),
      call('GET', ALICE, { headers: { origin: 'https://elsewhere.test' } }),
    ]);
    assert.equal(good.status, 200);
    assert.equal(wrongKey.status, 401);
    assert.equal(otherLanguage.status, 200);
    assert.equal(otherOrigin.status, 200);
    assert.equal(counted.begun, 4);

    counted.begun = 0;
    const social = (/** @type {string} */ twitter_name) => ({ body: { app_id: 'guild', account_name: 'bob', twitter_name } });
    const writes = await Promise.all([
      call('POST', '/v1/connect_social', social('bob_a')),
      call('POST', '/v1/connect_social', social('bob_a')),
    ]);
    for (const write of writes) assert.equal(write.status, 200, JSON.stringify(write.body));
    assert.equal(counted.begun, 2);

    // A GET that writes: each pays.
    counted.begun = 0;
    const airdrop = '/v1/airdrop_token_ledger?to_address=0.0.2002&quantity=1';
    const paid = await Promise.all([call('GET', airdrop), call('GET', airdrop)]);
    for (const payment of paid) assert.equal(payment.status, 200, JSON.stringify(payment.body));
    assert.notEqual(paid[0].body.tx_id, paid[1].body.tx_id);
    assert.equal(counted.begun, 2);
  });
});

describe('a read that waits too long for its transaction', () => {
  it('is not joined by the identical reads that come after: they run on their own', async () => {
    // The first read never gets its transaction, as on a database that stopped answering.
    /** @type {() => void} */
    let release = () => {};
    /** @type {Promise<void>} */
    const stuck = new Promise((resolve) => (release = resolve));
    let runs = 0;
    const handle = source.sharingReads(
      async () => {
        const run = (runs += 1);
        if (run === 1) await stuck;
        return Response.json({ run });
      },
      { joinableMs: 0 },
    );
    const read = () => handle(new Request('http://q.test/v1/get_leaderboard?app_id=guild'));
    const first = read();
    // Timers of one delay run in the order set: the flight's window has closed after this one.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const second = read();
    // A read that runs on its own is handed to the handler at once; one that joined waits.
    assert.equal(runs, 2, 'the second read ran on its own');
    release();
    assert.deepEqual(await (await second).json(), { run: 2 });
    assert.deepEqual(await (await first).json(), { run: 1 });
  });
});

describe('on PostgreSQL', () => {
  const database = sharedDatabase('questboard_shared_reads');
  after(() => database.drop());

  it('gives a read that comes after a write the write, while an identical earlier read is under way', async (t) => {
    const found = await database.orSkip(t);
    if (!found) return;
    // The first read's transaction is held once its first statement is answered: its snapshot
    // is taken, and the write and the second read happen meanwhile.
    const base = source.postgresDriver({ url: found.url, max: 4 });
    let holdNextRead = false;
    /** @type {() => void} */
    let snapshotTaken = () => {};
    /** @type {() => void} */
    let release = () => {};
    /** @type {Promise<void>} */
    const held = new Promise((resolve) => (release = resolve));
    /** @type {SqlDriver} */
    const driver = {
      ...base,
      transaction: (mode, work, durability) => {
        const hold = mode === 'read' && holdNextRead;
        if (hold) holdNextRead = false;
        return base.transaction(
          mode,
          (session) =>
            work({
              ...session,
              /**
               * @template Row
               * @param {import('../../src/store/sql/sql.js').Query} query
               */
              query: async (query) => {
                const rows = /** @type {Row[]} */ (await session.query(query));
                if (hold) {
                  snapshotTaken();
                  await held;
                }
                return rows;
              },
            }),
          durability,
        );
      },
    };
    const { call, close } = await server({ driver });
    try {
      const CAROL = '/v1/get_userinfo?app_id=guild&account_name=carol';
      assert.equal((await call('GET', CAROL)).status, 404);

      holdNextRead = true;
      /** @type {Promise<void>} */
      const taken = new Promise((resolve) => (snapshotTaken = resolve));
      const first = call('GET', CAROL);
      await taken;
      const joins = await call('POST', '/v1/admin/import', {
        key: ADMIN,
        body: { apps: [{ app_id: 'guild', users: [{ account_name: 'carol' }] }] },
      });
      assert.equal(joins.status, 200, JSON.stringify(joins.body));
      const second = call('GET', CAROL);
      release();
      assert.equal((await first).status, 404, 'the first read’s snapshot was taken before carol joined');
      const after = await second;
      assert.equal(after.status, 200, `the second read came after carol joined: ${JSON.stringify(after.body)}`);
      assert.equal(after.body.account_name, 'carol');
    } finally {
      await close();
    }
  });
});

it('shares on every request header a GET’s answer depends on', async () => {
  // Headers the handler reads that no shared read's answer depends on, and why.
  const notInAnswer = {
    'content-type': 'a body’s, and a GET has none',
    'content-length': 'a body’s, and a GET has none',
    'idempotency-key': 'read by writes only',
    'last-event-id': 'read by the event stream, which never shares',
    'x-request-id': 'the log’s, not the answer’s',
  };
  /** @type {Set<string>} */
  const read = new Set();
  for (const folder of ['src/handler', 'src/core']) {
    for (const file of await readdir(folder)) {
      const text = await readFile(join(folder, file), 'utf8');
      for (const [, name] of text.matchAll(/headers\.(?:get|has)\(([^)]*)\)/g)) read.add(name);
    }
  }
  const names = [...read].map((name) =>
    name === 'MEMBER_TOKEN_HEADER' ? 'x-questboard-member' : name.replace(/^['"]|['"]$/g, '').toLowerCase(),
  );
  assert.ok(names.includes('authorization'), `the handler's reads were found: ${names.join(', ')}`);
  for (const name of names) {
    assert.ok(
      source.ANSWER_HEADERS.includes(name) || name in notInAnswer,
      `the handler reads ${name}, which ANSWER_HEADERS lacks`,
    );
  }
});
