import { html, type TemplateResult } from 'lit';
import type { AdminClient } from '../client/admin-client.js';
import './sections/audit.js';
import './sections/challenges.js';
import './sections/data.js';
import './sections/keys.js';
import './sections/ledger.js';
import './sections/members.js';
import './sections/overview.js';
import './sections/reviews.js';
import './sections/seasons.js';
import './sections/webhooks.js';
import type { ConsoleLanguage } from './translate.js';

/** The console's sections, in the order the navigation lists them; each is a #fragment of the address. */
export const SECTIONS = [
  'overview',
  'challenges',
  'members',
  'reviews',
  'seasons',
  'keys',
  'webhooks',
  'ledger',
  'data',
  'audit',
] as const;
export type SectionName = (typeof SECTIONS)[number];

/** The section's element, given what every section is given. */
export function sectionTag(name: SectionName, admin: AdminClient, appId: string, lang: ConsoleLanguage): TemplateResult {
  switch (name) {
    case 'overview':
      return html`<qb-console-overview .admin=${admin} .appId=${appId} .locale=${lang}></qb-console-overview>`;
    case 'challenges':
      return html`<qb-console-challenges .admin=${admin} .appId=${appId} .locale=${lang}></qb-console-challenges>`;
    case 'members':
      return html`<qb-console-members .admin=${admin} .appId=${appId} .locale=${lang}></qb-console-members>`;
    case 'keys':
      return html`<qb-console-keys .admin=${admin} .appId=${appId} .locale=${lang}></qb-console-keys>`;
    case 'ledger':
      return html`<qb-console-ledger .admin=${admin} .appId=${appId} .locale=${lang}></qb-console-ledger>`;
    case 'data':
      return html`<qb-console-data .admin=${admin} .appId=${appId} .locale=${lang}></qb-console-data>`;
    case 'reviews':
      return html`<qb-console-reviews .admin=${admin} .appId=${appId} .locale=${lang}></qb-console-reviews>`;
    case 'seasons':
      return html`<qb-console-seasons .admin=${admin} .appId=${appId} .locale=${lang}></qb-console-seasons>`;
    case 'webhooks':
      return html`<qb-console-webhooks .admin=${admin} .appId=${appId} .locale=${lang}></qb-console-webhooks>`;
    case 'audit':
      return html`<qb-console-audit .admin=${admin} .appId=${appId} .locale=${lang}></qb-console-audit>`;
  }
}
