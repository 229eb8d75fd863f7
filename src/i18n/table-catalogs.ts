// The fragment's words in every language, for the handler that renders it (the worker, the
// in-page handler and the Node server): a request names its language, and no handler can wait
// for a catalog to load (a service worker cannot import() at all). They are few, so all of
// them travel; the elements' words stay in the per-language files.
import { table as ar } from './catalogs/ar.js';
import { table as de } from './catalogs/de.js';
import { table as en } from './catalogs/en.js';
import { table as es } from './catalogs/es.js';
import { table as fr } from './catalogs/fr.js';
import { table as ja } from './catalogs/ja.js';
import { table as ko } from './catalogs/ko.js';
import { table as ptBR } from './catalogs/pt-BR.js';
import { table as ru } from './catalogs/ru.js';
import { table as zhCN } from './catalogs/zh-CN.js';
import { catalogLanguage, type Language } from './languages.js';
import { createTranslator, type Catalog, type TableMessageId, type Translator } from './messages.js';

const TABLES: Record<Language, Catalog<TableMessageId>> = { en, de, fr, es, 'pt-BR': ptBR, ja, 'zh-CN': zhCN, ru, ar, ko };

/** The fragment's words for `locale` (a canonical BCP 47 tag), its numbers formatted in it. */
export function tableTranslator(locale: string): Translator<TableMessageId> {
  const language = catalogLanguage(locale);
  return createTranslator(locale, [{ language, messages: TABLES[language] }]);
}
