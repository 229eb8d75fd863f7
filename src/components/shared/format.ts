import { numberFormat } from '../../ui/number-format.js';

/**
 * The language the element is shown in, as a valid BCP 47 tag: its nearest `lang`, else the
 * page's, else the browser's (which can be a POSIX name such as `en-US@posix`), else `en`.
 */
export function languageOf(element: Element): string {
  const candidates = [
    element.closest('[lang]')?.getAttribute('lang'),
    document.documentElement.lang,
    ...navigator.languages,
    navigator.language,
  ];
  for (const candidate of candidates) {
    const tag = candidate?.split(/[@.]/)[0]?.replace(/_/g, '-');
    if (!tag) continue;
    try {
      const [canonical] = Intl.getCanonicalLocales(tag);
      if (canonical) return canonical;
    } catch {
      // Not a language tag: try the next source.
    }
  }
  return 'en';
}

export function formatNumber(value: number, locale: string, maximumFractionDigits = 0): string {
  return numberFormat(locale, { maximumFractionDigits }).format(value);
}
