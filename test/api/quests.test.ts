// Quests members complete themselves (src/core/quests.ts, docs/quests.md): a task's verification,
// submit_task for each kind, the review queue. On every store the API suite runs on: the handler
// in the page over IndexedDB, and the Questboard server on PGlite and PostgreSQL.
import { expect } from '@open-wc/testing';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { API_ADAPTER, localApi, seed, WEDNESDAY, type Answer, type Call } from './support.js';

const TASKS = {
  code: 'a0000000-0000-4000-8000-000000000001',
  review: 'a0000000-0000-4000-8000-000000000002',
  callback: 'a0000000-0000-4000-8000-000000000003',
  backend: 'a0000000-0000-4000-8000-000000000004',
  retryReview: 'a0000000-0000-4000-8000-000000000005',
};
const CHALLENGE = 'a0000000-0000-4000-8000-0000000000c0';
const LATER = 'a0000000-0000-4000-8000-0000000000c1';
const LATER_TASK = 'a0000000-0000-4000-8000-000000000006';
const MINUTE = 60_000;

const quests = (code: Record<string, unknown> = { kind: 'code', answers: ['  Ｒiverside Ｍeetup ', 'second'] }) => ({
  apps: [
    {
      app_id: 'guild',
      api_keys: [{ key: 'pk_member', scopes: ['read', 'member'] }],
      challenges: [
        {
          challenge_id: CHALLENGE,
          name: 'Quests',
          start_date: '2026-01-01T00:00:00Z',
          points: 100,
          tasks: [
            { task_id: TASKS.code, name: 'Say the code', quantity: 1, operator: 0, points: 10, verification: code },
            {
              task_id: TASKS.review,
              name: 'Show your build',
              quantity: 1,
              operator: 0,
              points: 20,
              verification: { kind: 'review' },
            },
            {
              task_id: TASKS.callback,
              name: 'Join the server',
              quantity: 1,
              operator: 0,
              verification: { kind: 'callback', url: 'https://site.example/check' },
            },
            { task_id: TASKS.backend, name: 'Logged by the site', quantity: 1, operator: 0, verification: { kind: 'backend' } },
            {
              task_id: TASKS.retryReview,
              name: 'Weekly write-up',
              quantity: 1,
              operator: 0,
              allowretry: true,
              verification: { kind: 'review' },
            },
          ],
        },
        {
          challenge_id: LATER,
          name: 'Later',
          start_date: '2099-01-01T00:00:00Z',
          tasks: [
            { task_id: LATER_TASK, name: 'Not yet', quantity: 1, operator: 0, verification: { kind: 'code', answers: ['x'] } },
          ],
        },
      ],
    },
  ],
});

const submit = (call: Call, body: Record<string, unknown>, key = 'pk_write', headers: Record<string, string> = {}) =>
  call('POST', '/v1/submit_task', { key, headers, body: { account_name: 'alice', ...body } });

async function userInfo(call: Call, name = 'alice') {
  const answer = await call('GET', `/v1/get_userinfo?app_id=guild&account_name=${name}`, { key: 'pk_read' });
  expect(answer.status, answer.text).to.equal(200);
  return answer.body;
}

function expectRefused(answer: Answer, status: number, code: string) {
  expect(answer.status, answer.text).to.equal(status);
  expect(answer.headers.get('X-Questboard-Error'), answer.text).to.equal(code);
  expect(answer.body.is_valid).to.equal(false);
}

