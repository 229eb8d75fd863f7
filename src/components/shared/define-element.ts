import { QUESTBOARD_VERSION } from './version.js';

interface VersionedElement extends CustomElementConstructor {
  questboardVersion?: string;
}

/**
 * Defines `tag` unless some copy of Questboard already did (two bundles or an embed plus an
 * npm copy on one page): the first definition wins, a different version earns a warning.
 */
export function defineElement(tag: string, element: VersionedElement): void {
  const existing = customElements.get(tag) as VersionedElement | undefined;
  if (!existing) {
    element.questboardVersion = QUESTBOARD_VERSION;
    customElements.define(tag, element);
    return;
  }
  if (existing !== element && existing.questboardVersion !== QUESTBOARD_VERSION) {
    console.warn(
      `[questboard] <${tag}> is already defined by ${existing.questboardVersion ? `Questboard ${existing.questboardVersion}` : 'another script'}; version ${QUESTBOARD_VERSION} keeps that definition.`,
    );
  }
}
