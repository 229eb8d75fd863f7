// How the ES modules (dist/esm) load a language: a dynamic import each, so a site's bundler
// splits every catalog into a chunk of its own and a page fetches only the one it shows.
import type { LoadedLanguage } from './languages.js';
import type { CatalogLoader, CatalogModule } from './page-catalogs.js';

const CHUNKS: Record<LoadedLanguage, () => Promise<CatalogModule>> = {
  de: () => import('./catalogs/de.js'),
  fr: () => import('./catalogs/fr.js'),
  es: () => import('./catalogs/es.js'),
  'pt-BR': () => import('./catalogs/pt-BR.js'),
  ja: () => import('./catalogs/ja.js'),
  'zh-CN': () => import('./catalogs/zh-CN.js'),
  ru: () => import('./catalogs/ru.js'),
  ar: () => import('./catalogs/ar.js'),
  ko: () => import('./catalogs/ko.js'),
};

export const loadCatalogChunk: CatalogLoader = (language) => CHUNKS[language]();
