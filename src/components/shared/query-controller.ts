import { html, type ReactiveController, type ReactiveControllerHost, type TemplateResult } from 'lit';
import type { QuestboardClient } from '../../client/client.js';
import { subscribeToChanges, type ChangeNotice } from '../../client/changes.js';
import { onConfigure, type ClientOverrides } from '../../client/config.js';
import { followRemoteChanges } from '../../client/remote-changes.js';
import type { Translator } from '../../i18n/messages.js';
import {
  failureMessage,
  renderEmpty,
  renderError,
  renderKept,
  renderLoading,
  type FailureId,
  type FailureValues,
} from './status.js';

export type QueryState<T> =
  | { status: 'idle' }
  | { status: 'loading' }
  /** keptAt: when the remote last gave the oldest answer shown, if any came from the kept copy. */
  | { status: 'ready'; value: T; keptAt: number | null }
  | { status: 'error'; error: Error };

/** What an element shows in each state: the same loading, error (with retry) and kept-answer notice everywhere. */
export interface QueryView<T> {
  /** Shown while a required input is missing. */
  idle: unknown;
  /** Shown while loading, as "Loading the leaderboard…". */
  loading: unknown;
  /** Says the load failed, as "Could not load the leaderboard.", with the values its message takes. */
  failed: FailureId;
  failedValues?: FailureValues;
  ready(value: T): unknown;
}

export interface QueryOptions<T> {
  /** The inputs the data depends on, or null while a required one is missing. */
  args(): readonly unknown[] | null;
  load(client: QuestboardClient): Promise<T>;
  /** Whether a committed write may have changed what this query shows. */
  affectedBy(change: ChangeNotice): boolean;
  /** The app this query shows, whose changes a configured remote server streams to the page. */
  appId?(): string;
}

/**
 * Loads data for an element and keeps it current: again when its inputs change, when
 * Questboard.configure() runs, and when a write anywhere (this page, another tab, the worker,
 * or another browser through the remote server) touches it. A refresh keeps showing the
 * previous answer until the new one arrives.
 */
export class QueryController<T> implements ReactiveController {
  state: QueryState<T> = { status: 'idle' };
  private lastArgs: string | undefined;
  private generation = 0;
  private unsubscribe: Array<() => void> = [];
  private stopFollowing = () => {};

  constructor(
    private readonly host: ReactiveControllerHost & { client(): Promise<QuestboardClient>; clientOverrides(): ClientOverrides },
    private readonly options: QueryOptions<T>,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.unsubscribe = [
      subscribeToChanges((change) => {
        if (this.state.status !== 'idle' && this.options.affectedBy(change)) void this.run({ quiet: true });
      }),
      onConfigure(({ connection }) => {
        if (connection) void this.run({ quiet: false });
      }),
    ];
    // Reconnected elements load again: they heard no changes while detached.
    this.lastArgs = undefined;
    this.host.requestUpdate();
  }

  hostDisconnected(): void {
    for (const stop of this.unsubscribe) stop();
    this.unsubscribe = [];
    this.stopFollowing();
    this.stopFollowing = () => {};
    this.generation++;
  }

  hostUpdate(): void {
    const args = JSON.stringify(this.options.args());
    if (args === this.lastArgs) return;
    this.lastArgs = args;
    this.followRemoteChanges();
    void this.run({ quiet: false });
  }

  /** Follows the app the inputs now name, if they are complete. */
  private followRemoteChanges(): void {
    this.stopFollowing();
    const appId = this.options.args() === null ? undefined : this.options.appId?.();
    this.stopFollowing = appId ? followRemoteChanges(appId, this.host.clientOverrides()) : () => {};
  }

  /** Loads again now; `quiet` keeps the current answer on screen meanwhile. */
  async run({ quiet }: { quiet: boolean }): Promise<void> {
    const generation = ++this.generation;
    if (this.options.args() === null) {
      this.setState({ status: 'idle' });
      return;
    }
    if (!quiet || this.state.status !== 'ready') this.setState({ status: 'loading' });
    try {
      let keptAt: number | null = null;
      const client = (await this.host.client()).observing((answerKeptAt) => {
        if (answerKeptAt !== null) keptAt = Math.min(keptAt ?? answerKeptAt, answerKeptAt);
      });
      const value = await this.options.load(client);
      if (generation === this.generation) this.setState({ status: 'ready', value, keptAt });
    } catch (error) {
      if (generation === this.generation) {
        this.setState({ status: 'error', error: error instanceof Error ? error : new Error(String(error)) });
      }
    }
  }

  /** The element's content for the current state in `t`'s words; `ready` draws the data, below the kept-answer notice. */
  render(t: Translator, { idle, loading, failed, failedValues, ready }: QueryView<T>): TemplateResult {
    const state = this.state;
    switch (state.status) {
      case 'idle':
        return renderEmpty(idle);
      case 'loading':
        return renderLoading(loading);
      case 'error':
        return renderError(t, failureMessage(t, failed, state.error, failedValues), () => void this.run({ quiet: false }));
      case 'ready':
        return html`${renderKept(t, state.keptAt)}${ready(state.value)}`;
    }
  }

  /** Replaces the loaded answer with one the element extended itself ("load more"). */
  replaceValue(value: T): void {
    if (this.state.status === 'ready') this.setState({ ...this.state, value });
  }

  private setState(state: QueryState<T>): void {
    this.state = state;
    this.host.requestUpdate();
  }
}
