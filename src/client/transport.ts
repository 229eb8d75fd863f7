/** Where a request goes: a service worker or remote server over fetch, or the handler inside the page. */
export interface Transport {
  readonly kind: 'service-worker' | 'remote' | 'in-page';
  /** Also the coalescing key: two transports with one id answer the same. */
  readonly id: string;
  /**
   * True when the other end announces its own committed writes on the `questboard`
   * BroadcastChannel; the client announces writes itself through transports that do not.
   */
  readonly announcesChanges: boolean;
  /** `path` is relative to the API root and starts with `v1/`. */
  send(path: string, init: RequestInit): Promise<Response>;
}
