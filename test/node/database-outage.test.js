// A PostgreSQL server that goes away while the Questboard server runs: requests
// answer 503 with the API's JSON error, the server keeps running, and it serves
// again once the database is back. The outage is a TCP proxy between the two,
// closed and opened again.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, connect } from 'node:net';
import { once } from 'node:events';
import { createDatabase, postgresAnswers } from '../../scripts/postgres.js';
import { skipWithoutPostgres } from '../postgres-or-skip.js';
import { startServer } from './reference-server.js';

let database;
let server;
let proxy;

/** Forwards every connection to PostgreSQL until closed; `open` again on the same port. */
function databaseProxy(target) {
  let listener = null;
  const sockets = new Set();
  const track = (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  return {
    port: 0,
    async open() {
      listener = createServer((client) => {
        const upstream = connect(Number(target.port), target.hostname);
        track(client);
        track(upstream);
        client.pipe(upstream).pipe(client);
      });
      listener.listen(this.port, '127.0.0.1');
      await once(listener, 'listening');
      this.port = listener.address().port;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => listener.close(resolve));
    },
  };
}

before(async () => {
  if (!(await postgresAnswers())) return;
  database = await createDatabase('questboard_outage');
  proxy = databaseProxy(new URL(database.url));
  await proxy.open();
  const url = new URL(database.url);
  url.host = `127.0.0.1:${proxy.port}`;
  server = await startServer(['--database-url', url.href, '--data', 'test/remote/remote-dataset.json', '--allow-bootstrap']);
});

after(async () => {
  await server?.stop();
  await proxy?.close().catch(() => {});
  await database?.drop();
});

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

  await proxy.close();
  for (const answer of [await board(), await get('/v1/health'), await board()]) {
    assert.equal(answer.status, 503, JSON.stringify(answer.body));
    assert.equal(answer.body.is_valid, false);
    assert.match(answer.body.message, /database does not answer/);
  }

  await proxy.open();
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
