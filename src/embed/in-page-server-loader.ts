import type { InPageServer, InPageServerLoader } from '../client/in-page-transport.js';
import { besideScript } from './beside-script.js';
import { removeLibraryGlobals } from './page-globals.js';

export const IN_PAGE_SERVER_FILE = 'questboard-inpage.js';

/** Loads dist/questboard-inpage.js from the directory the embed itself was loaded from. */
export function inPageServerBeside(script: HTMLOrSVGScriptElement | null): InPageServerLoader {
  const url = besideScript(script, IN_PAGE_SERVER_FILE);
  return async () => {
    const server = (await import(/* @vite-ignore */ url)) as InPageServer;
    removeLibraryGlobals();
    return server;
  };
}
