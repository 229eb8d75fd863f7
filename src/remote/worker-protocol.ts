// How a page hands the remote setting to the worker that serves it: a message
// with a reply port, so the page knows the setting is kept and in force before
// its next request.
import type { RemoteSettings } from './remote-database.js';
import type { RemoteConfiguration } from './settings.js';

export interface ConfigureRemoteMessage extends RemoteConfiguration {
  type: 'questboard:configure-remote';
}

export type ConfigureRemoteReply =
  { type: 'questboard:remote-configured'; settings: RemoteSettings } | { type: 'questboard:remote-refused'; message: string };

/** Recognises the message by its type only: the worker checks the fields and replies with what is wrong. */
export function isConfigureRemoteMessage(data: unknown): data is ConfigureRemoteMessage {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'questboard:configure-remote';
}

/** A worker that is not ours (a site's own) never replies. */
const REPLY_TIMEOUT_MS = 3_000;

/** Sets the remote of the worker `worker` (usually navigator.serviceWorker.controller); rejects with the worker's reason. */
export function configureWorkerRemote(worker: ServiceWorker, configuration: RemoteConfiguration): Promise<RemoteSettings> {
  const channel = new MessageChannel();
  const reply = new Promise<RemoteSettings>((resolve, reject) => {
    const timer = setTimeout(() => {
      channel.port1.close();
      reject(new Error(`the service worker did not take the remote setting within ${REPLY_TIMEOUT_MS} ms`));
    }, REPLY_TIMEOUT_MS);
    channel.port1.onmessage = (event: MessageEvent<ConfigureRemoteReply>) => {
      clearTimeout(timer);
      channel.port1.close();
      if (event.data.type === 'questboard:remote-configured') resolve(event.data.settings);
      else reject(new TypeError(event.data.message));
    };
  });
  const message: ConfigureRemoteMessage = { type: 'questboard:configure-remote', ...configuration };
  worker.postMessage(message, [channel.port2]);
  return reply;
}
