import { canonicalLanguageTag } from '../api/formats.js';
import { elements as english } from '../i18n/catalogs/en.js';
import type { SiteMessages } from '../i18n/messages.js';
import { QuestboardClient } from './client.js';
import { fetchTransport } from './fetch-transport.js';
import { createInPageTransport, type InPageServerLoader } from './in-page-transport.js';
import { MemberTokens, type MemberTokenOption } from './member-token.js';
import { connectServiceWorker } from './service-worker.js';
import { toRemoteSettings, type RemoteConfiguration } from '../remote/settings.js';
import { configureWorkerRemote } from '../remote/worker-protocol.js';
import type { Transport } from './transport.js';
import type { Theme } from '../ui/theme.js';

export interface QuestboardConfig {
  /** The public API key (`pk_…`) every request carries. */
  apiKey?: string;
  /** Where the API answers (its `v1/` lives under this URL): a worker scope on this origin or a server. */
  baseUrl?: string;
  /** URL of questboard-sw.js on this site's origin, or `'none'` to never register a worker. */
  serviceWorker?: string;
  /**
   * A Questboard server that answers first, through the worker or the in-page handler, whose
   * local store stands in while it cannot be reached (and keeps the writes for later).
   * An https: URL; http: only for localhost, 127.0.0.0/8 and [::1].
   */
  remote?: string;
  /** How long to wait for the remote before the local store answers, in ms. */
  timeoutMs?: number;
  /** Ask the browser to keep this origin's data (navigator.storage.persist()); an opt-in. */
  persistStorage?: boolean;
  /** Use this transport and skip every decision above (tests, custom hosts). */
  transport?: Transport;
  /**
   * The colour scheme of every element and leaderboard container that does not set its own
   * `theme`: `auto` (the default) follows the page's `color-scheme` where it names one, else the OS.
   */
  theme?: Theme;
  /**
   * The signed-in member's token, signed by the site's backend, or a function (plain or async)
   * giving it; none (or null from the function) while no member is signed in. Sent as
   * X-Questboard-Member with endorse_account and connect_social, which a key with the `member`
   * scope may make only as that member. A function is asked again, once, when an answer says
   * the token has expired. Configure it again when the member signs in or out.
   */
  memberToken?: MemberTokenOption;
  /**
   * The language (a BCP 47 tag) of elements and leaderboards on a page that says none: an
   * element's nearest `lang`, and the document's, come first; the browser's comes after.
   */
  locale?: string;
  /**
   * A site's own words, by language tag and message id (MessageId, English's catalog lists
   * them): they take the place of the shipped ones, or add a language Questboard lacks.
   * Replaced as a whole by the next configure() that names `messages`.
   */
  messages?: SiteMessages;
}

/** What a configure() call changed, for its listeners. */
export interface ConfigureChange {
  /** Whether it touched where data comes from (anything but the display settings): elements load again. */
  connection: boolean;
}

/** Settings that change how elements look, not where their data comes from: setting only these reloads nothing. */
const DISPLAY_SETTINGS: ReadonlySet<string> = new Set<keyof QuestboardConfig>(['theme']);

/** Per-element overrides, from the `api-key` and `base-url` attributes. */
export interface ClientOverrides {
  apiKey?: string | undefined;
  baseUrl?: string | undefined;
}

export interface ResolvedTransport {
  transport: Transport;
  /** Why this transport: printed by the embed in its one console line. */
  reason: string;
}

let config: QuestboardConfig = {};
let inPageServerLoader: InPageServerLoader | undefined;
let defaultTransport: Promise<ResolvedTransport> | undefined;
const clients = new Map<string, QuestboardClient>();
/** The page's member token, asked of the page once for all its elements' clients. */
let memberTokens = new MemberTokens(undefined);
const transportsByBaseUrl = new Map<string, Transport>();
const configureListeners = new Set<(change: ConfigureChange) => void>();

/**
 * Sets page-wide settings, merged into the current ones (a field set to undefined clears
 * it); elements already on the page load again with them. Throws a TypeError, leaving the
 * settings as they were, for a remote the worker and the in-page handler would refuse, and
 * for a locale or a language of `messages` that is not a BCP 47 tag.
 */
export function configure(settings: QuestboardConfig): void {
  const next = { ...config, ...settings };
  checkRemote(next);
  if (next.locale !== undefined) next.locale = languageTagOf(next.locale, 'locale');
  if (next.messages !== undefined) {
    next.messages = Object.fromEntries(
      Object.entries(next.messages).map(([tag, messages]) => [languageTagOf(tag, `messages['${tag}']`), messages]),
    );
  }
  config = next;
  const keys = Object.keys(settings);
  const change: ConfigureChange = { connection: keys.length === 0 || keys.some((key) => !DISPLAY_SETTINGS.has(key)) };
  // A member signing in or out changes who writes, not where requests go: the transport stays.
  const signInOrOut = keys.length === 1 && keys[0] === 'memberToken';
  if (change.connection && !signInOrOut) {
    defaultTransport = undefined;
    transportsByBaseUrl.clear();
  }
  if ('memberToken' in settings) memberTokens = new MemberTokens(config.memberToken);
  if (change.connection) clients.clear();
  if (config.persistStorage) void navigator.storage?.persist?.();
  for (const listener of [...configureListeners]) listener(change);
}

/**
 * Where the in-page transport gets the handler from: the ES entry passes this package's own
 * modules, the script-tag embed a loader of the file next to it.
 */
