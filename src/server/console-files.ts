// The console (src/console, built into dist/console): static files the server answers at
// /console/ beside the API, so a community manager needs no other web server. The files are
// read once, at start: a name that was not there then is a 404, so no path can reach
// outside the directory.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONSOLE_NOT_BUILT, METHOD_NOT_ALLOWED, UNKNOWN_OPERATION } from '../api/error-codes.js';
import { ApiError } from '../api/errors.js';
import { errorResponse } from '../handler/http.js';

const CONSOLE_PATH = '/console/';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/**
 * Only the console's own files run, and it talks only to this origin; it may not be framed (a
 * page that frames it could trick a manager into clicks). Styles are Lit's constructed
 * stylesheets, which style-src 'self' allows.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data: https:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

interface ConsoleFile {
  body: Uint8Array<ArrayBuffer>;
  type: string;
  etag: string;
  /** Names with a content hash (console-1a2b3c.js) never change: a browser keeps them a year. */
  immutable: boolean;
}

/** Where the built console is: beside the server's own bundle (dist/node/server.js → dist/console/). */
export const defaultConsoleDirectory = () =>
  process.env.QUESTBOARD_CONSOLE_DIR ?? fileURLToPath(new URL('../console/', import.meta.url));

/** Reads the console's files; none (an unbuilt checkout) leaves /console/ a 404 that says so. */
export async function readConsoleFiles(directory: string): Promise<Map<string, ConsoleFile>> {
  const files = new Map<string, ConsoleFile>();
  let names: string[];
  try {
    names = await readdir(directory);
  } catch {
    return files;
  }
  for (const name of names) {
    const type = TYPES[extname(name)];
    if (type === undefined) continue;
    const body = new Uint8Array(await readFile(join(directory, name)));
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
    files.set(name, { body, type, etag, immutable: /-[\w]{8,}\.\w+$/.test(name) });
  }
  return files;
}

/** Serves GET and HEAD under /console/; anything else goes on to the API. */
export function serveConsole(files: Map<string, ConsoleFile>) {
  return (request: Request): Response | null => {
    const { pathname } = new URL(request.url);
    if (pathname === '/console') return new Response(null, { status: 308, headers: { Location: CONSOLE_PATH } });
    if (!pathname.startsWith(CONSOLE_PATH)) return null;
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return errorResponse(new ApiError(METHOD_NOT_ALLOWED, { method: request.method, allow: 'GET' }, { Allow: 'GET, HEAD' }));
    const name = pathname === CONSOLE_PATH ? 'index.html' : pathname.slice(CONSOLE_PATH.length);
    const file = files.get(name);
    if (files.size === 0) return errorResponse(new ApiError(CONSOLE_NOT_BUILT));
    if (file === undefined) return errorResponse(new ApiError(UNKNOWN_OPERATION, { path: pathname }));
    const headers = new Headers({
      'Content-Type': file.type,
      'Cache-Control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      ETag: file.etag,
      'Content-Security-Policy': CONSOLE_CSP,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    });
    if (request.headers.get('If-None-Match') === file.etag) return new Response(null, { status: 304, headers });
    return new Response(request.method === 'HEAD' ? null : file.body, { headers });
  };
}
