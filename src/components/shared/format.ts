const numberFormats = new Map<string, Intl.NumberFormat>();

/** The language the element is shown in: its nearest `lang`, else the page's, else the browser's. */
export function languageOf(element: Element): string {
  const declared = element.closest('[lang]')?.getAttribute('lang') || document.documentElement.lang;
  return declared || navigator.language;
}

export function formatNumber(value: number, locale: string, maximumFractionDigits = 0): string {
  const key = `${locale}|${maximumFractionDigits}`;
  let format = numberFormats.get(key);
  if (!format) {
    try {
      format = new Intl.NumberFormat(locale, { maximumFractionDigits });
    } catch {
      format = new Intl.NumberFormat(undefined, { maximumFractionDigits });
    }
    numberFormats.set(key, format);
  }
  return format.format(value);
}