describe('quests', () => {
  let api: ReturnType<typeof localApi>;

  beforeEach(async () => {
    api = localApi({ now: WEDNESDAY });
    expect((await seed(api.call, WEDNESDAY)).status).to.equal(200);
    const imported = await api.call('POST', '/v1/admin/import', { body: quests() });
    expect(imported.status, imported.text).to.equal(200);
  });
  afterEach(() => api.close());

  describe('verification in the dataset', () => {
    it('get_challenge shows each kind, never the answers', async () => {
      const answer = await api.call('GET', `/v1/get_challenge?challenge_id=${CHALLENGE}`, { key: 'pk_read' });
      expect(answer.status, answer.text).to.equal(200);
      expect(answer.body.tasks.map((task: { verification: unknown }) => task.verification)).to.deep.equal([
        { kind: 'code' },
        { kind: 'review' },
        { kind: 'callback' },
        { kind: 'backend' },
        { kind: 'review' },
      ]);
      expect(answer.text).not.to.match(/riverside|second|site\.example/i);
    });

    it('the export holds the hashes, never the answers, and imports again as it came', async () => {
      const exported = await api.call('GET', '/v1/admin/export?app_id=guild');
      expect(exported.status, exported.text).to.equal(200);
      expect(exported.text).not.to.match(/riverside|second/i);
      const task = exported.body.apps[0].challenges
        .flatMap((challenge: { tasks: unknown[] }) => challenge.tasks)
        .find((item: { task_id: string }) => item.task_id === TASKS.code);
      expect(task.verification.kind).to.equal('code');
      expect(task.verification.answer_hashes).to.have.length(2);
      for (const hash of task.verification.answer_hashes) expect(hash).to.match(/^[0-9a-f]{64}$/);
      const again = await api.call('POST', '/v1/admin/import?mode=replace', { body: { apps: exported.body.apps } });
      expect(again.status, again.text).to.equal(200);
      expect((await submit(api.call, { task_id: TASKS.code, answer: 'SECOND' })).status).to.equal(200);
    });

    it('refuses a callback URL that is not https, and a code without answers', async () => {
      const http = await api.call('POST', '/v1/admin/import', {
        body: quests({ kind: 'callback', url: 'http://site.example/check' }),
      });
      expectRefused(http, 400, 'invalid-input');
      expect(http.body.message).to.contain('verification.url');
      expectRefused(
        await api.call('POST', '/v1/admin/import', { body: quests({ kind: 'code', answers: [] }) }),
        400,
        'invalid-input',
      );
    });
  });

  describe('code', () => {
    it('the right answer, trimmed and case-folded (NFKC), completes the task: 200 and its progress', async () => {
      const answer = await submit(api.call, { task_id: TASKS.code, answer: 'riverside meetup' });
      expect(answer.status, answer.text).to.equal(200);
      expect(answer.body).to.deep.include({ task_id: TASKS.code, quantity_required: 1, quantity_completed: 1, is_valid: true });
      const progress = await api.call('GET', `/v1/get_task_progress?task_id=${TASKS.code}&account_name=alice`, {
        key: 'pk_read',
      });
      expect(answer.text).to.equal(progress.text);
      expect((await userInfo(api.call)).tasks_completed).to.equal(1);
      // No retry: done is done.
      expectRefused(await submit(api.call, { task_id: TASKS.code, answer: 'second' }), 409, 'task-already-completed');
    });

    it('a wrong answer is a 422 that counts nothing, and past 5 in 10 minutes a 429 with Retry-After', async () => {
      const before = await userInfo(api.call);
      for (let attempt = 0; attempt < 5; attempt++) {
        expectRefused(await submit(api.call, { task_id: TASKS.code, answer: `guess ${attempt}` }), 422, 'wrong-answer');
        api.clock.now += MINUTE;
      }
      expect(await userInfo(api.call)).to.deep.equal(before);
      // Even the right answer waits: guessing on tells nothing.
      const limited = await submit(api.call, { task_id: TASKS.code, answer: 'second' });
      expectRefused(limited, 429, 'too-many-wrong-answers');
      expect(limited.headers.get('Retry-After')).to.equal(String(5 * 60));
      // Another member, and another task, have limits of their own.
      expect((await submit(api.call, { account_name: 'bob', task_id: TASKS.code, answer: 'second' })).status).to.equal(200);
      // Once the first wrong answer leaves the window, one more try.
      api.clock.now += 5 * MINUTE;
      expect((await submit(api.call, { task_id: TASKS.code, answer: 'second' })).status).to.equal(200);
    });

    it("the task's own rules hold: a challenge not started is refused", async () => {
      expectRefused(await submit(api.call, { task_id: LATER_TASK, answer: 'x' }), 404, 'challenge-not-started');
    });

    it('a backend task is refused (409); admin/log_task still completes every kind', async () => {
      expectRefused(await submit(api.call, { task_id: TASKS.backend, answer: 'x' }), 409, 'task-completed-by-backend');
      for (const task_id of Object.values(TASKS)) {
        const logged = await api.call('POST', '/v1/admin/log_task', { body: { task_id, account_name: 'carol', quantity: 1 } });
        expect(logged.status, logged.text).to.equal(200);
      }
      expect((await userInfo(api.call, 'carol')).challenges_completed).to.equal(1);
    });

    it('a member token names the member; without one a member key is a 401', async () => {
      const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
      const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
      const enabled = await api.call('POST', '/v1/admin/import', {
        body: { apps: [{ app_id: 'guild', settings: { member_token_keys: [jwk] } }] },
      });
      expect(enabled.status, enabled.text).to.equal(200);
      const now = Math.floor(api.clock.now / 1000);
      const token = await new SignJWT({ app_id: 'guild', sub: 'bob', iat: now, exp: now + 3600 })
        .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
        .sign(privateKey);
      expectRefused(
        await api.call('POST', '/v1/submit_task', { key: 'pk_member', body: { task_id: TASKS.code, answer: 'second' } }),
        401,
        'member-token-missing',
      );
      const asBob = await api.call('POST', '/v1/submit_task', {
        key: 'pk_member',
        headers: { 'X-Questboard-Member': token },
        body: { task_id: TASKS.code, answer: 'second' },
      });
      expect(asBob.status, asBob.text).to.equal(200);
      expect((await userInfo(api.call, 'bob')).tasks_completed).to.equal(1);
      expectRefused(
        await api.call('POST', '/v1/submit_task', {
          key: 'pk_member',
          headers: { 'X-Questboard-Member': token },
          body: { account_name: 'alice', task_id: TASKS.code, answer: 'second' },
        }),
        403,
        'not-that-member',
      );
    });
  });

  describe('review', () => {
    const sendForReview = (task_id = TASKS.review, account_name = 'alice') =>
      submit(api.call, { task_id, account_name, text: 'https://builds.example/alice' });
    const queue = (status = 'pending', key?: string) =>
      api.call('GET', `/v1/admin/submissions?app_id=guild&status=${status}`, key === undefined ? {} : { key });

    it('202 pending, one pending per member and task, and the member sees theirs', async () => {
      const changesBefore = api.changes.length;
      const sent = await sendForReview();
      expect(sent.status, sent.text).to.equal(202);
      expect(sent.body).to.deep.equal({
        is_valid: true,
        message: null,
        submission_id: sent.body.submission_id,
        status: 'pending',
      });
      const again = await sendForReview();
      expectRefused(again, 409, 'submission-pending');
      expect((await sendForReview(TASKS.review, 'bob')).status).to.equal(202);
      expect(
        api.changes
          .slice(changesBefore)
          .filter((change) => change.scope === 'members')
          .flatMap((change) => change.account_names),
      ).to.include.members(['alice', 'bob'], 'announced, so that the member’s other tabs show it pending');
      const mine = await api.call('GET', '/v1/get_submissions?app_id=guild&account_name=alice', { key: 'pk_read' });
      expect(mine.status, mine.text).to.equal(200);
      expect(mine.body.submissions).to.have.length(1);
      expect(mine.body.submissions[0]).to.deep.include({ task_id: TASKS.review, status: 'pending', reason: null });
      expect((await userInfo(api.call)).tasks_completed).to.equal(0);
      const queued = (await queue()).body.submissions;
      expect(queued.map((entry: { task_id: string; task_name: string }) => [entry.task_id, entry.task_name])).to.deep.equal([
        [TASKS.review, 'Show your build'],
        [TASKS.review, 'Show your build'],
      ]);
    });

    it('a rejection keeps its reason for the member, who may then send again', async () => {
      const { submission_id } = (await sendForReview()).body;
      const rejected = await api.call('POST', '/v1/admin/review', {
        body: { submission_id, decision: 'reject', reason: 'The link is broken.' },
      });
      expect(rejected.status, rejected.text).to.equal(200);
      const mine = await api.call('GET', '/v1/get_submissions?app_id=guild&account_name=alice', { key: 'pk_read' });
      expect(mine.body.submissions[0]).to.deep.include({ status: 'rejected', reason: 'The link is broken.' });
      expect((await userInfo(api.call)).tasks_completed).to.equal(0);
      expect((await sendForReview()).status).to.equal(202);
    });

    it('the queue lists by status, paged; approving counts the task once', async () => {
      for (const name of ['alice', 'bob', 'carol']) {
        expect((await sendForReview(TASKS.review, name)).status).to.equal(202);
        api.clock.now += 1000;
      }
      const first = await api.call('GET', '/v1/admin/submissions?app_id=guild&status=pending&limit=2');
      expect(first.status, first.text).to.equal(200);
      expect(first.body.submissions.map((item: { account_name: string }) => item.account_name)).to.deep.equal(['alice', 'bob']);
      expect(first.body.next_offset).to.equal(2);
      const second = await api.call('GET', '/v1/admin/submissions?app_id=guild&status=pending&limit=2&offset=2');
      expect(second.body.submissions.map((item: { account_name: string }) => item.account_name)).to.deep.equal(['carol']);
      expect(second.body.next_offset).to.equal(null);

      const { submission_id } = first.body.submissions[0];
      const approved = await api.call('POST', '/v1/admin/review', { body: { submission_id, decision: 'approve' } });
      expect(approved.status, approved.text).to.equal(200);
      expect(approved.body.submission).to.deep.include({ status: 'approved', account_name: 'alice' });
      expect((await userInfo(api.call)).tasks_completed).to.equal(1);
      expectRefused(
        await api.call('POST', '/v1/admin/review', { body: { submission_id, decision: 'approve' } }),
        409,
        'submission-already-reviewed',
      );
      expect((await userInfo(api.call)).tasks_completed).to.equal(1);
      expect((await queue('approved')).body.submissions).to.have.length(1);
      expect((await queue('pending')).body.submissions).to.have.length(2);
    });

    it('two approvals at once count the task once', async () => {
      const { submission_id } = (await sendForReview()).body;
      const answers = await Promise.all(
        [0, 1].map(() => api.call('POST', '/v1/admin/review', { body: { submission_id, decision: 'approve' } })),
      );
      expect(answers.map((answer) => answer.status).sort((a, b) => a - b)).to.deep.equal([200, 409]);
      const info = await userInfo(api.call);
      expect(info.tasks_completed).to.equal(1);
      expect(info.total_score).to.equal(20);
    });

    it('the bulk form decides the pending ones and lists the rest as skipped', async () => {
      const ids = [];
      for (const name of ['alice', 'bob']) ids.push((await sendForReview(TASKS.review, name)).body.submission_id);
      await api.call('POST', '/v1/admin/review', { body: { submission_id: ids[0], decision: 'reject', reason: 'no' } });
      const unknown = 'f0000000-0000-4000-8000-000000000000';
      const bulk = await api.call('POST', '/v1/admin/review', {
        body: { submission_ids: [...ids, unknown], decision: 'approve' },
      });
      expect(bulk.status, bulk.text).to.equal(200);
      expect(bulk.body.reviewed.map((item: { account_name: string }) => item.account_name)).to.deep.equal(['bob']);
      expect(bulk.body.skipped).to.deep.equal([
        { submission_id: ids[0], code: 'submission-already-reviewed' },
        { submission_id: unknown, code: 'submission-not-found' },
      ]);
      expect((await userInfo(api.call, 'bob')).tasks_completed).to.equal(1);
      expect((await userInfo(api.call, 'alice')).tasks_completed).to.equal(0);
    });

    it('read, write and member keys cannot read the queue or review (403); another app cannot see it', async () => {
      const { submission_id } = (await sendForReview()).body;
      for (const key of ['pk_read', 'pk_write', 'pk_member']) {
        expectRefused(await queue('pending', key), 403, 'scope-missing');
        expectRefused(
          await api.call('POST', '/v1/admin/review', { key, body: { submission_id, decision: 'approve' } }),
          403,
          'scope-missing',
        );
      }
      expectRefused(await queue('pending', 'pk_other'), 403, 'other-app');
      expectRefused(
        await api.call('POST', '/v1/admin/review', { key: 'pk_other', body: { submission_id, decision: 'approve' } }),
        404,
        'submission-not-found',
      );
    });
  });

  it('callback: without a server check (the worker, the page) a 501 that says so', async function () {
    // The server's check of callbacks is its own (the webhooks work): here only the browser's handler.
    if (API_ADAPTER.adapter !== 'indexeddb') this.skip();
    expectRefused(await submit(api.call, { task_id: TASKS.callback }), 501, 'callbacks-on-server-only');
  });
});
