// Whether sharing identical reads (src/server/shared-reads.ts) pays: the handler on PostgreSQL,
// in this process (no HTTP), called by CALLERS loops at once for SECONDS, with and without
// sharing, three rounds each, alternated; the median rounds are printed. Two loads: one
// leaderboard page asked for by everyone (a community page opened by many members at once), and
// every member's own info (reads that never share: what sharing costs them).
// node bench/shared-reads.js (USERS, CALLERS, SECONDS from the environment; QB_DATABASE_URL).
import { bundleForNode } from '../scripts/bundle-node.js';
import { createDatabase } from '../scripts/postgres.js';

const USERS = Number(process.env.USERS ?? 5000);
const CALLERS = Number(process.env.CALLERS ?? 64);
const SECONDS = Number(process.env.SECONDS ?? 5);
const ROUNDS = 3;

const loads = {
  'one leaderboard page, asked for by all': () => '/v1/get_leaderboard?app_id=guild&limit=20',
  "each member's info, never shared": (call) => `/v1/get_userinfo?app_id=guild&account_name=m${call % USERS}`,
};

const bundle = await bundleForNode('src/server/shared-reads.ts', 'src/handler/handler.ts', 'src/store/sql/index.ts');
const database = await createDatabase('questboard_shared_reads_bench');
try {
  const source = await import(bundle.file);
  const store = await source.openSqlStore({ databaseUrl: database.url });
  try {
    const plain = source.createHandler({ store, allowBootstrap: true });
    const dataset = {
      admin_keys: ['sk_bench'],
      apps: [
        {
          app_id: 'guild',
          name: 'Guild',
          api_keys: [{ key: 'pk_guild', scopes: ['read'] }],
          settings: { rate_limits: { per_key: null, per_ip: null } },
          users: Array.from({ length: USERS }, (_, index) => ({ account_name: `m${index}` })),
        },
      ],
    };
    const imported = await plain(
      new Request('http://q.test/v1/admin/import', {
        method: 'POST',
        headers: { authorization: 'Bearer sk_bench', 'content-type': 'application/json' },
        body: JSON.stringify(dataset),
      }),
    );
    if (imported.status !== 200) throw new Error(`the import failed: ${await imported.text()}`);
    const shared = source.sharingReads(plain);

    /** Requests a second answered by `handle` for the load's paths. */
    const rate = async (handle, pathOf) => {
      let answered = 0;
      let call = 0;
      const end = performance.now() + SECONDS * 1000;
      const caller = async () => {
        while (performance.now() < end) {
          const request = new Request(`http://q.test${pathOf(call++)}`, { headers: { authorization: 'Bearer pk_guild' } });
          const response = await handle(request);
          if (response.status !== 200) throw new Error(`${response.status}: ${await response.text()}`);
          await response.arrayBuffer();
          answered += 1;
        }
      };
      await Promise.all(Array.from({ length: CALLERS }, caller));
      return answered / SECONDS;
    };
    const median = (rates) => Math.round(rates.toSorted((a, b) => a - b)[Math.floor(rates.length / 2)]);

    console.log(`${USERS} members, ${CALLERS} callers, ${SECONDS} s a round, ${ROUNDS} rounds each`);
    for (const [load, pathOf] of Object.entries(loads)) {
      await rate(plain, pathOf); // warms the plans and the cache
      const rates = { shared: [], alone: [] };
      for (let round = 0; round < ROUNDS; round++) {
        rates.shared.push(await rate(shared, pathOf));
        rates.alone.push(await rate(plain, pathOf));
      }
      console.log(`${load}: shared ${median(rates.shared)}/s, not shared ${median(rates.alone)}/s`);
    }
  } finally {
    await store.close();
  }
} finally {
  await database.drop();
  await bundle.remove();
}
