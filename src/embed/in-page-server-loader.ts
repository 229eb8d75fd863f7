import type { InPageServer, InPageServerLoader } from '../client/in-page-transport.js';
import { importBeside } from './beside-script.js';
import { removeLibraryGlobals } from './page-globals.js';

export const IN_PAGE_SERVER_FILE = 'questboard-inpage.js';

/** Loads dist/questboard-inpage.js from the directory the embed itself was loaded from. */
export function inPageServerBeside(script: HTMLOrSVGScriptElement | null): InPageServerLoader {
  return async () => {
    const server = await importBeside<InPageServer>(script, IN_PAGE_SERVER_FILE);
    removeLibraryGlobals();
    return server;
  };
}
