import { catalogLanguage, textDirection, type Language, type LoadedLanguage } from '../i18n/languages.js';
import { english, type WordId, type Words } from './words.js';

/** Each language's words, a chunk of the console's bundle loaded the first time it is shown. */
const LOADERS: { readonly [L in LoadedLanguage]: () => Promise<{ words: Words }> } = {
  de: () => import('./languages/de.js'),
  fr: () => import('./languages/fr.js'),
  es: () => import('./languages/es.js'),
  'pt-BR': () => import('./languages/pt-BR.js'),
  ja: () => import('./languages/ja.js'),
  'zh-CN': () => import('./languages/zh-CN.js'),
  ru: () => import('./languages/ru.js'),
  ar: () => import('./languages/ar.js'),
  ko: () => import('./languages/ko.js'),
};

export type Translate = (id: WordId, values?: Readonly<Record<string, string | number>>) => string;

export interface ConsoleLanguage {
  language: Language;
  dir: 'ltr' | 'rtl';
  t: Translate;
  /** Numbers and dates as the language writes them. */
  number(value: number): string;
  date(epochMs: number): string;
}

/** The console's words in the language closest to `locale` (English where none is closer). */
export async function consoleLanguage(locale: string): Promise<ConsoleLanguage> {
  const language = catalogLanguage(locale);
  const words: Words = language === 'en' ? english : (await LOADERS[language]()).words;
  const numbers = new Intl.NumberFormat(language);
  const dates = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
  return {
    language,
    dir: textDirection(language),
    t: (id, values = {}) => words[id].replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? `{${name}}`)),
    number: (value) => numbers.format(value),
    date: (epochMs) => dates.format(epochMs),
  };
}
