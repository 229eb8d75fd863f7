import type { CatalogLoader, CatalogModule } from '../i18n/page-catalogs.js';
import { importBeside } from './beside-script.js';

/**
 * Loads dist/locales/<language>.js from beside the embed: a small ES module per language, so the
 * embed carries English alone and a page fetches the one language it shows.
 */
export function catalogsBeside(script: HTMLOrSVGScriptElement | null): CatalogLoader {
  return (language) => importBeside<CatalogModule>(script, `locales/${language}.js`);
}
