// A web-test-runner plugin that runs the API suite against the Questboard
// server on a SQL store (QB_API_ADAPTER=pglite or postgres): it starts the
// test-database server (test/hosts/test-database-server.ts) and forwards the
// page's requests under /_qbdb/ to it, so they stay same-origin and reach the
// real Node host over HTTP. test/api/support.ts asks which adapter runs with
// executeServerCommand('api-adapter').
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { bundleForNode } from './bundle-node.js';
import { createDatabase } from './postgres.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const EXIT_WITH_PARENT = new URL('wtr-exit-with-parent.js', import.meta.url).href;
export const PROXY_PREFIX = '/_qbdb';
/** Hop-by-hop and framing headers: each side of the proxy sets its own. */
const NOT_FORWARDED = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding']);

export function apiAdapterPlugin(adapter = process.env.QB_API_ADAPTER ?? 'indexeddb') {
  let child = null;
  let url = null;
  let database = null;
  let bundle = null;

  async function start() {
    bundle = await bundleForNode('test/hosts/test-database-server.ts');
    const args = ['--import', EXIT_WITH_PARENT, bundle.file];
    if (adapter === 'postgres') {
      database = await createDatabase('questboard_api');
      args.push('--database-url', database.url);
    }
    child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
    const exited = once(child, 'exit').then(([code]) => {
      throw new Error(`the test-database server exited with ${code} before it was ready`);
    });
    const ready = new Promise((resolve) => {
      createInterface({ input: child.stdout }).on('line', (line) => {
        const match = /listening on (http:\/\/\S+)/.exec(line);
        if (match) resolve(match[1]);
      });
    });
    url = await Promise.race([ready, exited]);
    exited.catch(() => {});
  }

  return {
    name: 'questboard-api-adapter',
    async serverStart() {
      if (adapter !== 'indexeddb') await start();
    },
    async serverStop() {
      if (child) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
      await database?.drop();
      await bundle?.remove();
    },
    executeCommand({ command }) {
      if (command !== 'api-adapter') return undefined;
      return { adapter, base: adapter === 'indexeddb' ? null : PROXY_PREFIX };
    },
    /** Koa middleware: forwards /_qbdb/… to the test-database server, body and headers as they came. */
    async forward(context, next) {
      if (!context.path.startsWith(`${PROXY_PREFIX}/`) || url === null) return next();
      const headers = Object.entries(context.req.headers).filter(([name]) => !NOT_FORWARDED.has(name));
      const hasBody = !['GET', 'HEAD'].includes(context.method);
      const response = await fetch(new URL(context.url.slice(PROXY_PREFIX.length), url), {
        method: context.method,
        headers: headers.flatMap(([name, value]) => (Array.isArray(value) ? value.map((v) => [name, v]) : [[name, value]])),
        body: hasBody ? Readable.toWeb(context.req) : undefined,
        duplex: 'half',
      });
      context.status = response.status;
      for (const [name, value] of response.headers) if (!NOT_FORWARDED.has(name)) context.set(name, value);
      context.body = Buffer.from(await response.arrayBuffer());
    },
  };
}