export function setInPageServerLoader(loader: InPageServerLoader): void {
  inPageServerLoader = loader;
}

export function currentConfig(): Readonly<QuestboardConfig> {
  return config;
}

export function onConfigure(listener: (change: ConfigureChange) => void): () => void {
  configureListeners.add(listener);
  return () => configureListeners.delete(listener);
}

/** The transport the page-wide configuration leads to, decided once per configure(). */
export function resolveTransport(): Promise<ResolvedTransport> {
  defaultTransport ??= decideTransport(config);
  return defaultTransport;
}

async function decideTransport(settings: QuestboardConfig): Promise<ResolvedTransport> {
  if (settings.transport) return { transport: settings.transport, reason: 'configured' };
  if (settings.baseUrl) return { transport: transportForBaseUrl(settings.baseUrl), reason: 'configured baseUrl' };
  const remote = remoteConfiguration(settings);
  let fallbackReason = 'no service worker configured';
  if (settings.serviceWorker && settings.serviceWorker !== 'none') {
    const connection = await connectServiceWorker(settings.serviceWorker, settings.apiKey ?? '');
    if (connection.scope) {
      const transport = fetchTransport(connection.scope, 'service-worker');
      const controller = navigator.serviceWorker.controller;
      if (!controller) return { transport, reason: 'worker controls this page' };
      // Every page sends its remote, or none to clear it: the worker keeps the setting, which must follow the site.
      try {
        const kept = await configureWorkerRemote(controller, remote ?? { remote: null });
        return {
          transport,
          reason: kept.remote === null ? 'worker controls this page' : `worker controls this page, remote ${kept.remote} first`,
        };
      } catch (error) {
        return {
          transport,
          reason: `worker controls this page, remote not ${remote ? 'set' : 'cleared'}: ${(error as Error).message}`,
        };
      }
    }
    fallbackReason = connection.reason;
  } else if (settings.serviceWorker === 'none') {
    fallbackReason = 'service worker disabled';
  }
  if (!inPageServerLoader) throw new Error(`No Questboard transport: ${fallbackReason}, and no in-page server is available.`);
  const transport = createInPageTransport(inPageServerLoader, remote ? { remote } : {});
  return { transport, reason: remote ? `${fallbackReason}; remote ${remote.remote} first` : fallbackReason };
}

/** The canonical form of a language tag a site gave, as the elements compare them. */
function languageTagOf(tag: string, where: string): string {
  const canonical = canonicalLanguageTag(tag);
  if (canonical === null)
    throw new TypeError(`${where}: ${JSON.stringify(tag)} is not a BCP 47 language tag, such as de or pt-BR.`);
  return canonical;
}

/** Throws the TypeError the worker and the in-page handler would answer, for a remote they refuse. */
export function checkRemote(settings: QuestboardConfig): void {
  const remote = remoteConfiguration(settings);
  if (remote) toRemoteSettings(remote);
}

function remoteConfiguration(settings: QuestboardConfig): RemoteConfiguration | undefined {
  if (!settings.remote) return undefined;
  return settings.timeoutMs === undefined
    ? { remote: settings.remote }
    : { remote: settings.remote, timeoutMs: settings.timeoutMs };
}

function transportForBaseUrl(baseUrl: string): Transport {
  let transport = transportsByBaseUrl.get(baseUrl);
  if (!transport) {
    const servedByWorker = new URL(baseUrl, document.baseURI).origin === location.origin && !!navigator.serviceWorker?.controller;
    transport = fetchTransport(baseUrl, servedByWorker ? 'service-worker' : 'remote');
    transportsByBaseUrl.set(baseUrl, transport);
  }
  return transport;
}

/**
 * The client for an element: the page-wide configuration with the element's overrides.
 * Elements with the same settings share one client, so their identical requests coalesce.
 */
export async function clientFor(overrides: ClientOverrides = {}): Promise<QuestboardClient> {
  const apiKey = apiKeyFor(overrides);
  if (!apiKey) throw new MissingApiKeyError();
  const transport = overrides.baseUrl ? transportForBaseUrl(overrides.baseUrl) : (await resolveTransport()).transport;
  const key = `${transport.id}\n${apiKey}`;
  let client = clients.get(key);
  if (!client) {
    client = new QuestboardClient({ transport, apiKey, memberToken: memberTokens });
    clients.set(key, client);
  }
  return client;
}

/**
 * Who the page's member token says is signed in (its `sub`), or null while no member is: read,
 * not verified, so for what an element shows only. The API checks the token with every write.
 */
export function signedInMember(): Promise<string | null> {
  return memberTokens.member();
}

/** The key an element's requests carry: its own, else the page's. */
export function apiKeyFor(overrides: ClientOverrides): string | undefined {
  return overrides.apiKey || config.apiKey;
}

/**
 * The remote server that answers an element's requests first (through the worker or the in-page
 * handler), in its stored form, or null: none is configured, or the element's requests go elsewhere.
 */
export function remoteFor(overrides: ClientOverrides): string | null {
  const remote = remoteConfiguration(config);
  if (!remote || config.transport || config.baseUrl || overrides.baseUrl) return null;
  return toRemoteSettings(remote).remote;
}

/** Thrown in English, for the developer; an element says it in its own language (the same message id). */
export class MissingApiKeyError extends Error {
  override readonly name = 'MissingApiKeyError';
  constructor() {
    super(english['error.noApiKey']);
  }
}
