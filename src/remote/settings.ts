import type { RemoteDatabase, RemoteSettings } from './remote-database.js';

export const DEFAULT_TIMEOUT_MS = 5_000;

export const LOCAL_ONLY: RemoteSettings = { remote: null, timeout_ms: DEFAULT_TIMEOUT_MS };

/** What a page asks for: `Questboard.configure({ remote, timeoutMs })` or the embed's `data-remote`. */
export interface RemoteConfiguration {
  remote: string | null;
  timeoutMs?: number;
}

/** The URL parser has already put IPv4 in dotted decimal (127.1 → 127.0.0.1) and IPv6 in its shortest form. */
const isLoopback = (hostname: string) =>
  hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);

/** Checks a configuration and puts it in the stored form; throws a TypeError saying what is wrong. */
export function toRemoteSettings(configuration: RemoteConfiguration): RemoteSettings {
  const timeout_ms = configuration.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(timeout_ms) || timeout_ms <= 0) {
    throw new TypeError(`timeoutMs must be a whole number of milliseconds above 0, got ${String(configuration.timeoutMs)}`);
  }
  if (configuration.remote === null || configuration.remote === '') return { remote: null, timeout_ms };
  let url: URL;
  try {
    url = new URL(configuration.remote);
  } catch {
    throw new TypeError(`remote must be an absolute http(s) URL, got "${configuration.remote}"`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.search !== '' || url.hash !== '') {
    throw new TypeError(`remote must be an http(s) URL without query or fragment, got "${configuration.remote}"`);
  }
  // Members' API keys and writes go there: in the clear, only to this machine.
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    throw new TypeError(
      `remote must be an https: URL (http: only for localhost, 127.0.0.0/8 or [::1]), got "${configuration.remote}"`,
    );
  }
  return { remote: url.href.replace(/\/+$/, ''), timeout_ms };
}

export async function readSettings(db: RemoteDatabase): Promise<RemoteSettings> {
  return (await db.get('settings', 'remote')) ?? LOCAL_ONLY;
}

export async function writeSettings(db: RemoteDatabase, settings: RemoteSettings): Promise<void> {
  await db.put('settings', settings, 'remote');
}
