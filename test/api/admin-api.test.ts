// The admin API the console drives, on every store (IndexedDB, PGlite, PostgreSQL): challenges
// saved in the import's shape, keys made and revoked, member-token keys, member search by name,
// adjustments with a reason, (de)activation, and the audit log every admin write lands in.
import { expect } from '@open-wc/testing';
import { siteKey } from '../member-token-keys.js';
import { GUIDS, WEDNESDAY, localApi, seed } from './support.js';

const NEW_CHALLENGE = '51111111-1111-4111-8111-111111111111';
const NEW_TASK = '52111111-1111-4111-8111-111111111111';
const NEW_REVIEW_TASK = '53111111-1111-4111-8111-111111111111';

describe('the admin API', () => {
  let api: ReturnType<typeof localApi>;
  /** Moved on a minute before each action whose audit entry a test reads, so the log's order is the actions'. */
  let clock: { now: number };
  beforeEach(async () => {
    clock = { now: WEDNESDAY };
    api = localApi(clock);
    expect((await seed(api.call, WEDNESDAY)).status).to.equal(200);
  });
  afterEach(() => api.close());

  it('saves a challenge and its task in the import’s shape, and lists them', async () => {
    const challenge = {
      challenge_id: NEW_CHALLENGE,
      name: 'Spring cleaning',
      start_date: '2026-01-01T00:00:00Z',
      points: 15,
      tasks: [{ task_id: NEW_TASK, name: 'Tidy a thread', quantity: 2, operator: 0, points: 5 }],
    };
    const saved = await api.call('POST', '/v1/admin/save_challenge', { body: { app_id: 'guild', challenge } });
    expect(saved.status, saved.text).to.equal(200);
    const shown = await api.call('GET', `/v1/get_challenge?challenge_id=${NEW_CHALLENGE}`, { key: 'pk_read' });
    expect(shown.body.name).to.equal('Spring cleaning');
    expect(shown.body.tasks.map((task: { name: string }) => task.name)).to.deep.equal(['Tidy a thread']);
    const renamed = { ...challenge, name: 'Spring cleaning, again' };
    expect(
      (await api.call('POST', '/v1/admin/save_challenge', { body: { app_id: 'guild', challenge: renamed } })).status,
    ).to.equal(200);
    const listed = await api.call('GET', '/v1/admin/challenges?app_id=guild');
    expect(listed.status, listed.text).to.equal(200);
    const names = listed.body.challenges.map((entry: { name: string }) => entry.name);
    expect(names).to.include('Spring cleaning, again').and.to.include('Onboarding');
    const bad = await api.call('POST', '/v1/admin/save_challenge', {
      body: { app_id: 'guild', challenge: { ...challenge, tasks: [{ name: 'No quantity', operator: 0 }] } },
    });
    expect(bad.status).to.equal(400);
    expect(bad.body.message).to.equal('challenge.tasks.0.quantity: is required.');
  });

  it('retires a challenge: hidden from members, no new progress, its history kept and exported', async () => {
    const challenge = {
      challenge_id: NEW_CHALLENGE,
      name: 'Last spring',
      start_date: '2026-01-01T00:00:00Z',
      points: 15,
      tasks: [
        { task_id: NEW_TASK, name: 'Tidy a thread', quantity: 1, operator: 0, points: 5 },
        { task_id: NEW_REVIEW_TASK, name: 'Show your garden', quantity: 1, operator: 0, verification: { kind: 'review' } },
      ],
    };
    const save = (retired?: boolean) =>
      api.call('POST', '/v1/admin/save_challenge', { body: { app_id: 'guild', challenge: { ...challenge, retired } } });
    const log = (account_name: string) =>
      api.call('POST', '/v1/admin/log_task', { body: { task_id: NEW_TASK, account_name, quantity: 1 } });
    const submit = (account_name: string) =>
      api.call('POST', '/v1/submit_task', {
        key: 'pk_write',
        body: { task_id: NEW_REVIEW_TASK, account_name, text: 'https://example.org/garden' },
      });
    const score = async (account_name: string) =>
      (await api.call('GET', `/v1/get_userinfo?app_id=guild&account_name=${account_name}`)).body.total_score;
    expect((await save()).status).to.equal(200);
    expect((await log('alice')).status).to.equal(200);
    const pending = await submit('bob');
    expect(pending.status, pending.text).to.equal(202);
    const { submission_id } = pending.body;
    const aliceBefore = await score('alice');

    const retired = await save(true);
    expect(retired.status, retired.text).to.equal(200);
    const shown = await api.call('GET', `/v1/get_challenge?challenge_id=${NEW_CHALLENGE}`, { key: 'pk_read' });
    expect(shown.status).to.equal(404);
    expect(shown.headers.get('x-questboard-error')).to.equal('challenge-not-found');
    for (const [what, answer] of [
      ['a log', await log('carol')],
      ['a submission', await submit('carol')],
      ['an approval', await api.call('POST', '/v1/admin/review', { body: { submission_id, decision: 'approve' } })],
    ] as const) {
      expect(answer.status, what).to.equal(409);
      expect(answer.headers.get('x-questboard-error'), what).to.equal('challenge-retired');
      expect(answer.body, what).to.deep.equal({
        is_valid: false,
        message: 'The challenge is retired: it counts no new progress.',
      });
    }
    const bulk = await api.call('POST', '/v1/admin/review', { body: { submission_ids: [submission_id], decision: 'approve' } });
    expect(bulk.body.skipped).to.deep.equal([{ submission_id, code: 'challenge-retired' }]);
    const queue = await api.call('GET', '/v1/admin/submissions?app_id=guild&status=pending');
    expect(
      queue.body.submissions.map((entry: { submission_id: string }) => entry.submission_id),
      'still pending',
    ).to.include(submission_id);
    expect(await score('alice'), 'what was done on it stays').to.equal(aliceBefore);

    const listed = await api.call('GET', '/v1/admin/challenges?app_id=guild');
    expect(listed.body.challenges.find((entry: { challenge_id: string }) => entry.challenge_id === NEW_CHALLENGE)).to.include({
      retired: true,
    });
    const exported = await api.call('GET', '/v1/admin/export?app_id=guild');
    const kept = exported.body.apps[0].challenges.find((entry: { challenge_id: string }) => entry.challenge_id === NEW_CHALLENGE);
    expect(kept.retired).to.equal(true);
    const reimported = await api.call('POST', '/v1/admin/import?mode=replace', { body: exported.body });
    expect(reimported.status, `its history replays: ${reimported.text}`).to.equal(200);
    expect(await score('alice')).to.equal(aliceBefore);

    expect((await save()).status, 'saved without retired: open again').to.equal(200);
    expect((await log('carol')).status).to.equal(200);
    expect((await api.call('GET', `/v1/get_challenge?challenge_id=${NEW_CHALLENGE}`, { key: 'pk_read' })).status).to.equal(200);
  });

  it('makes a key shown once and kept hashed, and revokes it at once', async () => {
    const made = await api.call('POST', '/v1/admin/create_key', { body: { app_id: 'guild', scopes: ['read'] } });
    expect(made.status, made.text).to.equal(200);
    const { key, key_id } = made.body;
    expect(key).to.match(/^pk_[\w-]{43}$/);
    expect((await api.call('GET', '/v1/get_userinfo?app_id=guild&account_name=alice', { key })).status).to.equal(200);
    const listed = await api.call('GET', '/v1/admin/keys?app_id=guild');
    expect(listed.body.keys).to.deep.include({ key_id, scopes: ['read'] });
    expect(listed.text).not.to.include(key);
    const revoked = await api.call('POST', '/v1/admin/revoke_key', { body: { app_id: 'guild', key_id } });
    expect(revoked.status, revoked.text).to.equal(200);
    expect((await api.call('GET', '/v1/get_userinfo?app_id=guild&account_name=alice', { key })).status).to.equal(401);
    const after = await api.call('GET', '/v1/admin/keys?app_id=guild');
    expect(after.body.keys.map((entry: { key_id: string }) => entry.key_id)).not.to.include(key_id);
    const missing = await api.call('POST', '/v1/admin/revoke_key', { body: { app_id: 'guild', key_id: '0123456789abcdef' } });
    expect(missing.status).to.equal(404);
    expect(missing.headers.get('x-questboard-error')).to.equal('key-not-found');
  });

  it('adds, lists and removes member-token keys by kid', async () => {
    const { publicJwk } = await siteKey('console-key');
    const none = await api.call('GET', '/v1/admin/member_token_keys?app_id=guild');
    expect(none.status, none.text).to.equal(200);
    expect(none.body.keys).to.deep.equal([]);
    const added = await api.call('POST', '/v1/admin/add_member_token_key', { body: { app_id: 'guild', key: publicJwk } });
    expect(added.status, added.text).to.equal(200);
    const listed = await api.call('GET', '/v1/admin/member_token_keys?app_id=guild');
    expect(listed.body.keys).to.deep.equal([{ kid: 'console-key', alg: 'ES256', kty: 'EC', crv: 'P-256' }]);
    expect(listed.text, 'no key material').not.to.include(publicJwk.x);
    const { alg: _alg, ...withoutAlg } = (await siteKey('no-alg')).publicJwk;
    await api.call('POST', '/v1/admin/add_member_token_key', { body: { app_id: 'guild', key: withoutAlg } });
    const named = await api.call('GET', '/v1/admin/member_token_keys?app_id=guild');
    expect(named.body.keys[1], 'its algorithm read from its curve').to.deep.include({ kid: 'no-alg', alg: 'ES256' });
    const unnamed = await api.call('GET', '/v1/admin/member_token_keys');
    expect(unnamed.status).to.equal(400);
    expect(unnamed.body.is_valid).to.equal(false);
    const twice = await api.call('POST', '/v1/admin/add_member_token_key', { body: { app_id: 'guild', key: publicJwk } });
    expect(twice.status).to.equal(409);
    const exported = await api.call('GET', '/v1/admin/export?app_id=guild');
    const kids = (exported.body.apps[0].settings.member_token_keys ?? []).map((key: { kid: string }) => key.kid);
    expect(kids).to.include('console-key');
    const removed = await api.call('POST', '/v1/admin/remove_member_token_key', {
      body: { app_id: 'guild', kid: 'console-key' },
    });
    expect(removed.status, removed.text).to.equal(200);
    const gone = await api.call('POST', '/v1/admin/remove_member_token_key', { body: { app_id: 'guild', kid: 'console-key' } });
    expect(gone.status).to.equal(404);
  });

  it('finds members by the start of their name, a page at a time', async () => {
    const first = await api.call('GET', '/v1/admin/members?app_id=guild&prefix=&limit=2');
    expect(first.status, first.text).to.equal(200);
    const second = await api.call('GET', '/v1/admin/members?app_id=guild&prefix=&limit=2&offset=2');
    const names = [...first.body.members, ...second.body.members].map((member: { account_name: string }) => member.account_name);
    expect(names.slice(0, 3)).to.deep.equal(['"><img src=x onerror=alert(1)>\'&', 'alice', 'bob']);
    const bs = await api.call('GET', '/v1/admin/members?app_id=guild&prefix=b');
    expect(bs.body.members.map((member: { account_name: string }) => member.account_name)).to.deep.equal(['bob']);
    const none = await api.call('GET', '/v1/admin/members?app_id=guild&prefix=zz');
    expect(none.body.members).to.deep.equal([]);
    const profile = await api.call('GET', '/v1/admin/member?app_id=guild&account_name=alice');
    expect(profile.body.member.account_name).to.equal('alice');
  });

  it('adjusts progress with a reason, which the audit log keeps with the key and the time', async () => {
    const before = (await api.call('GET', '/v1/get_userinfo?app_id=guild&account_name=carol')).body.total_score;
    clock.now += 60_000;
    const adjusted = await api.call('POST', '/v1/admin/adjust', {
      body: { app_id: 'guild', account_name: 'carol', task_id: GUIDS.checkIn, quantity: 1, reason: 'Checked in at the meetup' },
      headers: { 'idempotency-key': 'adjust-carol' },
    });
    expect(adjusted.status, adjusted.text).to.equal(200);
    const after = (await api.call('GET', '/v1/get_userinfo?app_id=guild&account_name=carol')).body.total_score;
    expect(after).to.equal(before + 5);
    const audit = await api.call('GET', '/v1/admin/audit?app_id=guild');
    expect(audit.status, audit.text).to.equal(200);
    const [newest] = audit.body.entries;
    expect(newest.operation).to.equal('admin/adjust');
    expect(newest.summary).to.include('Checked in at the meetup');
    expect(newest.at).to.equal(WEDNESDAY + 60_000);
    expect(newest.key_prefix).to.match(/^[0-9a-f]{12}$/);
    expect(audit.body.entries.map((entry: { operation: string }) => entry.operation)).to.include('admin/import');
  });

  it('deactivates a member and activates them again', async () => {
    const off = await api.call('POST', '/v1/admin/set_active', { body: { app_id: 'guild', account_name: 'bob', active: false } });
    expect(off.status, off.text).to.equal(200);
    expect((await api.call('GET', '/v1/get_userinfo?app_id=guild&account_name=bob')).body.is_active).to.equal(false);
    await api.call('POST', '/v1/admin/set_active', { body: { app_id: 'guild', account_name: 'bob', active: true } });
    expect((await api.call('GET', '/v1/get_userinfo?app_id=guild&account_name=bob')).body.is_active).to.equal(true);
  });

  it('never writes a key into the audit log', async () => {
    clock.now += 60_000;
    await api.call('POST', '/v1/admin/create_key', { body: { app_id: 'guild', scopes: ['read', 'write'] } });
    const audit = await api.call('GET', '/v1/admin/audit?app_id=guild');
    expect(audit.body.entries[0].operation).to.equal('admin/create_key');
    for (const entry of audit.body.entries) expect(entry.summary).not.to.match(/pk_|sk_/);
  });

  it('keeps a POST of the seasons in the audit log, and not a GET of them', async () => {
    clock.now += 60_000;
    const season = { app_id: 'guild', season_id: '54111111-1111-4111-8111-111111111111', name: 'Spring' };
    const saved = await api.call('POST', '/v1/admin/seasons', {
      body: { ...season, starts_at: new Date(WEDNESDAY).toISOString(), ends_at: new Date(WEDNESDAY + 86_400_000).toISOString() },
    });
    expect(saved.status, saved.text).to.equal(200);
    clock.now += 60_000;
    // A GET that freezes an ended season writes, but is the manager looking, not acting.
    expect((await api.call('GET', '/v1/admin/seasons?app_id=guild')).status).to.equal(200);
    const audit = await api.call('GET', '/v1/admin/audit?app_id=guild');
    const [newest] = audit.body.entries;
    expect([newest.operation, newest.at]).to.deep.equal(['admin/seasons', clock.now - 60_000]);
    expect(newest.summary).to.include('Spring');
  });

  for (const key of ['pk_read', 'pk_write', 'pk_ledger']) {
    it(`refuses ${key} every admin operation`, async () => {
      const calls: [string, string, unknown?][] = [
        ['GET', '/v1/admin/apps'],
        ['GET', '/v1/admin/keys?app_id=guild'],
        ['POST', '/v1/admin/create_key', { app_id: 'guild', scopes: ['read'] }],
        ['GET', '/v1/admin/members?app_id=guild'],
        ['POST', '/v1/admin/adjust', { app_id: 'guild', account_name: 'bob', task_id: GUIDS.checkIn, quantity: 1, reason: 'x' }],
        ['GET', '/v1/admin/audit?app_id=guild'],
        ['GET', '/v1/admin/challenges?app_id=guild'],
        ['GET', '/v1/admin/member_token_keys?app_id=guild'],
      ];
      for (const [method, path, body] of calls) {
        const answer = await api.call(method, path, { key, ...(body ? { body } : {}) });
        expect(answer.status, `${method} ${path}`).to.equal(403);
      }
    });
  }

  it('keeps another app’s admin key out of this app', async () => {
    const answer = await api.call('GET', '/v1/admin/members?app_id=guild', { key: 'pk_other' });
    expect(answer.status).to.equal(403);
  });
});
