// Every operation is served at /v1/<operation>, below wherever the API is mounted: a server's
// root, a worker's scope, a page's base. The handler, the remote strategy and the clients that
// build URLs read it here.

const API_PREFIX = '/v1/';

/**
 * The operation a request to `url` names: what follows the last /v1/ of its path (`get_userinfo`,
 * `admin/import`), or null for a path outside the API.
 */
export function operationOf(url: URL): string | null {
  const at = url.pathname.lastIndexOf(API_PREFIX);
  return at === -1 ? null : url.pathname.slice(at + API_PREFIX.length);
}

/** Where every operation's URL starts below `base`, a worker's scope (which ends in /): <base>v1/. */
export function apiRootBelow(base: string): string {
  return new URL(API_PREFIX.slice(1), base).href;
}

/** The path of `operation` below the API's mount point: /v1/<operation>. */
export function operationPath(operation: string): string {
  return `${API_PREFIX}${operation}`;
}
