// The ES module entry for bundler users: the typed client, the page-wide configuration and
// every element (importing this module defines them).
import { loadCatalogChunk } from './i18n/catalog-chunks.js';
import { setCatalogLoader } from './i18n/page-catalogs.js';

export * from './client/index.js';
export * from './components/index.js';
export * from './components/lazy.js';
export { renderLeaderboardFragment, type LeaderboardFragmentOptions } from './ui/index.js';
export { LANGUAGES, type Language } from './i18n/languages.js';
export type { Catalog, Message, MessageId, PluralMessage, SiteMessages } from './i18n/messages.js';

// The elements' words in any language but English come as a chunk each, which the site's bundler splits off.
setCatalogLoader(loadCatalogChunk);
