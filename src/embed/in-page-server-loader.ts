import type { InPageServer, InPageServerLoader } from '../client/in-page-transport.js';
import { removeLibraryGlobals } from './page-globals.js';

export const IN_PAGE_SERVER_FILE = 'questboard-inpage.js';

/** Loads dist/questboard-inpage.js from the directory the embed itself was loaded from. */
export function inPageServerBeside(script: HTMLOrSVGScriptElement | null): InPageServerLoader {
  const base = script instanceof HTMLScriptElement && script.src ? script.src : document.baseURI;
  const url = new URL(IN_PAGE_SERVER_FILE, base).href;
  return async () => {
    const server = (await import(/* @vite-ignore */ url)) as InPageServer;
    removeLibraryGlobals();
    return server;
  };
}
