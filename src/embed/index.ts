// The script-tag embed (dist/questboard.js). It configures Questboard from its own data-*
// attributes, defines every element (loading from beside itself those it does not carry), fills [data-questboard-leaderboard] containers and says
// in one console line which transport serves the page. Its exports are window.Questboard,
// the only global it adds.
import { removeLibraryGlobals } from './page-globals.js';
import { configure, resolveTransport, setInPageServerLoader } from '../client/config.js';
import '../components/index.js';
import { setChangeStreamReaderLoader } from '../client/remote-changes.js';
import { setCatalogLoader } from '../i18n/page-catalogs.js';
import { importBeside } from './beside-script.js';
import { catalogsBeside } from './catalog-files.js';
import { inPageServerBeside } from './in-page-server-loader.js';
import { readScriptConfig } from './script-config.js';
import { startLeaderboardContainers } from './leaderboard-containers.js';
import { elementsBeside, startLazyElements } from './lazy-element-files.js';
import { setElementLoader } from '../components/shared/lazy-elements.js';

removeLibraryGlobals();

// Only readable while this script first runs.
const ownScript = document.currentScript;
setInPageServerLoader(inPageServerBeside(ownScript));
setCatalogLoader(catalogsBeside(ownScript));
setElementLoader(elementsBeside(ownScript));
// Live updates from a remote server: dist/questboard-live.js, fetched only by a page that follows one.
setChangeStreamReaderLoader(() => importBeside(ownScript, 'questboard-live.js'));
configure(readScriptConfig(ownScript));

function start(): void {
  startLeaderboardContainers();
  startLazyElements();
}
if (document.readyState === 'loading') {
  document.addEventListener('DOMContentLoaded', start, { once: true });
} else {
  start();
}

void resolveTransport().then(({ transport, reason }) => {
  console.info(`[questboard] transport: ${transport.kind} (${reason})`);
});

export { configure, clientFor, resolveTransport, currentConfig } from '../client/config.js';
export { QuestboardClient } from '../client/client.js';
export { QuestboardError } from '../client/questboard-error.js';
export { fetchTransport } from '../client/fetch-transport.js';
export { subscribeToChanges } from '../client/changes.js';
export { QUESTBOARD_VERSION as version } from '../components/shared/version.js';
