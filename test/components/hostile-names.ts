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
  '\u202Eevil\u202C rtl-override',
] as const;

export function pwned(): boolean {
  return (window as unknown as { __qbPwned?: number }).__qbPwned === 1;
}
