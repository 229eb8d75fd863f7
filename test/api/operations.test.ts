// Every operation's success shape and every error row, through the real
// service worker and real IndexedDB.
import { expect } from '@open-wc/testing';
import { GUIDS, HOSTILE_NAME, registerWorker, seed, unregisterWorker, workerCall as call } from './support.js';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DATE = /^\d{4}-\d\d-\d\dt\d\d:\d\d:\d\d$/;

describe('operations through the service worker', () => {
  before(async () => {
    await registerWorker();
    const seeded = await seed(call, Date.now());
    expect(seeded.status, seeded.text).to.equal(200);
  });
  after(unregisterWorker);

  it('controls the page and leaves other requests alone', async () => {
    expect(navigator.serviceWorker.controller?.scriptURL).to.match(/\/questboard-sw\.js$/);
    const page = await fetch('/test/api/support.ts');
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).not.to.contain('application/json');
  });

  it('health answers its version without a key', async () => {
    const answer = await call('GET', '/v1/health', { key: null });
    expect(answer.status).to.equal(200);
    expect(answer.body).to.deep.equal({ is_valid: true, message: null, version: '0.1.0' });
  });

  it('get_challenge: the challenge with its tasks, every field of the spec', async () => {
    const answer = await call('GET', `/v1/get_challenge?challenge_id=${GUIDS.onboarding}`, { key: 'pk_read' });
    expect(answer.status).to.equal(200);
    const challenge = answer.body;
    expect(Object.keys(challenge)).to.have.members([
      'challenge_id',
      'name',
      'description',
      'create_date',
      'groupid',
      'badge',
      'tasks',
      'rewarddata',
      'is_valid',
      'message',
    ]);
    expect(challenge).to.include({
      challenge_id: GUIDS.onboarding,
      name: 'Onboarding',
      groupid: null,
      badge: null,
      rewarddata: null,
      is_valid: true,
      message: null,
    });
    expect(challenge.create_date).to.equal('2026-01-01t00:00:00');
    expect(challenge.tasks).to.have.length(4);
    const [task] = challenge.tasks;
    expect(Object.keys(task)).to.have.members([
      'task_id',
      'name',
      'quantity',
      'operator',
      'metadata',
      'create_date',
      'resourceurl',
      'groupname',
      'allowretry',
      'alloweditquantity',
      'challenge',
      // Beside the spec's fields: how a member completes it (docs/quests.md).
      'verification',
      'is_valid',
      'message',
    ]);
    expect(task).to.include({
      task_id: GUIDS.posts,
      quantity: 3,
      operator: 0,
      resourceurl: null,
      groupname: null,
      challenge: null,
      allowretry: false,
      alloweditquantity: false,
      is_valid: true,
      message: null,
    });
    expect(JSON.parse(task.metadata)).to.deep.equal({ action: 'post' });
    for (const each of challenge.tasks) {
      expect(each.task_id).to.match(GUID);
      expect(each.create_date).to.match(DATE);
      expect(typeof each.metadata).to.equal('string');
    }
    expect(answer.text).to.contain('"create_date":"2026-01-01t00:00:00"');
  });

  it('get_challenge: 404 for a challenge not started, unknown, or of another app', async () => {
    const notStarted = await call('GET', `/v1/get_challenge?challenge_id=${GUIDS.future}`, { key: 'pk_read' });
    expect(notStarted.status).to.equal(404);
    expect(notStarted.body).to.deep.equal({ is_valid: false, message: 'The challenge has not started yet.' });
    const unknown = await call('GET', '/v1/get_challenge?challenge_id=00000000-0000-4000-8000-000000000000', { key: 'pk_read' });
    expect(unknown.status).to.equal(404);
    expect(unknown.body.message).to.match(/challenge not found/i);
    const foreign = await call('GET', `/v1/get_challenge?challenge_id=${GUIDS.otherChallenge}`, { key: 'pk_read' });
    expect(foreign.status).to.equal(404);
    const malformed = await call('GET', '/v1/get_challenge?challenge_id=ABC', { key: 'pk_read' });
    expect(malformed.status).to.equal(400);
    expect(malformed.body.message).to.match(/^challenge_id: must be a lowercase GUID/);
  });

  it('get_userinfo: every field, GUID id', async () => {
    const answer = await call('GET', '/v1/get_userinfo?app_id=guild&account_name=alice', { key: 'pk_read' });
    expect(answer.status).to.equal(200);
    expect(Object.keys(answer.body)).to.have.members([
      'account_name',
      'id',
      'is_active',
      'challenges_completed',
      'tasks_completed',
      'tasks_logged',
      'total_achievements',
      'total_score',
      'challenge_score_monthly',
      'challenge_score_weekly',
      'current_xp',
      'current_level',
      'next_level_xp',
      'message',
      'is_valid',
    ]);
    expect(answer.body.id).to.match(GUID);
    expect(answer.body).to.include({
      account_name: 'alice',
      is_active: true,
      current_level: 1,
      next_level_xp: 100,
      is_valid: true,
      message: null,
    });
    const missing = await call('GET', '/v1/get_userinfo?app_id=guild&account_name=nobody', { key: 'pk_read' });
    expect(missing.status).to.equal(404);
    expect(missing.body.message).to.match(/user not found/i);
  });

  it('get_task_progress: four-decimal quantities on the wire', async () => {
    await call('POST', '/v1/admin/log_task', { body: { task_id: GUIDS.posts, account_name: 'bob', quantity: 1.25 } });
    const answer = await call('GET', `/v1/get_task_progress?task_id=${GUIDS.posts}&account_name=bob`, { key: 'pk_read' });
    expect(answer.status).to.equal(200);
    expect(answer.text).to.contain('"quantity_required":3.0000');
    expect(answer.text).to.contain('"quantity_completed":1.2500');
    expect(answer.body).to.deep.equal({
      task_id: GUIDS.posts,
      task_name: 'Post 3 times',
      quantity_required: 3,
      quantity_completed: 1.25,
      message: null,
      is_valid: true,
    });
    const none = await call('GET', `/v1/get_task_progress?task_id=${GUIDS.posts}&account_name=carol`, { key: 'pk_read' });
    expect(none.text).to.contain('"quantity_completed":0.0000');
    const unknownTask = await call('GET', `/v1/get_task_progress?task_id=${GUIDS.otherTask}&account_name=bob`, {
      key: 'pk_read',
    });
    expect(unknownTask.status).to.equal(404);
    expect(unknownTask.body.message).to.match(/task not found/i);
    const unknownUser = await call('GET', `/v1/get_task_progress?task_id=${GUIDS.posts}&account_name=nobody`, { key: 'pk_read' });
    expect(unknownUser.status).to.equal(404);
  });

  it('get_leaderboard: JSON and HTML; 404 for an unknown app', async () => {
    const answer = await call('GET', '/v1/get_leaderboard?app_id=guild', { key: 'pk_read' });
    expect(answer.status).to.equal(200);
    expect(Object.keys(answer.body)).to.have.members(['leaderboard_users', 'total_users', 'message', 'is_valid']);
    expect(answer.body.total_users).to.equal(4);
    expect(Object.keys(answer.body.leaderboard_users[0])).to.have.members([
      'rank',
      'external_user',
      'challenge_count',
      'task_count',
      'score',
      'total_xp',
    ]);
    const html = await call('GET', '/v1/get_leaderboard?app_id=guild&widget_response=html&leaderboard_type=score', {
      key: 'pk_read',
    });
    expect(Object.keys(html.body)).to.have.members(['html', 'is_valid', 'message']);
    expect(html.body.html).to.contain('alice');
    const unknown = await call('GET', '/v1/get_leaderboard?app_id=nowhere', { key: 'pk_read' });
    expect(unknown.status).to.equal(404);
    expect(unknown.body).to.deep.equal({ is_valid: false, message: "app_id not found: no app 'nowhere'." });
  });

  it('endorse_account and connect_social answer {is_valid:true, message:null}', async () => {
    const endorse = await call('POST', '/v1/endorse_account', {
      key: 'pk_write',
      body: { app_id: 'guild', from_account: 'alice', to_account: HOSTILE_NAME, endorsement_id: 'helpful' },
    });
    expect(endorse.status).to.equal(200);
    expect(endorse.text).to.equal('{"is_valid":true,"message":null}');
    const social = await call('POST', '/v1/connect_social', {
      key: 'pk_write',
      body: { app_id: 'guild', account_name: 'carol', twitter_name: 'carol_c' },
    });
    expect(social.text).to.equal('{"is_valid":true,"message":null}');
    const invalidApp = await call('POST', '/v1/connect_social', {
      key: 'pk_write',
      body: { app_id: 'nowhere', account_name: 'carol', twitter_name: 'c' },
    });
    expect(invalidApp.status).to.equal(404);
    expect(invalidApp.body.message).to.match(/app_id not found/);
  });

  it('get_endorsement: whether an endorsement was made; 404 for an unknown app', async () => {
    const query = (endorsement_id: string, app_id = 'guild') =>
      call(
        'GET',
        `/v1/get_endorsement?${new URLSearchParams({ app_id, from_account: 'bob', to_account: 'alice', endorsement_id })}`,
        {
          key: 'pk_read',
        },
      );
    expect((await query('mentor')).text).to.equal('{"is_valid":true,"message":null,"endorsed":false}');
    const endorse = await call('POST', '/v1/endorse_account', {
      key: 'pk_write',
      body: { app_id: 'guild', from_account: 'bob', to_account: 'alice', endorsement_id: 'mentor' },
    });
    expect(endorse.status).to.equal(200);
    expect((await query('mentor')).text).to.equal('{"is_valid":true,"message":null,"endorsed":true}');
    expect((await query('kind')).body.endorsed).to.equal(false);
    const unknown = await query('mentor', 'nowhere');
    expect(unknown.status).to.equal(404);
    expect(unknown.body).to.deep.equal({ is_valid: false, message: "app_id not found: no app 'nowhere'." });
  });

  it('an account name full of HTML and quotes round-trips exactly', async () => {
    const name = `<b>"x" & 'y'</b>\\</script>`;
    await call('POST', '/v1/connect_social', {
      key: 'pk_write',
      body: { app_id: 'guild', account_name: name, twitter_name: 'esc' },
    });
    const info = await call('GET', `/v1/get_userinfo?app_id=guild&account_name=${encodeURIComponent(name)}`, { key: 'pk_read' });
    expect(info.body.account_name).to.equal(name);
    const board = await call('GET', '/v1/get_leaderboard?app_id=guild', { key: 'pk_read' });
    expect(board.body.leaderboard_users.map((e: any) => e.external_user.username)).to.include(name);
  });

  describe('errors', () => {
    it('401 for a missing or unknown key', async () => {
      const missing = await call('GET', '/v1/get_userinfo?app_id=guild&account_name=alice', { key: null });
      expect(missing.status).to.equal(401);
      expect(missing.body).to.deep.equal({
        is_valid: false,
        message: 'Missing API key: send the header Authorization: Bearer <key>.',
      });
      const wrongScheme = await call('GET', '/v1/get_userinfo?app_id=guild&account_name=alice', {
        key: null,
        headers: { authorization: 'Basic pk_read' },
      });
      expect(wrongScheme.status).to.equal(401);
      const unknown = await call('GET', '/v1/get_userinfo?app_id=guild&account_name=alice', { key: 'pk_nope' });
      expect(unknown.status).to.equal(401);
      expect(unknown.body.message).to.equal('Invalid API key.');
    });

    it('403 for a missing scope or another app, 404 for an app that does not exist', async () => {
      const noScope = await call('POST', '/v1/endorse_account', {
        key: 'pk_read',
        body: { app_id: 'guild', from_account: 'alice', to_account: 'bob', endorsement_id: 'x' },
      });
      expect(noScope.status).to.equal(403);
      expect(noScope.body.message).to.match(/^Not allowed/);
      const otherApp = await call('GET', '/v1/get_userinfo?app_id=guild&account_name=alice', { key: 'pk_other' });
      expect(otherApp.status).to.equal(403);
      const noApp = await call('GET', '/v1/get_userinfo?app_id=nowhere&account_name=alice', { key: 'pk_other' });
      expect(noApp.status).to.equal(404);
      const ledgerOnly = await call('GET', '/v1/get_leaderboard?app_id=guild', { key: 'pk_ledger' });
      expect(ledgerOnly.status).to.equal(403);
      const adminOp = await call('POST', '/v1/admin/log_task', {
        key: 'pk_write',
        body: { task_id: GUIDS.posts, account_name: 'bob', quantity: 1 },
      });
      expect(adminOp.status).to.equal(403);
    });

    it('400 naming the field for missing or malformed parameters and bad JSON', async () => {
      const missing = await call('GET', '/v1/get_userinfo?app_id=guild', { key: 'pk_read' });
      expect(missing.status).to.equal(400);
      expect(missing.body).to.deep.equal({ is_valid: false, message: 'account_name: is required.' });
      const wrongType = await call('POST', '/v1/endorse_account', {
        key: 'pk_write',
        body: { app_id: 'guild', from_account: 'alice', to_account: 5, endorsement_id: 'x' },
      });
      expect(wrongType.status).to.equal(400);
      expect(wrongType.body.message).to.equal('to_account: must be a string.');
      const badJson = await call('POST', '/v1/endorse_account', { key: 'pk_write', body: '{"app_id": ' });
      expect(badJson.status).to.equal(400);
      expect(badJson.body.message).to.match(/not valid JSON/);
      const notObject = await call('POST', '/v1/endorse_account', { key: 'pk_write', body: '[1]' });
      expect(notObject.status).to.equal(400);
    });

    it('415 for a body that is not JSON, 413 for one over 16 KiB', async () => {
      const form = await call('POST', '/v1/connect_social', {
        key: 'pk_write',
        body: 'app_id=guild',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(form.status).to.equal(415);
      expect(form.body.is_valid).to.equal(false);
      const large = await call('POST', '/v1/connect_social', {
        key: 'pk_write',
        body: { app_id: 'guild', account_name: 'alice', twitter_name: 'a', padding: 'x'.repeat(17 * 1024) },
      });
      expect(large.status).to.equal(413);
      expect(large.body.message).to.match(/larger than 16384 bytes/);
    });

    it('404 for an unknown operation, 405 with Allow for a wrong method', async () => {
      const unknown = await call('GET', '/v1/get_everything', { key: 'pk_read' });
      expect(unknown.status).to.equal(404);
      expect(unknown.body.is_valid).to.equal(false);
      const wrong = await call('DELETE', '/v1/get_userinfo?app_id=guild&account_name=alice', { key: 'pk_read' });
      expect(wrong.status).to.equal(405);
      expect(wrong.headers.get('allow')).to.equal('GET');
      const post = await call('PUT', '/v1/airdrop_token_ledger', { key: 'pk_ledger' });
      expect(post.headers.get('allow')).to.equal('GET, POST');
    });

    it('every answer is JSON with is_valid and message', async () => {
      const answers = await Promise.all([
        call('GET', '/v1/nope'),
        call('GET', '/v1/get_userinfo', { key: null }),
        call('GET', '/v1/get_userinfo?app_id=guild&account_name=alice', { key: 'pk_read' }),
      ]);
      for (const answer of answers) {
        expect(answer.headers.get('content-type')).to.equal('application/json; charset=utf-8');
        expect(answer.body).to.have.property('is_valid');
        expect(answer.body).to.have.property('message');
      }
    });
  });
});
