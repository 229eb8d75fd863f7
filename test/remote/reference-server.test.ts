// The reference server (`npm run serve`) as a browser on another origin sees it.
import { expect } from '@open-wc/testing';
import { createCors } from '../../src/server/cors.js';
import { remoteUrl } from './remote-server.js';

describe('reference server', () => {
  let remote: string;
  before(async () => {
    remote = await remoteUrl();
  });

  it('runs on another origin, on loopback', () => {
    expect(new URL(remote).origin).not.to.equal(location.origin);
    expect(new URL(remote).hostname).to.equal('127.0.0.1');
  });

  it('serves the dataset it was started with', async () => {
    const answer = await fetch(`${remote}/v1/get_userinfo?app_id=guild&account_name=alice`, {
      headers: { Authorization: 'Bearer pk_guild' },
    });
    expect(answer.status).to.equal(200);
    expect((await answer.json()).current_xp).to.equal(5);
  });

  it('lets a cross-origin page send the key, a JSON body and an Idempotency-Key', async () => {
    const answer = await fetch(`${remote}/v1/connect_social`, {
      method: 'POST',
      headers: { Authorization: 'Bearer pk_guild', 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
      body: JSON.stringify({ app_id: 'guild', account_name: 'bob', twitter_name: 'bob_b' }),
    });
    expect(answer.status).to.equal(200);
    expect(await answer.json()).to.deep.equal({ is_valid: true, message: null });
  });

  it('answers a body over 16 KiB with 413 without reading it all, and keeps serving', async () => {
    for (const size of [16 * 1024 + 1, 4 * 1024 * 1024]) {
      const answer = await fetch(`${remote}/v1/connect_social`, {
        method: 'POST',
        headers: { Authorization: 'Bearer pk_guild', 'Content-Type': 'application/json' },
        body: JSON.stringify({ app_id: 'guild', account_name: 'bob', twitter_name: 'x'.repeat(size) }),
      });
      expect(answer.status).to.equal(413);
      expect((await answer.json()).is_valid).to.equal(false);
    }
    const health = await fetch(`${remote}/v1/health`, { headers: { Authorization: 'Bearer pk_guild' } });
    expect(health.status).to.equal(200);
  });

  it('answers an import without a valid key with 401 before reading its body, and keeps serving', async () => {
    const body = JSON.stringify({ apps: [], pad: 'x'.repeat(8 * 1024 * 1024) });
    for (const headers of [{}, { Authorization: 'Bearer sk_nobody' }] as Record<string, string>[]) {
      const answer = await fetch(`${remote}/v1/admin/import`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body,
      });
      expect(answer.status).to.equal(401);
      expect((await answer.json()).is_valid).to.equal(false);
    }
    const health = await fetch(`${remote}/v1/health`);
    expect(health.status).to.equal(200);
  });

  it('writes quantities with four decimals on Node, whose JSON has no rawJSON', async () => {
    const task_id = 'f0000000-0000-4000-8000-000000000002';
    const dataset = {
      apps: [
        {
          app_id: 'formats',
          api_keys: [{ key: 'pk_formats', scopes: ['read'] }],
          users: [{ account_name: 'ann' }],
          challenges: [
            { name: 'c', start_date: '2026-01-01T00:00:00Z', tasks: [{ task_id, name: 't', quantity: 3, operator: 0 }] },
          ],
        },
      ],
    };
    const imported = await fetch(`${remote}/v1/admin/import`, {
      method: 'POST',
      headers: { Authorization: 'Bearer sk_remote_admin', 'Content-Type': 'application/json' },
      body: JSON.stringify(dataset),
    });
    expect(imported.status).to.equal(200);
    const answer = await fetch(`${remote}/v1/get_task_progress?task_id=${task_id}&account_name=ann`, {
      headers: { Authorization: 'Bearer pk_formats' },
    });
    expect(await answer.text()).to.include('"quantity_required":3.0000,"quantity_completed":0.0000');
  });

  it('reads an import past 16 KiB whole: its limit is the import’s own', async () => {
    const users = Array.from({ length: 1_000 }, (_, index) => ({ account_name: `member-${index}` }));
    const dataset = JSON.stringify({ apps: [{ app_id: 'big', api_keys: [{ key: 'pk_big', scopes: ['read'] }], users }] });
    expect(dataset.length).to.be.above(16 * 1024);
    const answer = await fetch(`${remote}/v1/admin/import`, {
      method: 'POST',
      headers: { Authorization: 'Bearer sk_remote_admin', 'Content-Type': 'application/json' },
      body: dataset,
    });
    expect(answer.status).to.equal(200);
    const board = await fetch(`${remote}/v1/get_leaderboard?app_id=big&limit=1`, { headers: { Authorization: 'Bearer pk_big' } });
    expect((await board.json()).total_users).to.equal(1_000);
  });
});

describe('reference server CORS', () => {
  it('allows any origin by default, with the headers a client sends', () => {
    const cors = createCors(['*']);
    const answer = cors.preflight('https://site.example');
    expect(answer.status).to.equal(204);
    expect(answer.headers.get('Access-Control-Allow-Origin')).to.equal('*');
    expect(answer.headers.get('Access-Control-Allow-Headers')).to.equal(
      'Authorization, Content-Type, Idempotency-Key, Last-Event-ID, X-Questboard-Member',
    );
    expect(answer.headers.get('Access-Control-Allow-Methods')).to.contain('POST');
  });

  it('allows only the configured origins when given, naming the origin and varying on it', () => {
    const cors = createCors(['https://site.example', 'https://other.example']);
    const allowed = cors.headersFor('https://other.example');
    expect(allowed.get('Access-Control-Allow-Origin')).to.equal('https://other.example');
    expect(allowed.get('Vary')).to.equal('Origin');
    expect(cors.headersFor('https://evil.example').has('Access-Control-Allow-Origin')).to.equal(false);
    expect(() => cors.checkOrigin('https://evil.example', undefined)).to.throw(/^Not allowed: pages at https:\/\/evil\.example/);
    expect(() => cors.checkOrigin('https://site.example', undefined)).not.to.throw();
  });

  it("lets an app's own list replace the configured origins for its requests", () => {
    const cors = createCors(['*']);
    const appOrigins = ['https://forum.example'];
    expect(cors.headersFor('https://forum.example', appOrigins).get('Access-Control-Allow-Origin')).to.equal(
      'https://forum.example',
    );
    expect(cors.headersFor('https://site.example', appOrigins).has('Access-Control-Allow-Origin')).to.equal(false);
    expect(() => cors.checkOrigin('https://site.example', appOrigins)).to.throw(/allowed_origins/);
  });

  it('lets any origin preflight, since a preflight names no key: the request that follows is checked', () => {
    const cors = createCors(['https://site.example']);
    const answer = cors.preflight('https://evil.example');
    expect(answer.headers.get('Access-Control-Allow-Origin')).to.equal('https://evil.example');
    expect(answer.headers.get('Vary')).to.equal('Origin');
    expect(answer.headers.get('Access-Control-Allow-Headers')).to.contain('Authorization');
  });
});
