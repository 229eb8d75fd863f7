// PLACEHOLDER: the real handler is being written; signature is fixed.
import type { Store } from '../store/index.js';

/** What a write changed, so hosts can tell pages to refresh (BroadcastChannel 'questboard'). */
export interface ChangeNotice {
  type: 'questboard:change';
  app_id: string;
  /** Members whose totals changed; empty when the whole app changed (an import). */
  account_names: string[];
}

export interface HandlerOptions {
  store: Store;
  /** The clock; tests pin it. */
  now?: () => Date;
  /** Called after every write that committed. */
  onChange?: (change: ChangeNotice) => void;
}

export type Handle = (request: Request) => Promise<Response>;

export function createHandler(_options: HandlerOptions): Handle {
  return async () => new Response('{"is_valid":false,"message":"not implemented"}', { status: 501 });
}
