/** A number format for `locale`, or the runtime's default when the tag is not a valid BCP 47 tag. */
export function numberFormat(locale?: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  try {
    return new Intl.NumberFormat(locale, options);
  } catch {
    return new Intl.NumberFormat(undefined, options);
  }
}
