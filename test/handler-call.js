// A request to the API's handler as the tests of its hosts send one: a key and, where there is
// one, a JSON body; answered as its status and JSON.

/**
 * Sends `method path` to `handle` with `key`; resolves to `{ status, body }`.
 * @param {(request: Request) => Response | Promise<Response>} handle
 * @param {string} method
 * @param {string} path
 * @param {string} key
 * @param {unknown} [body]
 */
export async function callHandler(handle, method, path, key, body) {
  const response = await handle(
    new Request(`http://q.test${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  return { status: response.status, body: await response.json() };
}
