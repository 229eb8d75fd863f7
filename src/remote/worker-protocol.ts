// How a page hands the remote setting to the worker that serves it: a message
// with a reply port, so the page knows the setting is kept and in force before
// its next request.
import type { RemoteSettings } from './remote-database.js';
import type { RemoteConfiguration } from './settings.js';

export interface ConfigureRemoteMessage extends RemoteConfiguration {
  type: 'questboard:configure-remote';
}

export type ConfigureRemoteReply =
  | { type: 'questboard:remote-configured'; settings: RemoteSettings }
  | { type: 'questboard:remote-refused'; message: string };

export function isConfigureRemoteMessage(data: unknown): data is ConfigureRemoteMessage {
  const message = data as Partial<ConfigureRemoteMessage> | null;
  return (
    typeof message === 'object' &&
    message !== null &&
    message.type === 'questboard:configure-remote' &&
    (message.remote === null || typeof message.remote === 'string') &&
    (message.timeoutMs === undefined || typeof message.timeoutMs === 'number')
  );
}

/** Sets the remote of the worker `worker` (usually navigator.serviceWorker.controller); rejects with the worker's reason. */
export function configureWorkerRemote(worker: ServiceWorker, configuration: RemoteConfiguration): Promise<RemoteSettings> {
  const channel = new MessageChannel();
  const reply = new Promise<RemoteSettings>((resolve, reject) => {
    channel.port1.onmessage = (event: MessageEvent<ConfigureRemoteReply>) => {
      channel.port1.close();
      if (event.data.type === 'questboard:remote-configured') resolve(event.data.settings);
      else reject(new TypeError(event.data.message));
    };
  });
  const message: ConfigureRemoteMessage = { type: 'questboard:configure-remote', ...configuration };
  worker.postMessage(message, [channel.port2]);
  return reply;
}
