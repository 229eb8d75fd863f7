// The benchmark's origin: the pages, their modules, the built worker, embed and console,
// nothing else. /v1 requests must be answered by the worker; any that reach
// this server are counted so the run can refuse figures that bypassed it.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8' };
// Cross-origin isolation refines performance.now() from 100 µs to 5 µs steps.
const ISOLATION = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' };

export async function startServer({ benchDir, distDir }) {
  const routes = new Map([
    ['/', join(benchDir, 'page.html')],
    ['/bench/page.js', join(benchDir, 'page.js')],
    ['/bench/dataset.js', join(benchDir, 'dataset.js')],
    ['/bench/operations.js', join(benchDir, 'operations.js')],
    ['/bench/rounds.js', join(benchDir, 'rounds.js')],
    ['/bench/seeded-random.js', join(benchDir, 'seeded-random.js')],
    ['/questboard-sw.js', join(distDir, 'questboard-sw.js')],
    ['/blank.html', join(benchDir, 'blank.html')],
    ['/first-paint.html', join(benchDir, 'first-paint.html')],
    ['/questboard.js', join(distDir, 'questboard.js')],
  ]);
  // The embed as a CDN serves it: a returning visitor has it in the HTTP cache (and its compiled
  // code with it). Everything else is fetched afresh, the pages included.
  const cached = new Set(['/questboard.js']);
  let apiRequestsSeen = 0;

  const server = createServer(async (request, response) => {
    const { pathname } = new URL(request.url, 'http://localhost');
    if (pathname.startsWith('/v1/')) apiRequestsSeen += 1;
    // The built console (bench/console-first-screen.js): its page and the hashed scripts beside it.
    const consoleFile = pathname.startsWith('/console/') && /^[\w.-]*$/.test(pathname.slice(9));
    const file = consoleFile ? join(distDir, 'console', pathname.slice(9) || 'index.html') : routes.get(pathname);
    if (!file) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const body = await readFile(file).catch(() => null);
    if (!body) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    response
      .writeHead(200, {
        'content-type': TYPES[file.slice(file.lastIndexOf('.'))],
        'cache-control': cached.has(pathname) ? 'max-age=3600' : 'no-store',
        ...ISOLATION,
      })
      .end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    apiRequestsSeen: () => apiRequestsSeen,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
