/** Account names that would execute or break markup if any rendering forgot to escape them. */
export const HOSTILE_NAMES = [
  '"><img src=x onerror="window.__qbPwned=1">',
  "'><svg onload='window.__qbPwned=1'>",
  '<script>window.__qbPwned=1</script>',
  '</style><img src=x onerror=window.__qbPwned=1>',
  '</td></tr><iframe srcdoc="<script>parent.__qbPwned=1</script>">',
  '${window.__qbPwned=1}',
  '{{constructor.constructor("window.__qbPwned=1")()}}',
  'javascript:window.__qbPwned=1',
  '&lt;b&gt;not bold&lt;/b&gt; & "quotes" \'single\'',
  // Right-to-left letters beside left-to-right ones: shown isolated, they cannot reorder the row.
  // (Bidi override characters themselves never get in: the account-name profile refuses them.)
  '\u05E9\u05DC\u05D5\u05DD evil 123 rtl',
] as const;

export function pwned(): boolean {
  return (window as unknown as { __qbPwned?: number }).__qbPwned === 1;
}
