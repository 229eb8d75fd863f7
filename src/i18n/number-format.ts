/** Building a format costs tens of microseconds: keep the few a page or a worker uses. */
const formats = new Map<string, Intl.NumberFormat>();
/** Locales can come from requests (Accept-Language): the cache must not grow without end. */
const KEPT_FORMATS = 32;

/**
 * A number format for `locale`, a valid BCP 47 tag; English where the runtime has no data for
 * it, never the runtime's own default: the worker, the Node server and the page must agree.
 */
export function numberFormat(locale: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    if (formats.size >= KEPT_FORMATS) formats.clear();
    format = new Intl.NumberFormat([locale, 'en'], options);
    formats.set(key, format);
  }
  return format;
}
