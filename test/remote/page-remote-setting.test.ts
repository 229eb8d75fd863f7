// The remote as pages set it with Questboard.configure(): refused unless https: (or this machine).
import { expect } from '@open-wc/testing';
import { deleteDB } from 'idb';
import { configure, currentConfig } from '../../src/client/index.js';
import { readScriptConfig } from '../../src/embed/script-config.js';
import { API_KEY } from '../components/support.js';

const PAGE_DEFAULTS = { apiKey: API_KEY, transport: undefined, baseUrl: undefined, timeoutMs: undefined };

describe('the remote setting of the pages', () => {
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
});
