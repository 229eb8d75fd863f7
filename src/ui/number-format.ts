/** Building a format costs tens of microseconds: keep the few a page or a worker uses. */
const formats = new Map<string, Intl.NumberFormat>();
/** Locales can come from requests (Accept-Language): the cache must not grow without end. */
const KEPT_FORMATS = 32;

/** A number format for `locale`, or the runtime's default when the tag is not a valid BCP 47 tag. */
export function numberFormat(locale?: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const key = `${locale ?? ''}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    if (formats.size >= KEPT_FORMATS) formats.clear();
    format = create(locale, options);
    formats.set(key, format);
  }
  return format;
}

function create(locale: string | undefined, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  try {
    return new Intl.NumberFormat(locale, options);
  } catch {
    return new Intl.NumberFormat(undefined, options);
  }
}
