/** Finds an element the page's markup must contain; a missing one is a bug in the page, said plainly. */
export function required<T extends Element>(selector: string, root: ParentNode = document): T {
  const element = root.querySelector<T>(selector);
  if (!element) throw new Error(`The demo page has no ${selector}`);
  return element;
}

/** Creates an element with attributes; member names only ever go in through attributes and textContent. */
export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes?: Record<string, string>,
  text?: string,
): HTMLElementTagNameMap[K];
export function element(tag: string, attributes?: Record<string, string>, text?: string): HTMLElement;
export function element(tag: string, attributes: Record<string, string> = {}, text?: string): HTMLElement {
  const created = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) created.setAttribute(name, value);
  if (text !== undefined) created.textContent = text;
  return created;
}

export function showResult(output: HTMLOutputElement, outcome: 'ok' | 'error' | 'pending', text: string): void {
  output.dataset.outcome = outcome;
  output.textContent = text;
}
