// A PostgreSQL server that goes away while the Questboard server runs: requests
// answer 503 with the API's JSON error, the server keeps running, and it serves
// again once the database is back. The outage is a proxy between the two,
// closed and opened again: on TCP, and on a Unix socket (the server then finds
// no socket file at all, as when PostgreSQL stops).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, connect } from 'node:net';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase, postgresAnswers } from '../../scripts/postgres.js';
import { skipWithoutPostgres } from '../postgres-or-skip.js';
import { startServer } from './reference-server.js';

/** @import { Socket } from 'node:net' */
/** @import { RunningServer } from './reference-server.js' */
/** @typedef {Awaited<ReturnType<typeof createDatabase>>} Database */

/**
 * Forwards every connection to PostgreSQL until closed; `open` again at the same place:
 * `where` is a TCP port on 127.0.0.1 (0: any free one), or a socket file's path.
 * @param {URL} target
 * @param {number | string} where
 */
function databaseProxy(target, where) {
  /** @type {import('node:net').Server | null} */
  let listener = null;
  /** @type {Set<Socket>} */
  const sockets = new Set();
  /** @param {Socket} socket */
  const track = (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  return {
    where,
    async open() {
      listener = createServer((client) => {
        const upstream = connect(Number(target.port), target.hostname);
        track(client);
        track(upstream);
        client.pipe(upstream).pipe(client);
      });
      if (typeof this.where === 'string') listener.listen(this.where);
      else listener.listen(this.where, '127.0.0.1');
      await once(listener, 'listening');
      if (typeof this.where === 'number') this.where = /** @type {import('node:net').AddressInfo} */ (listener.address()).port;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => /** @type {import('node:net').Server} */ (listener).close(resolve));
    },
  };
}

/** The proxy, and the database's URL through it. */
const transports = {
  /** @param {Database} database */
  async tcp(database) {
    const proxy = databaseProxy(new URL(database.url), 0);
    await proxy.open();
    const url = new URL(database.url);
    url.host = `127.0.0.1:${proxy.where}`;
    return { proxy, url: url.href, cleanUp: async () => {} };
  },
  // The socket file of a port as PostgreSQL names it, in a directory of the test's own.
  /** @param {Database} database */
  async 'Unix socket'(database) {
    const directory = await mkdtemp(join(tmpdir(), 'questboard-outage-'));
    const proxy = databaseProxy(new URL(database.url), join(directory, '.s.PGSQL.5432'));
    await proxy.open();
    const { username, pathname } = new URL(database.url);
    const url = `postgres://${username}@${encodeURIComponent(directory)}:5432${pathname}`;
    return { proxy, url, cleanUp: () => rm(directory, { recursive: true, force: true }) };
  },
};

for (const [transport, through] of Object.entries(transports)) {
  describe(`a database gone on ${transport}`, () => {
    /** @type {Database | undefined} */
    let database;
    /** @type {RunningServer} */
    let server;
    /** Set with the database: the tests run only where it is. @type {Awaited<ReturnType<typeof through>>} */
    let route;

    before(async () => {
      if (!(await postgresAnswers())) return;
      database = await createDatabase('questboard_outage');
      route = await through(database);
      server = await startServer(['--database-url', route.url, '--data', 'test/remote/remote-dataset.json', '--allow-bootstrap']);
    });

    after(async () => {
      await server?.stop();
      await route?.proxy.close().catch(() => {});
      await route?.cleanUp();
      await database?.drop();
    });

    /** @param {string} path */
    const get = async (path) => {
      const response = await fetch(`http://127.0.0.1:${server.port}${path}`, { headers: { authorization: 'Bearer pk_guild' } });
      return { status: response.status, body: await response.json() };
    };
    const board = () => get('/v1/get_leaderboard?app_id=guild');

    it('answers 503 while the database is gone, keeps running, and serves again once it is back', async (t) => {
      if (!database) {
        skipWithoutPostgres(t);
        return;
      }
      assert.equal((await board()).status, 200);

      await route.proxy.close();
      for (const answer of [await board(), await get('/v1/health'), await board()]) {
        assert.equal(answer.status, 503, JSON.stringify(answer.body));
        assert.equal(answer.body.is_valid, false);
        assert.match(answer.body.message, /database does not answer/);
      }

      await route.proxy.open();
      const deadline = Date.now() + 15_000;
      let answer = await board();
      while (answer.status !== 200 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        answer = await board();
      }
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.total_users, 3);
      assert.equal((await get('/v1/health')).status, 200);
    });
  });
}
