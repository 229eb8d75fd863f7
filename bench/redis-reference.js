// A reference for the leaderboard reads: the same members in a Redis sorted
// set, read through ioredis (ZREVRANGE for a page, ZREVRANK + ZREVRANGE for
// the page around a member). Only where redis-server answers on
// 127.0.0.1:6379 (ioredis is a development dependency; the bench runs from a
// checkout); otherwise it says why it was skipped. Redis breaks ties by member
// name, not by who reached the score first, so pages match in size and depth,
// not member for member.
import { connect } from 'node:net';
import Redis from 'ioredis';
import postgres from 'postgres';
import { DEEP_FRACTION } from './operations.js';
import { median, percentile } from './report.js';

const HOST = '127.0.0.1';
const PORT = 6379;
const AROUND = 25;

function redisAnswers() {
  return new Promise((resolve) => {
    const socket = connect({ host: HOST, port: PORT });
    const done = (answer) => (socket.destroy(), resolve(answer));
    socket.setTimeout(2000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

/** @returns {Promise<{ skipped: string } | { members: number, rows: { name, median, p95 }[] }>} */
export async function redisReference({ databaseUrl, app, deepMember, rounds }) {
  if (!(await redisAnswers())) return { skipped: `redis-server does not answer at ${HOST}:${PORT}` };
  if (databaseUrl === null) return { skipped: 'the members are not in PostgreSQL' };
  const redis = new Redis({ host: HOST, port: PORT, maxRetriesPerRequest: 1 });
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => undefined });
  const key = `questboard-bench:${app.appId}:${process.pid}`;
  try {
    await redis.del(key);
    // The members with the scores the server derived for them.
    await sql`SELECT account_name, total_score FROM users WHERE app_id = ${app.appId}`.cursor(10_000, async (rows) => {
      const pipeline = redis.pipeline();
      for (const { account_name, total_score } of rows) pipeline.zadd(key, total_score, account_name);
      await pipeline.exec();
    });
    const members = await redis.zcard(key);
    const deep = Math.floor(members * DEEP_FRACTION);
    const reads = {
      'ZREVRANGE first page (100)': () => redis.zrevrange(key, 0, 99, 'WITHSCORES'),
      'ZREVRANGE page at 90% (100)': () => redis.zrevrange(key, deep, deep + 99, 'WITHSCORES'),
      'ZREVRANK + ZREVRANGE around 90% (25)': async () => {
        const rank = await redis.zrevrank(key, deepMember);
        const start = Math.max(0, rank - Math.floor((AROUND - 1) / 2));
        return redis.zrevrange(key, start, start + AROUND - 1, 'WITHSCORES');
      },
    };
    const samples = Object.fromEntries(Object.keys(reads).map((name) => [name, []]));
    for (let round = 0; round < rounds + 10; round++) {
      for (const [name, read] of Object.entries(reads)) {
        const started = performance.now();
        await read();
        if (round >= 10) samples[name].push(performance.now() - started);
      }
    }
    const rows = Object.entries(samples).map(([name, values]) => {
      const sorted = values.sort((a, b) => a - b);
      return { name, median: median(sorted), p95: percentile(sorted, 0.95) };
    });
    return { members, rows };
  } finally {
    await redis.del(key).catch(() => undefined);
    redis.disconnect();
    await sql.end();
  }
}
