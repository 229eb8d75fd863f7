// The languages Questboard ships words for, each a file of ./catalogs/ named by its tag.

export const LANGUAGES = ['en', 'de', 'fr', 'es', 'pt-BR', 'ja', 'zh-CN', 'ru', 'ar', 'ko'] as const;
export type Language = (typeof LANGUAGES)[number];
/** English is built in; the others are loaded when a page first needs them. */
export type LoadedLanguage = Exclude<Language, 'en'>;

/**
 * The catalog for a canonical BCP 47 tag: the one of its language (so de-AT reads German,
 * pt-PT Brazilian Portuguese and zh-TW Simplified Chinese, the closest there is), else English.
 */
export function catalogLanguage(locale: string): Language {
  const language = locale.split('-')[0];
  return LANGUAGES.find((candidate) => candidate.split('-')[0] === language) ?? 'en';
}

/** Which way a language's words run: of the shipped languages, Arabic right to left. */
export function textDirection(language: string): 'ltr' | 'rtl' {
  return language === 'ar' ? 'rtl' : 'ltr';
}
