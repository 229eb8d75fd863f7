// PostgreSQL itself failing under a loaded Questboard server: stopped, killed
// (an immediate stop, as a crash), frozen (SIGSTOP: connections stay open and
// nothing answers). While the database is known down, every request is answered
// 503 with the API's JSON error before a 2 s deadline, health saying why; once
// it is back, the server notices by itself and every read URL answers 200 (no
// restart). A cluster of the test's own (own-postgres.js), removed in after().
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ownCluster, postgresPrograms } from './own-postgres.js';
import { startServer, WAIT_MS } from './reference-server.js';

/** @import { RunningServer } from './reference-server.js' */

const ADMIN_KEY = 'sk_database_faults_admin';
const CHALLENGE = '6f1d2c3b-4a59-4e68-9d7c-8b0a1f2e3d4c';
const TASK = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const DATASET = {
  apps: [
    {
      app_id: 'guild',
      name: 'Builders Guild',
      api_keys: [{ key: 'pk_guild', scopes: ['read', 'write'] }],
      settings: { rate_limits: { per_key: null, per_ip: null } },
      users: [{ account_name: 'alice' }, { account_name: 'bob' }, { account_name: 'carol' }],
      challenges: [
        {
          challenge_id: CHALLENGE,
          name: 'Build',
          points: 10,
          tasks: [{ task_id: TASK, name: 'Brick', quantity: 3, operator: 0 }],
        },
      ],
    },
  ],
};

/** Every read URL of the API (the event stream's answer is its head: it never ends). */
const READ_URLS = [
  '/v1/health',
  `/v1/get_challenge?challenge_id=${CHALLENGE}`,
  '/v1/get_userinfo?app_id=guild&account_name=alice',
  `/v1/get_task_progress?task_id=${TASK}&account_name=bob`,
  '/v1/get_leaderboard?app_id=guild',
  ...['score', 'xp', 'weekly', 'monthly'].flatMap((type) => [
    `/v1/get_leaderboard?app_id=guild&leaderboard_type=${type}`,
    `/v1/get_leaderboard?app_id=guild&leaderboard_type=${type}&limit=6&offset=1`,
    `/v1/get_leaderboard?app_id=guild&leaderboard_type=${type}&limit=2&around=bob`,
  ]),
  '/v1/get_leaderboard?app_id=guild&widget_response=html&limit=6&offset=1',
  '/v1/admin/export?app_id=guild',
  '/v1/events?app_id=guild',
];
/** Within this, a request to a server that knows the database down is answered (an upper bound, not a measurement). */
const DOWN_ANSWER_MS = 2_000;
/** Health polls (100 ms apart) the outage lasts once the server knows it. */
const OUTAGE_POLLS = 40;
/**
 * Writes, a second apart, after the database is back before one's change must have reached an
 * event stream: a bound, not a measurement. 10 was once too few on a loaded machine (stop 46).
 */
const CHANGE_TRIES = 30;
/** Health polls (100 ms apart) before the server must have noticed the database's state. */
const POLLS = 300;

const programs = await postgresPrograms();

