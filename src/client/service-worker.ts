import { questboardPolicy } from './trusted-types.js';

/** How long a freshly registered worker gets to take control of the page. */
const CONTROL_TIMEOUT_MS = 3000;

export type WorkerConnection = { scope: URL } | { scope: null; reason: string };

/**
 * Makes the Questboard worker at `scriptUrl` serve this page, without ever replacing a worker
 * the site already has: it registers only a same-origin script, only where no other script is
 * registered at that scope, and gives up (so the caller can fall back) when the worker does
 * not control the page soon. A site's own worker that pulls ours in with importScripts() is
 * recognised by its /v1/health answer.
 */
export async function connectServiceWorker(scriptUrl: string, apiKey: string): Promise<WorkerConnection> {
  if (location.protocol === 'file:') return { scope: null, reason: 'file:// pages cannot have a service worker' };
  if (!('serviceWorker' in navigator) || !isSecureContext) {
    return { scope: null, reason: 'service workers are unavailable here' };
  }
  const script = new URL(scriptUrl, document.baseURI);
  if (script.origin !== location.origin) {
    return { scope: null, reason: `the worker URL ${script.href} is not on this origin` };
  }
  const scope = new URL('./', script);
  // A returning visitor's page is already ours: asking the browser for registrations would only delay its first request.
  if (navigator.serviceWorker.controller?.scriptURL === script.href) return { scope };
  const existing = await navigator.serviceWorker.getRegistration(scope.href);
  const existingScript = existing && (existing.active ?? existing.waiting ?? existing.installing)?.scriptURL;
  if (existing && existing.scope === scope.href && existingScript && existingScript !== script.href) {
    if (await answersQuestboard(scope, apiKey)) return { scope };
    return { scope: null, reason: `the site's own worker ${existingScript} is registered at ${scope.href}` };
  }
  try {
    await navigator.serviceWorker.register(questboardPolicy().createScriptURL(script.href) as string);
  } catch (error) {
    return {
      scope: null,
      reason: `registering ${script.href} failed: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  if (await controlledBy(script.href)) return { scope };
  return { scope: null, reason: `${script.href} did not take control of this page` };
}

function controlledBy(scriptUrl: string): Promise<boolean> {
  const isOurs = () => navigator.serviceWorker.controller?.scriptURL === scriptUrl;
  if (isOurs()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const finish = (result: boolean) => {
      clearTimeout(timer);
      navigator.serviceWorker.removeEventListener('controllerchange', onChange);
      resolve(result);
    };
    const onChange = () => {
      if (isOurs()) finish(true);
    };
    const timer = setTimeout(() => finish(false), CONTROL_TIMEOUT_MS);
    navigator.serviceWorker.addEventListener('controllerchange', onChange);
  });
}

async function answersQuestboard(scope: URL, apiKey: string): Promise<boolean> {
  if (!navigator.serviceWorker.controller) return false;
  try {
    const response = await fetch(new URL('v1/health', scope), { headers: { authorization: `Bearer ${apiKey}` } });
    const body = (await response.json()) as { is_valid?: unknown; version?: unknown };
    return body.is_valid === true && typeof body.version === 'string';
  } catch {
    return false;
  }
}
