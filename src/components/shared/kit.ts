// What an element loaded on demand (src/components/lazy.ts) may take at run time from the code
// that loads it: Lit, the shared base class, controllers and styles. A lazy element imports
// values from this module only. In the ES modules this is an ordinary module; the script-tag
// embed publishes it (src/embed/lazy-element-files.ts) and each dist/elements/<tag>.js reads it
// from there (scripts/lazy-element-kit.js), so a lazy file carries its own code alone, never a
// second Lit, and sees the page's configure(), signed-in member and loaded languages.
export { LitElement, css, html, nothing, svg } from 'lit';
export { property, state } from 'lit/decorators.js';
export { QuestboardError, nullIfNotFound } from '../../client/questboard-error.js';
export { changeAffects } from '../../client/changes.js';
export { addEnglishWords } from '../../i18n/page-catalogs.js';
export { barStyles } from './bar.js';
export { cardHost, cardSurface, tokens } from './base-styles.js';
export { classNames } from './class-names.js';
export { cssProperty } from './css-property.js';
export { defineElement } from './define-element.js';
export { loadElement } from './lazy-elements.js';
export { QueryController } from './query-controller.js';
export { QuestboardElement } from './questboard-element.js';
export { SignedInMemberController } from './signed-in-member.js';
export { failureMessage, failureReason, renderEmpty, renderError, renderLoading } from './status.js';
