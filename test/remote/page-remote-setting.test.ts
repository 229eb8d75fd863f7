// The remote as pages set it with Questboard.configure(): refused unless https: (or this
// machine), and following the site: every page that configures Questboard sends its remote,
// or none, to the worker or the in-page handler that keeps it.
import { expect } from '@open-wc/testing';
import { deleteDB, openDB } from 'idb';
import { configure, currentConfig, resolveTransport, type InPageTransport } from '../../src/client/index.js';
import { readScriptConfig } from '../../src/embed/script-config.js';
import { API_KEY } from '../components/support.js';
import { receivedRequests, remoteUrl, resetRemote } from './remote-server.js';

const PAGE_DEFAULTS = { apiKey: API_KEY, transport: undefined, baseUrl: undefined, timeoutMs: undefined };

/** What a page of the site does: configure Questboard, then wait for its transport. */
async function loadPage(settings: { serviceWorker: string; remote?: string }) {
  configure({ ...PAGE_DEFAULTS, remote: undefined, ...settings });
  return resolveTransport();
}

async function keptRemote(): Promise<string | null | undefined> {
  const db = await openDB('questboard-remote');
  const settings = (await db.get('settings', 'remote')) as { remote: string | null } | undefined;
  db.close();
  return settings?.remote;
}

describe('the remote setting of the pages', () => {
  let remote: string;
  const remotePaths = async () => (await receivedRequests(remote)).map((r) => r.path);

  before(async () => {
    remote = await remoteUrl();
  });

  beforeEach(async () => {
    await resetRemote(remote);
  });

  afterEach(async () => {
    configure({ ...PAGE_DEFAULTS, apiKey: undefined, serviceWorker: undefined, remote: undefined });
    for (const registration of await navigator.serviceWorker.getRegistrations()) await registration.unregister();
    await deleteDB('questboard-remote');
    await deleteDB('questboard');
  });

  it('refuses an http: remote other than this machine where it is configured, keeping the settings as they were', () => {
    configure({ ...PAGE_DEFAULTS, serviceWorker: 'none', remote: 'https://api.example.com' });
    expect(() => configure({ remote: 'http://api.example.com' })).to.throw(TypeError, 'https:');
    expect(currentConfig().remote).to.equal('https://api.example.com');
    // This machine stays allowed: the reference server of these tests is on 127.0.0.1.
    expect(() => configure({ remote: 'http://localhost:8787' })).not.to.throw();
  });

  it("says why the embed's data-remote is refused, and leaves it out so the elements still load", () => {
    const script = document.createElement('script');
    script.dataset.apiKey = API_KEY;
    script.dataset.remote = 'http://api.example.com';
    const logged: unknown[][] = [];
    const consoleError = console.error;
    console.error = (...line: unknown[]) => logged.push(line);
    try {
      expect(readScriptConfig(script)).to.deep.equal({ apiKey: API_KEY });
    } finally {
      console.error = consoleError;
    }
    expect(String(logged[0])).to.contain('data-remote not used').and.to.contain('https:');
  });

  it('is cleared by a page of the site that configures no remote, and set again by the next that configures one (worker)', async () => {
    const served = () => fetch('/v1/health', { headers: { Authorization: `Bearer ${API_KEY}` } });

    expect((await loadPage({ serviceWorker: '/questboard-sw.js', remote })).reason).to.equal(
      `worker controls this page, remote ${remote} first`,
    );
    await served();
    expect(await remotePaths()).to.deep.equal(['/v1/health']);

    expect((await loadPage({ serviceWorker: '/questboard-sw.js' })).reason).to.equal('worker controls this page');
    expect((await served()).status).to.equal(200);
    expect(await remotePaths()).to.deep.equal(['/v1/health']);
    expect(await keptRemote(), 'a worker that restarts must not find it either').to.equal(null);

    await loadPage({ serviceWorker: '/questboard-sw.js', remote });
    await served();
    expect(await remotePaths()).to.deep.equal(['/v1/health', '/v1/health']);
    expect(await keptRemote()).to.equal(remote);
  });

  it('is cleared by a page of the site that configures no remote (in-page handler)', async () => {
    const served = async () => {
      const { transport } = await resolveTransport();
      const answer = await transport.send('v1/health', { headers: { Authorization: `Bearer ${API_KEY}` } });
      await (transport as InPageTransport).close();
      return answer;
    };

    await loadPage({ serviceWorker: 'none', remote });
    await served();
    expect(await remotePaths()).to.deep.equal(['/v1/health']);

    await loadPage({ serviceWorker: 'none' });
    expect((await served()).status).to.equal(200);
    expect(await remotePaths()).to.deep.equal(['/v1/health']);
    expect(await keptRemote()).to.equal(null);
  });
});
