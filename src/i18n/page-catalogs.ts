// The catalogs a page holds: English built in, any other loaded the first time an element or
// the embed needs it, through the loader of the build the page runs (its entry sets one).
import * as en from './catalogs/en.js';
import { catalogLanguage, type Language, type LoadedLanguage } from './languages.js';
import {
  createTranslator,
  type Catalog,
  type ElementMessageId,
  type MessageSource,
  type OnDemandMessageId,
  type Refusals,
  type SiteMessages,
  type TableMessageId,
  type Translator,
} from './messages.js';

/** What a catalog file holds: the fragment's words, the elements', the on-demand elements', and the API's refusals. */
export interface CatalogModule {
  table: Catalog<TableMessageId>;
  elements: Catalog<ElementMessageId>;
  onDemand: Catalog<OnDemandMessageId>;
  refusals: Refusals;
}
export type CatalogLoader = (language: LoadedLanguage) => Promise<CatalogModule>;

// Without the on-demand elements' words, which the first of them to load brings (addEnglishWords).
const english: Partial<Catalog> = { ...en.table, ...en.elements };
const catalogs = new Map<Language, Partial<Catalog>>([['en', english]]);
const loading = new Map<Language, Promise<void>>();
let loader: CatalogLoader | undefined;

/** How this build loads a language: the ES modules import a chunk, the script-tag embed a file beside itself. */
export function setCatalogLoader(next: CatalogLoader): void {
  loader = next;
}

/**
 * Resolves once the catalog of `language` is here. One that cannot be loaded is replaced by
 * English, with a warning: the elements still work, in the wrong language, rather than not at all.
 */
export function loadCatalog(language: Language): Promise<void> {
  if (catalogs.has(language)) return Promise.resolve();
  let pending = loading.get(language);
  if (!pending) {
    const load = loader ?? (() => Promise.reject(new Error('this build carries English only')));
    pending = load(language as LoadedLanguage).then(
      // The refusals' codes are words joined by hyphens, which no message id is.
      (module) => void catalogs.set(language, { ...module.table, ...module.elements, ...module.onDemand, ...module.refusals }),
      (error: unknown) => {
        console.warn(`[questboard] ${language} could not be loaded, so English shows: ${String(error)}`);
        catalogs.set(language, english);
      },
    );
    loading.set(language, pending);
  }
  return pending;
}

/**
 * Adds the English words of the elements loaded on demand, which the embed leaves out of itself:
 * each such element brings them as it loads (translators read the catalog it adds them to).
 */
export function addEnglishWords(words: Catalog<OnDemandMessageId>): void {
  Object.assign(english, words);
}

/** Why the API refused, said in a loaded catalog's language; undefined in English and for a code this build does not know. */
export function refusalText(language: string, code: string | null): string | undefined {
  return (catalogs.get(language as Language) as Partial<Record<string, string>> | undefined)?.[code!];
}

let translators = new Map<string, Translator>();
let translatorsFor: SiteMessages | undefined;

/**
 * The translator for `locale` (a canonical BCP 47 tag), a site's messages for that tag, for its
 * language and for the catalog's language before the catalog's own; null while the catalog
 * has not loaded (loadCatalog).
 */
export function pageTranslator(locale: string, site: SiteMessages): Translator | null {
  const language = catalogLanguage(locale);
  const catalog = catalogs.get(language);
  if (!catalog) return null;
  if (site !== translatorsFor) {
    translators = new Map();
    translatorsFor = site;
  }
  let translator = translators.get(locale);
  if (!translator) {
    const tags = [...new Set([locale, locale.split('-')[0]!, language])];
    const own = tags.flatMap((tag): MessageSource<ElementMessageId | TableMessageId>[] =>
      site[tag] ? [{ language: tag, messages: site[tag] }] : [],
    );
    translator = createTranslator(locale, [...own, { language, messages: catalog }]);
    translators.set(locale, translator);
  }
  return translator;
}