describe(
  'a database that stops, crashes or freezes under load',
  { skip: !programs && !process.env.CI && 'SKIPPED: no PostgreSQL programs (initdb) installed' },
  () => {
    /** @type {Awaited<ReturnType<typeof ownCluster>>} */
    let cluster;
    /** @type {RunningServer} */
    let server;

    before(async () => {
      if (!programs) assert.fail('no PostgreSQL programs (/usr/lib/postgresql/*/bin/initdb), and CI never skips these tests');
      cluster = await ownCluster(programs);
      server = await startServer(['--database-url', cluster.url], { env: { QUESTBOARD_ADMIN_KEYS: ADMIN_KEY } });
      const imported = await fetch(`http://127.0.0.1:${server.port}/v1/admin/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(DATASET),
      });
      assert.equal(imported.status, 200, await imported.text());
    });

    after(async () => {
      await server?.stop();
      await cluster?.remove();
    });

    /**
     * The answer to GET `path` (with the admin key under /v1/admin/), its body read (an event
     * stream's only its head), or a rejection past `deadlineMs`. Its body is JSON, text, or null
     * for a stream (`any`: the tests read the JSON error the status says is there).
     * @param {string} path
     * @returns {Promise<{ status: number, body: any }>}
     */
    const get = async (path, deadlineMs = WAIT_MS) => {
      const signal = AbortSignal.timeout(deadlineMs);
      try {
        const response = await fetch(`http://127.0.0.1:${server.port}${path}`, {
          headers: { authorization: `Bearer ${path.startsWith('/v1/admin/') ? ADMIN_KEY : 'pk_guild'}` },
          signal,
        });
        if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
          await /** @type {ReadableStream} */ (response.body).cancel();
          return { status: response.status, body: null };
        }
        const text = await response.text();
        return {
          status: response.status,
          body: response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text,
        };
      } catch (error) {
        // A timeout's DOMException reaches the test runner as `{}`: said here, with the URL.
        if (signal.aborted) assert.fail(`GET ${path} was not answered within ${deadlineMs} ms`);
        throw error;
      }
    };

    /**
     * Health, polled until `until(answer)`; fails after POLLS polls.
     * @param {(answer: Awaited<ReturnType<typeof get>>) => boolean} until
     * @param {string} what
     */
    const pollHealth = async (until, what) => {
      let answer;
      for (let poll = 0; poll < POLLS; poll++) {
        answer = await get('/v1/health');
        if (until(answer)) return answer;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.fail(`health never said ${what}: ${JSON.stringify(answer)}`);
    };

    /** Reads and writes from 8 clients until stopped; what they are answered does not matter here. */
    const load = () => {
      let running = true;
      /** @param {number} index */
      const client = async (index) => {
        for (let round = index; running; round++) {
          const path = READ_URLS[round % (READ_URLS.length - 1)];
          await get(path).catch(() => {});
        }
      };
      const clients = Array.from({ length: 8 }, (_, index) => client(index));
      return async () => {
        running = false;
        await Promise.all(clients);
      };
    };

    /**
     * A write's change reaches an event stream: the change feed listens again (its connection was
     * lost with the database, or sat frozen with it). Written again until it arrives, as the feed
     * may still be listening anew: at most CHANGE_TRIES times.
     */
    const changesArrive = async () => {
      // Bounds the stream's head only: its body is read for longer, each wait bounded below.
      const headDeadline = new AbortController();
      const headTimer = setTimeout(
        () => headDeadline.abort(new Error(`the event stream's head took over ${WAIT_MS} ms`)),
        WAIT_MS,
      );
      const response = await fetch(`http://127.0.0.1:${server.port}/v1/events?app_id=guild`, {
        headers: { authorization: 'Bearer pk_guild' },
        signal: headDeadline.signal,
      }).finally(() => clearTimeout(headTimer));
      const reader = /** @type {ReadableStream} */ (response.body).pipeThrough(new TextDecoderStream()).getReader();
      let received = '';
      /**
       * Reads until the stream has said `text`: false once `ms` pass first.
       * @param {string} text
       * @param {number} ms
       */
      const said = async (text, ms) => {
        /** @type {NodeJS.Timeout | undefined} */
        let timer;
        /** @type {Promise<false>} */
        const timeout = new Promise((resolve) => (timer = setTimeout(resolve, ms, false)));
        try {
          while (!received.includes(text)) {
            const chunk = await Promise.race([reader.read(), timeout]);
            if (chunk === false) return false;
            received += chunk.value ?? '';
          }
          return true;
        } finally {
          clearTimeout(timer);
        }
      };
      try {
        assert.ok(await said('id: ', WAIT_MS), 'the stream opened');
        for (let attempt = 1; attempt <= CHANGE_TRIES; attempt++) {
          const writeDeadline = AbortSignal.timeout(WAIT_MS);
          const written = await fetch(`http://127.0.0.1:${server.port}/v1/connect_social`, {
            method: 'POST',
            headers: { authorization: 'Bearer pk_guild', 'content-type': 'application/json' },
            body: JSON.stringify({ app_id: 'guild', account_name: 'carol', twitter_name: `carol_${attempt}` }),
            signal: writeDeadline,
          }).catch((error) => {
            if (writeDeadline.aborted) assert.fail(`write ${attempt} was not answered within ${WAIT_MS} ms`);
            throw error;
          });
          assert.equal(written.status, 200, await written.text());
          if (await said('event: change', 1_000)) return;
        }
        const feed = server.log.filter(({ msg }) => /change feed/.test(msg)).map(({ time, msg }) => `${time} ${msg}`);
        assert.fail(`no change reached the event stream after ${CHANGE_TRIES} writes: ${received}\n${feed.join('\n')}`);
      } finally {
        await reader.cancel();
      }
    };

    const faults = {
      'stopped (fast shutdown)': { fail: () => cluster.stop('fast'), recover: () => cluster.start() },
      'killed (immediate shutdown, as a crash)': { fail: () => cluster.stop('immediate'), recover: () => cluster.start() },
      'frozen (SIGSTOP)': { fail: () => cluster.freeze(), recover: () => cluster.thaw() },
    };

    for (const [fault, { fail, recover }] of Object.entries(faults)) {
      it(`answers 503 at once while it is ${fault}, and every read URL again once it is back`, async () => {
        for (const path of READ_URLS) assert.equal((await get(path)).status, 200, `${path} before the fault`);
        const stopLoad = load();
        try {
          await fail();
          const down = await pollHealth(({ status, body }) => status === 503 && /since/.test(body.message), 'the database down');
          assert.equal(down.body.is_valid, false);
          assert.match(down.body.message, /^The database does not answer since [\d-]+T[\d:.]+Z \(.+\); try again shortly\.$/);

          for (const path of READ_URLS) {
            const answer = await get(path, DOWN_ANSWER_MS);
            assert.equal(answer.status, 503, `${path} while down: ${JSON.stringify(answer.body)}`);
            assert.equal(answer.body.is_valid, false, path);
            assert.match(answer.body.message, /database does not answer/, path);
          }
          // An outage of some seconds, as when a database restarts: past the change feed's first
          // try to listen again. Health stays a 503 within the deadline all along.
          for (let poll = 0; poll < OUTAGE_POLLS; poll++) {
            assert.equal((await get('/v1/health', DOWN_ANSWER_MS)).status, 503);
            await new Promise((resolve) => setTimeout(resolve, 100));
          }

          await recover();
          await pollHealth(({ status }) => status === 200, 'the database back');
        } finally {
          await stopLoad();
        }
        for (const path of READ_URLS) {
          const answer = await get(path);
          assert.equal(answer.status, 200, `${path} after the fault: ${JSON.stringify(answer.body)}`);
        }
        await changesArrive();
      });
    }
  },
);
