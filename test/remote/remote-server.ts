// Drives the reference server the test runner started (scripts/wtr-remote-server.js).
import { executeServerCommand } from '@web/test-runner-commands';
import type { ReceivedRequest } from '../hosts/test-hooks.js';

export const remoteUrl = () => executeServerCommand<string, { action: string }>('remote-server', { action: 'url' });

/** Stops the server: calls to it now fail with a network error. */
export async function stopRemote(): Promise<void> {
  await executeServerCommand('remote-server', { action: 'stop' });
}

/** Starts it again, same URL, its dataset loaded afresh. */
export async function startRemote(): Promise<void> {
  await executeServerCommand('remote-server', { action: 'start' });
}

export async function receivedRequests(remote: string): Promise<ReceivedRequest[]> {
  const answer = await fetch(`${remote}/_test/requests`);
  return ((await answer.json()) as { requests: ReceivedRequest[] }).requests;
}

/** Forgets the requests received so far and ends an injected fault. */
export async function resetRemote(remote: string): Promise<void> {
  const answer = await fetch(`${remote}/_test/reset`, { method: 'POST' });
  if (!answer.ok) throw new Error(`resetting the test hooks failed: ${answer.status}`);
}

/** Every /v1 call (or, given `path`, every call to it) answers `status` until resetRemote. */
export async function injectFault(remote: string, status: number, path?: string): Promise<void> {
  const answer = await fetch(`${remote}/_test/fault`, { method: 'POST', body: JSON.stringify({ status, path }) });
  if (!answer.ok) throw new Error(`injecting a fault failed: ${answer.status}`);
}

/** Ends every event stream the server has open, as a proxy that cuts long connections would. */
export async function endEventStreams(remote: string): Promise<void> {
  const answer = await fetch(`${remote}/_test/end-streams`, { method: 'POST' });
  if (!answer.ok) throw new Error(`ending the event streams failed: ${answer.status}`);
}

/** How many event streams the server's change feed still serves. */
export async function openSubscriptions(remote: string): Promise<number> {
  const answer = await fetch(`${remote}/_test/subscriptions`);
  return ((await answer.json()) as { subscriptions: number }).subscriptions;
}
