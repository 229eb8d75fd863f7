import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { canonicalLanguageTag } from '../../api/formats.js';
import { currentConfig, onConfigure } from '../../client/config.js';
import { catalogLanguage } from '../../i18n/languages.js';
import type { SiteMessages, Translator } from '../../i18n/messages.js';
import { loadCatalog, pageTranslator } from '../../i18n/page-catalogs.js';

/**
 * The language an element (or an embed's container) shows, as a canonical BCP 47 tag: the
 * nearest `lang` above it, across shadow roots; else the document's; else
 * Questboard.configure({ locale }); else the browser's; else English. One rule for every
 * element and for the fragments the embed asks for, so their words and numbers agree.
 */
export function localeOf(element: Element): string {
  for (let node: Element | null = element; node; node = shadowHost(node)) {
    // An empty or malformed lang says nothing: look further up.
    for (let owner = node.closest('[lang]'); owner; owner = owner.parentElement?.closest('[lang]') ?? null) {
      const tag = languageTag(owner.getAttribute('lang'));
      if (tag) return tag;
    }
  }
  const candidates = [document.documentElement.lang, currentConfig().locale, ...navigator.languages, navigator.language];
  for (const candidate of candidates) {
    const tag = languageTag(candidate);
    if (tag) return tag;
  }
  return 'en';
}

function shadowHost(node: Node): Element | null {
  const root = node.getRootNode();
  return root instanceof ShadowRoot ? root.host : null;
}

/** A browser's language can be a POSIX name (`en_US`, `en-US@posix`): read as the tag it means. */
function languageTag(text: string | null | undefined): string | null {
  const tag = text?.split(/[@.]/)[0]?.replace(/_/g, '-');
  return tag ? canonicalLanguageTag(tag) : null;
}

const NO_MESSAGES: SiteMessages = {};

/** The site's own messages, from Questboard.configure({ messages }). */
export function siteMessages(): SiteMessages {
  return currentConfig().messages ?? NO_MESSAGES;
}

/** The translator for `element`'s language now, or null while its catalog loads (`loaded` runs once it has). */
export function translatorFor(element: Element, loaded: () => void): Translator | null {
  const locale = localeOf(element);
  const translator = pageTranslator(locale, siteMessages());
  if (!translator) void loadCatalog(catalogLanguage(locale)).then(loaded);
  return translator;
}

const languageListeners = new Set<() => void>();
let languageObserver: MutationObserver | undefined;

/** Calls `listener` whenever a `lang` attribute of the document changes (a site switching languages). */
export function watchLanguages(listener: () => void): () => void {
  if (!languageObserver) {
    languageObserver = new MutationObserver(() => {
      for (const each of [...languageListeners]) each();
    });
    languageObserver.observe(document.documentElement, { attributes: true, attributeFilter: ['lang'], subtree: true });
  }
  languageListeners.add(listener);
  return () => languageListeners.delete(listener);
}

/**
 * Keeps an element in its language: it renders again when the page's languages change, when
 * Questboard.configure() runs (a locale, a site's messages) and when its catalog has loaded.
 */
export class LocaleController implements ReactiveController {
  private stop: Array<() => void> = [];

  constructor(private readonly host: ReactiveControllerHost & Element) {
    host.addController(this);
  }

  hostConnected(): void {
    const update = () => this.host.requestUpdate();
    this.stop = [watchLanguages(update), onConfigure(update)];
  }

  hostDisconnected(): void {
    for (const stop of this.stop) stop();
    this.stop = [];
  }

  translator(): Translator | null {
    return translatorFor(this.host, () => this.host.requestUpdate());
  }
}
