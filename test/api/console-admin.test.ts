// What the console signs in and imports with, on every store: GET /v1/admin/apps (the apps a key
// manages) and an import's dry run, which says what it would change and keeps none of it.
import { expect } from '@open-wc/testing';
import { ADMIN_KEY, WEDNESDAY, dataset, localApi, seed } from './support.js';

describe('the admin API the console signs in and imports with', () => {
  let api: ReturnType<typeof localApi>;
  beforeEach(async () => {
    api = localApi({ now: WEDNESDAY });
    expect((await seed(api.call, WEDNESDAY)).status).to.equal(200);
  });
  afterEach(() => api.close());

  it('lists every app to an installation key, and its own app to an app’s admin key', async () => {
    const all = await api.call('GET', '/v1/admin/apps', { key: ADMIN_KEY });
    expect(all.status, all.text).to.equal(200);
    expect(all.body.apps.map((app: { app_id: string }) => app.app_id)).to.deep.equal(['guild', 'other']);
    const guild = all.body.apps[0];
    expect(guild.member_count).to.equal(dataset(WEDNESDAY).apps[0]!.users!.length);
    const own = await api.call('GET', '/v1/admin/apps', { key: 'pk_guild_admin' });
    expect(own.body.apps.map((app: { app_id: string }) => app.app_id)).to.deep.equal(['guild']);
  });

  it('refuses a key that is not an admin key', async () => {
    expect((await api.call('GET', '/v1/admin/apps', { key: 'sk_nobody' })).status).to.equal(401);
    expect((await api.call('GET', '/v1/admin/apps', { key: 'pk_read' })).status).to.be.oneOf([401, 403]);
  });

  it('says what an import would change in a dry run, and keeps none of it', async () => {
    const before = await api.call('GET', '/v1/admin/export?app_id=guild');
    const incoming = {
      apps: [
        { app_id: 'guild', users: [{ account_name: 'newcomer' }] },
        { app_id: 'fresh', name: 'Fresh', users: [{ account_name: 'first' }, { account_name: 'second' }] },
      ],
    };
    const dryRun = await api.call('POST', '/v1/admin/import?dry_run=true', { body: incoming });
    expect(dryRun.status, dryRun.text).to.equal(200);
    expect(dryRun.body.dry_run).to.equal(true);
    const [guild, fresh] = dryRun.body.changes;
    expect(guild.app_id).to.equal('guild');
    expect(guild.new_app).to.equal(false);
    expect(guild.members_after).to.equal(guild.members_before + 1);
    expect(fresh).to.include({ app_id: 'fresh', new_app: true, members_before: 0, members_after: 2 });
    // Nothing of it was kept.
    expect((await api.call('GET', '/v1/admin/export?app_id=fresh')).status).to.equal(404);
    expect((await api.call('GET', '/v1/admin/export?app_id=guild')).body).to.deep.equal(before.body);
    expect((await api.call('GET', '/v1/get_userinfo?app_id=guild&account_name=newcomer')).status).to.equal(404);
  });

  it('refuses a dry_run that is not true or false, naming it', async () => {
    const answer = await api.call('POST', '/v1/admin/import?dry_run=yes', { body: { apps: [] } });
    expect(answer.status).to.equal(400);
    expect(answer.body.message).to.match(/^dry_run/);
  });
});
