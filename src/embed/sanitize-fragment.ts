// Exactly what renderLeaderboardFragment produces, minus its <style>: the embed brings that
// CSS itself (see document-styles.ts), so no markup or CSS from the network is trusted.
export const FRAGMENT_ELEMENTS = ['div', 'table', 'caption', 'thead', 'tbody', 'tr', 'th', 'td', 'bdi', 'p', 'span', 'abbr'];
export const FRAGMENT_ATTRIBUTES = ['class', 'scope', 'colspan', 'aria-current', 'aria-label', 'lang', 'dir', 'title'];

const allowedElements = new Set(FRAGMENT_ELEMENTS);
const allowedAttributes = new Set(FRAGMENT_ATTRIBUTES);

/**
 * Rebuilds a parsed, inert fragment out of fresh nodes: allowed elements with their allowed
 * attributes, and text. Anything else is dropped with its whole subtree, so nothing of it —
 * script, handler, URL, style — can reach the page.
 */
export function rebuildAllowed(source: ParentNode, target: ParentNode & Node): void {
  const ownerDocument = target.ownerDocument ?? document;
  for (const node of Array.from(source.childNodes)) {
    if (node.nodeType === Node.TEXT_NODE) {
      target.appendChild(ownerDocument.createTextNode(node.textContent ?? ''));
    } else if (node instanceof Element || node.nodeType === Node.ELEMENT_NODE) {
      const element = node as Element;
      const name = element.localName;
      if (element.namespaceURI !== 'http://www.w3.org/1999/xhtml' || !allowedElements.has(name)) continue;
      const copy = ownerDocument.createElement(name);
      for (const attribute of Array.from(element.attributes)) {
        if (allowedAttributes.has(attribute.name)) copy.setAttribute(attribute.name, attribute.value);
      }
      rebuildAllowed(element, copy);
      target.appendChild(copy);
    }
  }
}
