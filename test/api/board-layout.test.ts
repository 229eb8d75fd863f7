// The IndexedDB store's boards as it keeps them (docs/storage.md) hold together after imports and
// live writes (board-faults.ts says how they may not).
import { expect } from '@open-wc/testing';
import { seededRandom as random } from '../../bench/seeded-random.js';
import { layoutFaults } from './board-faults.js';
import { GUIDS, WEDNESDAY, checkInApp, iso, itOnIndexedDb, localApi } from './support.js';

const MEMBERS = 300;

describe('IndexedDB board layout', () => {
  itOnIndexedDb('keeps every group counted by its runs, and every run holding its rows in order', async function () {
    this.timeout(60_000);
    const api = localApi({ now: WEDNESDAY });
    try {
      const next = random(11);
      const names = Array.from({ length: MEMBERS }, (_, i) => `member-${String(i).padStart(3, '0')}`);
      const progress = names.flatMap((account_name) =>
        Array.from({ length: next() < 0.5 ? 0 : 1 + Math.floor(next() * 3) }, () => ({
          task_id: GUIDS.checkIn,
          account_name,
          quantity: 1,
          at: iso(WEDNESDAY - Math.floor(next() * 30) * 86_400_000),
        })),
      );
      const imported = await api.call('POST', '/v1/admin/import', {
        body: { admin_keys: ['sk_admin'], apps: [{ ...checkInApp('layout', names), progress }] },
      });
      expect(imported.status, imported.text).to.equal(200);
      expect(await layoutFaults(api.name)).to.deep.equal([]);

      // Live writes a member at a time: joins pile into the group of 0 until its runs split, and
      // check-ins move members between groups on every board.
      for (let i = 0; i < 120; i++) {
        api.clock.now += 1000;
        const account_name = i % 3 ? names[Math.floor(next() * MEMBERS)]! : `late-${String(i).padStart(3, '0')}`;
        const answer =
          i % 3
            ? await api.call('POST', '/v1/admin/log_task', { body: { task_id: GUIDS.checkIn, account_name, quantity: 1 } })
            : await api.call('POST', '/v1/connect_social', { body: { app_id: 'layout', account_name, twitter_name: 'x' } });
        expect(answer.status, answer.text).to.equal(200);
      }
      // A merge import's chunk: many changes in one group at once.
      const merged = await api.call('POST', '/v1/admin/import?mode=merge', {
        body: {
          apps: [
            {
              app_id: 'layout',
              users: Array.from({ length: 40 }, (_, i) => ({ account_name: `merged-${i}`, joined_at: iso(WEDNESDAY) })),
              progress: names
                .slice(0, 40)
                .map((account_name) => ({ task_id: GUIDS.checkIn, account_name, quantity: 1, at: iso(api.clock.now) })),
            },
          ],
        },
      });
      expect(merged.status, merged.text).to.equal(200);
      expect(await layoutFaults(api.name)).to.deep.equal([]);
    } finally {
      await api.close();
    }
  });

  // An import that replaces an app deletes its boards behind the pages kept of them (kept-boards.ts).
  itOnIndexedDb('lays an app out afresh when an import replaces it after writes', async function () {
    this.timeout(60_000);
    const api = localApi({ now: WEDNESDAY });
    try {
      const names = Array.from({ length: MEMBERS }, (_, i) => `member-${String(i).padStart(3, '0')}`);
      const app = (members: string[]) => ({ admin_keys: ['sk_admin'], apps: [checkInApp('again', members)] });
      expect((await api.call('POST', '/v1/admin/import', { body: app(names) })).status).to.equal(200);
      for (const account_name of names.slice(0, 10)) {
        api.clock.now += 1000;
        const answer = await api.call('POST', '/v1/admin/log_task', {
          body: { task_id: GUIDS.checkIn, account_name, quantity: 1 },
        });
        expect(answer.status, answer.text).to.equal(200);
      }
      // Fewer members, and none of them with points.
      const replaced = await api.call('POST', '/v1/admin/import?mode=replace', { body: app(names.slice(100)) });
      expect(replaced.status, replaced.text).to.equal(200);
      api.clock.now += 1000;
      const logged = await api.call('POST', '/v1/admin/log_task', {
        body: { task_id: GUIDS.checkIn, account_name: names[150], quantity: 1 },
      });
      expect(logged.status, logged.text).to.equal(200);
      expect(await layoutFaults(api.name)).to.deep.equal([]);
      const board = await api.call('GET', '/v1/get_leaderboard?app_id=again&limit=1000');
      expect(board.body.total_users).to.equal(MEMBERS - 100);
      expect(board.body.leaderboard_users[0].external_user.username).to.equal(names[150]);
    } finally {
      await api.close();
    }
  });

  // Each connection keeps the pages of the boards it wrote, trusted while the database's boards
  // generation is the one it kept them at (kept-boards.ts): two connections are two contexts (a
  // tab's handler beside the worker), each writing pages the other keeps.
  itOnIndexedDb('keeps its boards whole when two connections write them in turn', async function () {
    this.timeout(60_000);
    const first = localApi({ now: WEDNESDAY });
    const second = localApi(first.clock, { database: first.name });
    try {
      const next = random(23);
      const names = Array.from({ length: MEMBERS }, (_, i) => `member-${String(i).padStart(3, '0')}`);
      const imported = await first.call('POST', '/v1/admin/import', {
        body: { admin_keys: ['sk_admin'], apps: [checkInApp('turns', names)] },
      });
      expect(imported.status, imported.text).to.equal(200);
      const board = async (api: typeof first) => {
        const answer = await api.call('GET', '/v1/get_leaderboard?app_id=turns&limit=1000');
        expect(answer.status, answer.text).to.equal(200);
        return answer.body;
      };
      // Runs of writes by one connection, then the other: each keeps the boards it wrote, which
      // the other's writes change (members leave the group of 0, whose runs span two pages' worth).
      for (let turn = 0; turn < 12; turn++) {
        const api = turn % 2 ? second : first;
        for (let i = 0; i < 5; i++) {
          first.clock.now += 1000;
          const account_name = names[Math.floor(next() * MEMBERS)]!;
          const answer = await api.call('POST', '/v1/admin/log_task', {
            body: { task_id: GUIDS.checkIn, account_name, quantity: 1 },
          });
          expect(answer.status, answer.text).to.equal(200);
        }
        expect(await layoutFaults(first.name), `turn ${turn}`).to.deep.equal([]);
      }
      const fresh = localApi(first.clock, { database: first.name });
      try {
        const expected = await board(fresh);
        expect(await board(first)).to.deep.equal(expected);
        expect(await board(second)).to.deep.equal(expected);
      } finally {
        await fresh.close();
      }
    } finally {
      await second.close();
      await first.close();
    }
  });
});
