// The Questboard server shared by a community: durable across a crash, and
// correct when several server processes share one PostgreSQL database.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase, postgresAnswers, socketOf } from '../../scripts/postgres.js';
import { postgresOrSkip } from '../postgres-or-skip.js';
import { startServer } from './reference-server.js';

const DATASET = 'test/remote/remote-dataset.json';
const KEY = 'pk_guild';
const ADMIN = 'sk_remote_admin';

/** @param {number} port */
function client(port) {
  /**
   * @param {string} method
   * @param {string} path
   * @param {{ key?: string, body?: unknown, headers?: Record<string, string> }} [options]
   */
  return async (method, path, { key = KEY, body, headers = {} } = {}) => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };
}

/** @typedef {ReturnType<typeof client>} Call */
/** @import { RunningServer } from './reference-server.js' */
/** @import { LeaderboardEntry } from '../../src/api/responses.js' */

/** @param {Call} call */
const exportOf = async (call) => (await call('GET', '/v1/admin/export?app_id=guild', { key: ADMIN })).body;
/** @param {Call} call */
const balanceOf = async (call) => (await exportOf(call)).apps[0].treasury.balance;
/**
 * @param {Call} call
 * @param {Record<string, string>} [headers]
 */
const pay = (call, headers = {}) =>
  call('POST', '/v1/airdrop_token_ledger', { body: { to_address: '0.0.2002', quantity: 1 }, headers });

describe('two server processes on one PostgreSQL database', () => {
  /** @type {Awaited<ReturnType<typeof createDatabase>> | undefined} */
  let database;
  /** @type {RunningServer[]} */
  let servers = [];
  before(async () => {
    if (!(await postgresAnswers())) return;
    database = await createDatabase('questboard_shared');
    // The first loads the dataset (its own admin key bootstraps the empty database); the second finds it there.
    servers.push(await startServer(['--database-url', database.url, '--data', DATASET, '--allow-bootstrap']));
    servers.push(await startServer(['--database-url', database.url]));
  });
  after(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await database?.drop();
  });

  it('pays exactly the treasury: 40 parallel one-coin transfers split across both against a balance of 10', async (t) => {
    if (!(await postgresOrSkip(t))) return;
    const calls = servers.map((server) => client(server.port));
    const answers = await Promise.all(Array.from({ length: 40 }, (_, index) => pay(calls[index % 2])));
    const paid = answers.filter((answer) => answer.status === 200);
    assert.equal(paid.length, 10, JSON.stringify(answers.map((answer) => answer.status)));
    for (const answer of answers.filter((answer) => answer.status !== 200)) {
      assert.equal(answer.status, 400);
      assert.match(answer.body.message, /InsufficientPayerBalance/);
    }
    assert.equal(await balanceOf(calls[0]), '0');
    assert.equal(await balanceOf(calls[1]), '0');
  });

  it('answers one Idempotency-Key sent to both processes at once with one payment', async (t) => {
    if (!(await postgresOrSkip(t))) return;
    const calls = servers.map((server) => client(server.port));
    const admin = (/** @type {Call} */ call) => (/** @type {string} */ path, /** @type {unknown} */ body) =>
      call('POST', path, { key: ADMIN, body });
    // Refill the treasury through a merge import of the app's settings.
    const refill = await admin(calls[0])('/v1/admin/import?mode=merge', {
      apps: [{ app_id: 'guild', name: 'Builders Guild (remote)', treasury: { account_id: '0.0.1001', balance: '5' } }],
    });
    assert.equal(refill.status, 200, JSON.stringify(refill.body));
    const before = BigInt(await balanceOf(calls[0]));
    const headers = { 'idempotency-key': 'shared-key-1' };
    const answers = await Promise.all([
      pay(calls[0], headers),
      pay(calls[1], headers),
      pay(calls[0], headers),
      pay(calls[1], headers),
    ]);
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [200, 200, 200, 200],
    );
    assert.equal(new Set(answers.map((answer) => answer.body.tx_id)).size, 1, 'every answer is the first answer');
    assert.equal(BigInt(await balanceOf(calls[1])), before - 1n);
  });
});

/**
 * Endorsements alice → bob with fresh ids, `parallel` at a time, until `stop()` or `count` are sent.
 * @param {Call} call
 * @param {{ count: number, parallel?: number, prefix: string }} options
 */
function endorseBurst(call, { count, parallel = 8, prefix }) {
  /** @type {string[]} */
  const answered = [];
  let next = 0;
  let stopped = false;
  const worker = async () => {
    while (!stopped && next < count) {
      const endorsement_id = `${prefix}-${next++}`;
      try {
        const answer = await call('POST', '/v1/endorse_account', {
          body: { app_id: 'guild', from_account: 'alice', to_account: 'bob', endorsement_id },
        });
        if (answer.status === 200) answered.push(endorsement_id);
        else assert.fail(`${endorsement_id}: ${answer.status} ${JSON.stringify(answer.body)}`);
      } catch (error) {
        if (!stopped) throw error;
      }
    }
  };
  const done = Promise.all(Array.from({ length: parallel }, worker));
  return { answered, done, stop: () => (stopped = true) };
}

