// What the language tests share: the text a page shows, and English's words to look for in it.
import * as english from '../../src/i18n/catalogs/en.js';
import type { Message } from '../../src/i18n/messages.js';

export const ENGLISH: Readonly<Record<string, Message>> = { ...english.table, ...english.elements, ...english.onDemand };

/** The text a member sees or hears: text nodes and the names and titles of elements, shadow roots included. */
export function shownText(root: Node): string[] {
  const found: string[] = [];
  const visit = (node: Node) => {
    if (node.nodeType === Node.TEXT_NODE && node.textContent!.trim()) found.push(node.textContent!);
    if (node instanceof Element) {
      for (const name of ['aria-label', 'title', 'aria-valuetext']) {
        const value = node.getAttribute(name);
        if (value) found.push(value);
      }
      if (node.shadowRoot) visit(node.shadowRoot);
    }
    if (node instanceof HTMLSlotElement) node.assignedNodes({ flatten: true }).forEach(visit);
    node.childNodes.forEach(visit);
  };
  visit(root);
  return found;
}

const forms = (message: Message) => (typeof message === 'string' ? [message] : Object.values(message));

/**
 * English's words (the text between placeholders, of two letters or more) that `catalog` words
 * otherwise: those its own message for the same id does not share (" XP" in "{current} von {next} XP").
 */
export function englishWordsReplacedBy(catalog: Record<string, Message>): string[] {
  return Object.entries(ENGLISH).flatMap(([id, message]) => {
    const own = forms(catalog[id]!).join('\n');
    return forms(message)
      .flatMap((text) => text.split(/\{\w+\}/))
      .filter((piece) => /\p{L}.*\p{L}/u.test(piece) && !own.includes(piece));
  });
}

export async function catalogOf(language: string): Promise<Record<string, Message>> {
  const module = (await import(`../../src/i18n/catalogs/${language}.ts`)) as Record<string, Record<string, Message>>;
  return { ...module.table, ...module.elements, ...module.onDemand };
}
