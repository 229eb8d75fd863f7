import { expect } from '@open-wc/testing';
import { deleteDB } from 'idb';
import { QuestboardClient } from '../../src/client/client.js';
import { announceChange, changeAffects, subscribeToChanges, type ChangeNotice } from '../../src/client/changes.js';
import { inPageTransport } from '../../src/client/local-in-page-transport.js';
import { QuestboardError } from '../../src/client/questboard-error.js';
import type { Transport } from '../../src/client/transport.js';
import {
  ADMIN_KEY,
  API_KEY,
  APP_ID,
  CHALLENGE_ID,
  FUTURE_CHALLENGE_ID,
  POST_TASK_ID,
  guildDataset,
} from '../components/support.js';

const DB_NAME = `qb-client-${crypto.randomUUID()}`;

function counting(inner: Transport) {
  const sent: string[] = [];
  const transport: Transport = { ...inner, send: (path, init) => (sent.push(`${init.method} ${path}`), inner.send(path, init)) };
  return { transport, sent };
}

describe('QuestboardClient over the in-page transport', () => {
  const inner = inPageTransport({ dbName: DB_NAME });
  const { transport, sent } = counting(inner);
  const admin = new QuestboardClient({ transport, apiKey: ADMIN_KEY });
  const member = new QuestboardClient({ transport, apiKey: API_KEY });

  before(async () => {
    const imported = await admin.admin.importDataset({
      ...guildDataset(),
      apps: [
        {
          ...guildDataset().apps![0]!,
          api_keys: [
            { key: API_KEY, scopes: ['read', 'write'] },
            { key: 'pk_ledger', scopes: ['ledger'] },
          ],
          treasury: { account_id: '0.0.1001', balance: '1' },
        },
      ],
    });
    expect(imported).to.deep.equal({ is_valid: true, message: null, app_ids: [APP_ID] });
  });
  after(async () => {
    await inner.close();
    await deleteDB(DB_NAME);
    await deleteDB(`${DB_NAME}-remote`);
  });

  it('answers every read operation with its parsed body', async () => {
    const challenge = await member.getChallenge({ challenge_id: CHALLENGE_ID });
    expect(challenge.name).to.equal('Onboarding');
    expect(challenge.tasks.map((task) => task.quantity)).to.deep.equal([3, 1]);
    const user = await member.getUserInfo({ app_id: APP_ID, account_name: 'alice' });
    expect(user).to.include({
      account_name: 'alice',
      total_score: 20,
      current_level: 1,
      next_level_xp: 100,
      is_valid: true,
      message: null,
    });
    const progress = await member.getTaskProgress({ task_id: POST_TASK_ID, account_name: 'alice' });
    expect(progress).to.include({ quantity_required: 3, quantity_completed: 2, task_name: 'Post 3 times' });
    const board = await member.getLeaderboard({ app_id: APP_ID, limit: 2, offset: 1, leaderboard_type: 'xp' });
    expect(board.total_users).to.equal(3);
    expect(board.leaderboard_users.map((entry) => entry.external_user.username)).to.deep.equal(['bob', 'carol']);
    const around = await member.getLeaderboard({ app_id: APP_ID, around: 'carol', limit: 1 });
    expect(around.leaderboard_users.map((entry) => entry.external_user.username)).to.deep.equal(['carol']);
    const fragment = await member.getLeaderboard({ app_id: APP_ID, widget_response: 'html' });
    expect(fragment.html).to.match(/^<div class="qb-lb"/);
    const health = await member.health();
    expect(health.is_valid).to.equal(true);
    expect(health.version).to.be.a('string');
  });

  it('performs every write operation', async () => {
    expect(
      await member.endorseAccount({ app_id: APP_ID, from_account: 'alice', to_account: 'carol', endorsement_id: 'helpful' }),
    ).to.deep.equal({ is_valid: true, message: null });
    expect(await member.connectSocial({ app_id: APP_ID, account_name: 'carol', twitter_name: '@carol_x' })).to.deep.equal({
      is_valid: true,
      message: null,
    });
    const logged = await admin.admin.logTask({ task_id: POST_TASK_ID, account_name: 'carol', quantity: 1 });
    expect(logged.quantity_completed).to.equal(1);
    const exported = await admin.admin.exportApp({ app_id: APP_ID });
    expect(exported.apps?.[0]?.users?.find((user) => user.account_name === 'carol')?.twitter_name).to.equal('carol_x');
    const ledger = new QuestboardClient({ transport, apiKey: 'pk_ledger' });
    const paid = await ledger.airdrop({ to_address: '0.0.2002', quantity: 0.25, idempotencyKey: 'drop-1' });
    const retried = await ledger.airdrop({ to_address: '0.0.2002', quantity: 0.25, idempotencyKey: 'drop-1' });
    expect(paid.tx_id).to.match(/^0\.0\.1001-\d+-\d+$/);
    expect(retried.tx_id).to.equal(paid.tx_id);
  });

  it('throws a QuestboardError with the status and message of an is_valid:false answer', async () => {
    const failures = [
      [() => member.getChallenge({ challenge_id: FUTURE_CHALLENGE_ID }), 404, /not started/],
      [() => member.getUserInfo({ app_id: APP_ID, account_name: 'nobody' }), 404, /User not found/],
      [() => member.getLeaderboard({ app_id: 'no-such-app' }), 404, /app_id not found/],
      [
        () => new QuestboardClient({ transport, apiKey: 'pk_nope' }).getUserInfo({ app_id: APP_ID, account_name: 'alice' }),
        401,
        /key/i,
      ],
      [() => member.admin.exportApp({ app_id: APP_ID }), 403, /not allowed/i],
      [() => member.endorseAccount({ app_id: APP_ID, from_account: 'bob', to_account: 'bob', endorsement_id: 'x' }), 400, /./],
      [
        () => new QuestboardClient({ transport, apiKey: 'pk_ledger' }).airdrop({ to_address: '0.0.2002', quantity: 5 }),
        400,
        /^Transaction Failed Pre-Check: InsufficientPayerBalance$/,
      ],
    ] as const;
    for (const [call, status, message] of failures) {
      const error = await call().then(
        () => null,
        (caught: unknown) => caught,
      );
      expect(error, String(message)).to.be.instanceOf(QuestboardError);
      expect((error as QuestboardError).status).to.equal(status);
      expect((error as QuestboardError).message).to.match(message);
    }
  });

  it('reports an unreachable or non-JSON server as a QuestboardError', async () => {
    const offline = new QuestboardClient({
      apiKey: API_KEY,
      transport: { ...inner, send: () => Promise.reject(new TypeError('Failed to fetch')) },
    });
    const unreachable = await offline.health().catch((error: QuestboardError) => error);
    expect(unreachable).to.be.instanceOf(QuestboardError);
    expect((unreachable as QuestboardError).status).to.equal(0);
    const html = new QuestboardClient({
      apiKey: API_KEY,
      transport: { ...inner, send: async () => new Response('<h1>Not Found</h1>', { status: 404 }) },
    });
    const notJson = await html.health().catch((error: QuestboardError) => error);
    expect((notJson as QuestboardError).status).to.equal(404);
    expect((notJson as QuestboardError).message).to.contain('without a JSON body');
  });

  it('makes identical concurrent GETs once, and different ones separately', async () => {
    sent.length = 0;
    const answers = await Promise.all([
      ...Array.from({ length: 50 }, () => member.getUserInfo({ app_id: APP_ID, account_name: 'bob' })),
      member.getUserInfo({ app_id: APP_ID, account_name: 'alice' }),
    ]);
    expect(answers.slice(0, 50).every((answer) => answer.account_name === 'bob')).to.equal(true);
    expect(sent).to.deep.equal([
      'GET v1/get_userinfo?app_id=guild&account_name=bob',
      'GET v1/get_userinfo?app_id=guild&account_name=alice',
    ]);
    await member.getUserInfo({ app_id: APP_ID, account_name: 'bob' });
    expect(sent).to.have.length(3);
  });

  it('does not share a GET that started before a write with one asked after it', async () => {
    sent.length = 0;
    const before = member.getUserInfo({ app_id: APP_ID, account_name: 'bob' });
    announceChange({ type: 'questboard:change', app_id: APP_ID, scope: 'members', account_names: ['bob'] });
    const after = member.getUserInfo({ app_id: APP_ID, account_name: 'bob' });
    await Promise.all([before, after]);
    expect(sent).to.deep.equal([
      'GET v1/get_userinfo?app_id=guild&account_name=bob',
      'GET v1/get_userinfo?app_id=guild&account_name=bob',
    ]);
  });

  it('tells errors apart by kind, so no element reads their text', async () => {
    const kindOf = (request: Promise<unknown>) =>
      request.then(
        () => 'answered',
        (error: QuestboardError) => error.kind,
      );
    expect(await kindOf(member.getChallenge({ challenge_id: FUTURE_CHALLENGE_ID }))).to.equal('not-started');
    expect(await kindOf(member.getTaskProgress({ task_id: POST_TASK_ID, account_name: 'nobody' }))).to.equal('unknown-member');
    expect(await kindOf(member.getChallenge({ challenge_id: '9b6c1a52-7a0e-4d3c-9f3e-1c2d3e4f5a6b' }))).to.equal('not-found');
    expect(
      await kindOf(new QuestboardClient({ transport, apiKey: 'nope' }).getUserInfo({ app_id: APP_ID, account_name: 'alice' })),
    ).to.equal('unauthorized');
    expect(await kindOf(member.connectSocial({ app_id: APP_ID, account_name: 'alice', twitter_name: '!' }))).to.equal('invalid');
    const offline: Transport = { ...transport, send: () => Promise.reject(new TypeError('Failed to fetch')) };
    expect(await kindOf(new QuestboardClient({ transport: offline, apiKey: API_KEY }).health())).to.equal('unreachable');
  });

  it('never coalesces writes', async () => {
    sent.length = 0;
    await Promise.all([
      member.connectSocial({ app_id: APP_ID, account_name: 'bob', twitter_name: 'bob_x' }),
      member.connectSocial({ app_id: APP_ID, account_name: 'bob', twitter_name: 'bob_x' }),
    ]);
    expect(sent).to.have.length(2);
  });

  it('tells this page and other tabs about every committed write', async () => {
    const heard: ChangeNotice[] = [];
    const stop = subscribeToChanges((change) => heard.push(change));
    const otherTab = new BroadcastChannel('questboard');
    const overThere = new Promise<ChangeNotice>((resolve) =>
      otherTab.addEventListener('message', (event) => resolve(event.data), { once: true }),
    );
    await member.endorseAccount({ app_id: APP_ID, from_account: 'bob', to_account: 'alice', endorsement_id: 'kind' });
    expect(heard).to.have.length(1);
    expect(heard[0]!.app_id).to.equal(APP_ID);
    expect(heard[0]).to.deep.include({ scope: 'members' });
    expect(heard[0]!.scope === 'members' && heard[0]!.account_names).to.include('alice');
    const there = await overThere;
    expect(there.scope === 'members' && there.account_names).to.include('alice');
    otherTab.close();
    stop();
  });

  it('hears writes announced by other tabs and by the worker', async () => {
    const heard = new Promise<ChangeNotice>((resolve) => {
      const stop = subscribeToChanges((change) => {
        stop();
        resolve(change);
      });
    });
    const otherTab = new BroadcastChannel('questboard');
    otherTab.postMessage({ type: 'questboard:change', app_id: 'elsewhere', scope: 'members', account_names: ['zoe'] });
    otherTab.close();
    expect(await heard).to.deep.equal({
      type: 'questboard:change',
      app_id: 'elsewhere',
      scope: 'members',
      account_names: ['zoe'],
    });
  });

  it('decides which changes affect which data', () => {
    const change: ChangeNotice = { type: 'questboard:change', app_id: APP_ID, scope: 'members', account_names: ['alice'] };
    expect(changeAffects(change, APP_ID, 'alice')).to.equal(true);
    expect(changeAffects(change, APP_ID, 'bob')).to.equal(false);
    expect(changeAffects(change, 'other', 'alice')).to.equal(false);
    expect(changeAffects(change, APP_ID)).to.equal(true);
    // An import changes everyone; an airdrop only the treasury, which no element shows.
    expect(changeAffects({ type: 'questboard:change', app_id: APP_ID, scope: 'app' }, APP_ID, 'bob')).to.equal(true);
    expect(changeAffects({ type: 'questboard:change', app_id: APP_ID, scope: 'treasury' }, APP_ID)).to.equal(false);
    expect(changeAffects({ type: 'questboard:change', app_id: APP_ID, scope: 'treasury' }, APP_ID, 'bob')).to.equal(false);
  });
});