for (const engine of ['pglite', 'postgres']) {
  describe(`a crash of the server on ${engine} loses no answered write`, () => {
    /** @type {string[]} */
    let storage;
    let cleanup = async () => {};
    before(async () => {
      if (engine === 'pglite') {
        const dataDir = await mkdtemp(join(tmpdir(), 'questboard-crash-'));
        storage = ['--data-dir', dataDir];
        cleanup = () => rm(dataDir, { recursive: true, force: true });
      } else if (await postgresAnswers()) {
        const database = await createDatabase('questboard_crash');
        storage = ['--database-url', database.url];
        cleanup = () => database.drop();
      }
    });
    after(() => cleanup());

    it('keeps every write answered 200, none half-applied, and the export taken before the kill', async (t) => {
      if (engine === 'postgres' && !(await postgresOrSkip(t))) return;
      let server = await startServer([...storage, '--data', DATASET, '--allow-bootstrap']);
      try {
        let call = client(server.port);
        const settled = endorseBurst(call, { count: 30, prefix: 'settled' });
        await settled.done;
        const before = await exportOf(call);
        await server.crash();
        server = await startServer(storage);
        call = client(server.port);
        assert.deepEqual(await exportOf(call), before);

        // Killed in the middle of a burst: what was answered is there.
        const burst = endorseBurst(call, { count: 400, prefix: 'burst' });
        while (burst.answered.length < 40) await new Promise((resolve) => setTimeout(resolve, 5));
        burst.stop();
        await server.crash();
        await burst.done;
        server = await startServer(storage);
        call = client(server.port);
        const after = await exportOf(call);
        const kept = new Set(after.apps[0].endorsements.map((/** @type {{ endorsement_id: string }} */ e) => e.endorsement_id));
        for (const id of [...settled.answered, ...burst.answered]) assert.ok(kept.has(id), `${id} was answered 200 but is gone`);
        // Whole writes only: bob's XP is what the endorsements kept give him.
        const board = (await call('GET', '/v1/get_leaderboard?app_id=guild&leaderboard_type=xp')).body;
        const bob = board.leaderboard_users.find(
          (/** @type {LeaderboardEntry} */ entry) => entry.external_user.username === 'bob',
        );
        const toBob = after.apps[0].endorsements.filter(
          (/** @type {{ to_account: string }} */ e) => e.to_account === 'bob',
        ).length;
        assert.equal(bob.total_xp, toBob * after.apps[0].settings.endorsement_xp);
      } finally {
        await server.stop();
      }
    });
  });
}

describe('live updates across server processes on one PostgreSQL database', () => {
  // The follower reaches the database through its Unix socket, as libpq names one, and listens there.
  it('streams a write made through one process to a page following another', async (t) => {
    if (!(await postgresOrSkip(t))) return;
    const database = await createDatabase('questboard_events');
    const { directory, port } = await socketOf(database.url);
    const { username, pathname } = new URL(database.url);
    const servers = [];
    try {
      servers.push(await startServer(['--database-url', database.url, '--data', DATASET, '--allow-bootstrap']));
      servers.push(
        await startServer(['--database-url', `postgres://${username}@${encodeURIComponent(directory)}:${port}${pathname}`]),
      );
      const [writer, follower] = servers.map((server) => client(server.port));
      const stream = await fetch(`http://127.0.0.1:${servers[1].port}/v1/events?app_id=guild`, {
        headers: { authorization: `Bearer ${KEY}` },
      });
      assert.equal(stream.status, 200);
      const reader = /** @type {ReadableStream} */ (stream.body).pipeThrough(new TextDecoderStream()).getReader();
      let text = '';
      const endorsed = await writer('POST', '/v1/endorse_account', {
        body: { app_id: 'guild', from_account: 'carol', to_account: 'bob', endorsement_id: 'live-1' },
      });
      assert.equal(endorsed.status, 200);
      const deadline = Date.now() + 10_000;
      while (!text.includes('event: change') && Date.now() < deadline) text += (await reader.read()).value ?? '';
      await reader.cancel();
      const data = /event: change\ndata: (.*)\n/.exec(text);
      assert.ok(data, `no change event in ${JSON.stringify(text)}`);
      const notice = JSON.parse(data[1]);
      assert.equal(notice.app_id, 'guild');
      assert.deepEqual(notice.account_names, ['bob']);
      assert.equal((await follower('GET', '/v1/get_userinfo?app_id=guild&account_name=bob')).status, 200);
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
      await database.drop();
    }
  });
});
