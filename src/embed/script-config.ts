import { checkRemote, type QuestboardConfig } from '../client/config.js';

/** The page-wide settings a site owner writes on the embed's own <script> tag. */
export function readScriptConfig(script: HTMLOrSVGScriptElement | null): QuestboardConfig {
  const data = script instanceof HTMLScriptElement ? script.dataset : {};
  const config: QuestboardConfig = {};
  if (data.apiKey) config.apiKey = data.apiKey;
  if (data.baseUrl) config.baseUrl = data.baseUrl;
  if (data.serviceWorker) config.serviceWorker = data.serviceWorker;
  if (data.remote) config.remote = data.remote;
  if (data.timeoutMs && /^\d+$/.test(data.timeoutMs)) config.timeoutMs = Number(data.timeoutMs);
  if (data.persistStorage !== undefined && data.persistStorage !== 'false') config.persistStorage = true;
  // Said and left out, rather than thrown, so the elements still work (served locally).
  try {
    checkRemote(config);
  } catch (error) {
    console.error(`[questboard] data-remote not used: ${(error as Error).message}`);
    delete config.remote;
  }
  return config;
}
