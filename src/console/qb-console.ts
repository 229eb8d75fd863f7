import { css, html, LitElement, nothing } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import type { AppSummary } from '../api/admin-responses.js';
import { AdminClient } from '../client/admin-client.js';
import { QuestboardClient } from '../client/client.js';
import { fetchTransport } from '../client/fetch-transport.js';
import type { Transport } from '../client/transport.js';
import { LANGUAGES } from '../i18n/languages.js';
import { consoleStyles } from './console-styles.js';
import { reasonOf } from './loader.js';
import { SECTIONS, sectionTag, type SectionName } from './sections.js';
import { consoleLanguage, type ConsoleLanguage } from './translate.js';

/** The admin key lives in this tab's sessionStorage only: never a URL, a cookie or localStorage. */
const KEY_ITEM = 'questboard.console.key';
const LANGUAGE_ITEM = 'questboard.console.language';

/** Each language named in itself, for the picker. */
const languageName = (tag: string) => new Intl.DisplayNames([tag], { type: 'language' }).of(tag) ?? tag;

/**
 * The community manager's console: signs in with an admin key, then shows one section at a
 * time (named by the address's #fragment) for the community chosen.
 *
 * @customElement qb-console
 */
export class QbConsole extends LitElement {
  static override styles = [
    consoleStyles,
    css`
      .bar {
        display: flex;
        flex-wrap: wrap;
        justify-content: space-between;
        align-items: center;
        gap: 0.5em 1em;
        padding: 0.6em 1em;
        border-bottom: 1px solid var(--line);
      }
      .bar h1 { font-size: 1.2em; margin: 0; }
      .layout { display: grid; grid-template-columns: minmax(10em, 14em) minmax(0, 1fr); }
      nav { padding: 1em; border-inline-end: 1px solid var(--line); }
      nav ul { list-style: none; padding: 0; margin: 0.6em 0 0; display: grid; gap: 0.2em; }
      nav a { display: block; padding: 0.3em 0.5em; border-radius: 6px; text-decoration: none; }
      nav a[aria-current='page'] { background: var(--accent); color: Canvas; }
      main { padding: 1em; min-width: 0; }
      main:focus { outline: none; }
      .signin { max-width: 32em; margin: 2em auto; }
      .app-name { font-weight: 600; margin: 0; }
      @media (max-width: 40em) {
        .layout { grid-template-columns: minmax(0, 1fr); }
        nav { border-inline-end: none; border-bottom: 1px solid var(--line); }
        nav ul { display: flex; flex-wrap: wrap; gap: 0.3em; }
      }
    `,
  ];

  /** Where the API is: the origin root by default (the server serves the console at /console/). */
  @property({ attribute: 'api-base' }) apiBase = '/';

  /** How requests reach the API; by default fetch to `api-base`. The demo passes its service worker's. */
  @property({ attribute: false }) transport?: Transport;

  @state() private admin: AdminClient | null = null;
  @state() private apps: AppSummary[] = [];
  @state() private appId = '';
  @state() private section: SectionName = sectionFromHash();
  @state() private locale: ConsoleLanguage | null = null;
  @state() private signIn: { status: 'idle' } | { status: 'checking' } | { status: 'refused'; reason: string } = {
    status: 'idle',
  };

  @query('#key') private keyField?: HTMLInputElement;

  override connectedCallback(): void {
    super.connectedCallback();
    addEventListener('hashchange', this.followHash);
    void this.setLanguage(sessionStorage.getItem(LANGUAGE_ITEM) ?? document.documentElement.lang ?? navigator.language);
    const kept = sessionStorage.getItem(KEY_ITEM);
    if (kept) void this.trySignIn(kept);
  }

  override disconnectedCallback(): void {
    removeEventListener('hashchange', this.followHash);
    super.disconnectedCallback();
  }

  private followHash = () => {
    this.section = sectionFromHash();
  };

  private async setLanguage(locale: string) {
    const language = await consoleLanguage(locale || 'en');
    sessionStorage.setItem(LANGUAGE_ITEM, language.language);
    this.setAttribute('lang', language.language);
    this.setAttribute('dir', language.dir);
    document.title = language.t('console.title');
    this.locale = language;
  }

  private transportToUse(): Transport {
    return this.transport ?? fetchTransport(new URL(this.apiBase, location.href));
  }

  /** Asks the API which apps the key manages: a key that is not an admin key is refused and kept nowhere. */
  private async trySignIn(key: string) {
    this.signIn = { status: 'checking' };
    const admin = new AdminClient(new QuestboardClient({ transport: this.transportToUse(), apiKey: key }));
    try {
      const { apps } = await admin.apps();
      sessionStorage.setItem(KEY_ITEM, key);
      this.apps = apps;
      this.appId = apps[0]?.app_id ?? '';
      this.admin = admin;
      this.signIn = { status: 'idle' };
    } catch (error) {
      sessionStorage.removeItem(KEY_ITEM);
      this.signIn = { status: 'refused', reason: reasonOf(error) };
    }
  }

  private submitKey(event: SubmitEvent) {
    event.preventDefault();
    const key = this.keyField?.value.trim() ?? '';
    if (key) void this.trySignIn(key);
  }

  private async signOut() {
    sessionStorage.removeItem(KEY_ITEM);
    this.admin = null;
    this.apps = [];
    this.appId = '';
    await this.updateComplete;
    this.keyField?.focus();
  }

  override render() {
    const lang = this.locale;
    if (!lang) return nothing;
    const { t } = lang;
    return html`
      <header class="bar">
        <h1>${t('console.title')}</h1>
        <div class="row">
          <label class="inline"
            >${t('console.language')}
            <select @change=${(event: Event) => this.setLanguage((event.target as HTMLSelectElement).value)}>
              ${LANGUAGES.map(
                (tag) => html`<option value=${tag} ?selected=${tag === lang.language} lang=${tag}>${languageName(tag)}</option>`,
              )}
            </select>
          </label>
          ${this.admin ? html`<button type="button" class="secondary" @click=${this.signOut}>${t('signout')}</button>` : nothing}
        </div>
      </header>
      ${this.admin ? this.renderConsole(lang, this.admin) : this.renderSignIn(lang)}
    `;
  }

  private renderSignIn({ t }: ConsoleLanguage) {
    const { signIn } = this;
    return html`<main class="signin">
      <h2>${t('signin.heading')}</h2>
      <p>${t('signin.intro')}</p>
      <form @submit=${this.submitKey}>
        <label for="key">${t('signin.key')}</label>
        <input
          id="key"
          type="password"
          autocomplete="off"
          spellcheck="false"
          required
          aria-describedby="key-note"
          aria-invalid=${signIn.status === 'refused' ? 'true' : 'false'}
        />
        <p id="key-note" class="muted">${t('signin.stored')}</p>
        <button type="submit" ?disabled=${signIn.status === 'checking'}>${t('signin.submit')}</button>
      </form>
      ${signIn.status === 'checking' ? html`<p role="status">${t('signin.checking')}</p>` : nothing}
      ${
        signIn.status === 'refused'
          ? html`<p role="alert" class="error">${t('signin.refused', { reason: signIn.reason })}</p>`
          : nothing
      }
    </main>`;
  }

  private renderConsole(lang: ConsoleLanguage, admin: AdminClient) {
    const { t } = lang;
    if (this.apps.length === 0) return html`<main><p class="notice">${t('apps.none')}</p></main>`;
    return html`
      <div class="layout">
        <nav aria-label=${t('section.nav')}>
          ${
            this.apps.length > 1
              ? html`<label for="app">${t('apps.label')}</label>
                <select id="app" @change=${(event: Event) => (this.appId = (event.target as HTMLSelectElement).value)}>
                  ${this.apps.map(
                    (app) => html`<option value=${app.app_id} ?selected=${app.app_id === this.appId}>${app.name}</option>`,
                  )}
                </select>`
              : html`<p class="app-name">${this.apps[0]!.name}</p>`
          }
          <ul>
            ${SECTIONS.map(
              (name) =>
                html`<li>
                  <a href="#${name}" aria-current=${name === this.section ? 'page' : 'false'}>${t(`section.${name}`)}</a>
                </li>`,
            )}
          </ul>
        </nav>
        <main id="section" tabindex="-1" aria-labelledby="section-heading">
          <h2 id="section-heading">${t(`section.${this.section}`)}</h2>
          ${sectionTag(this.section, admin, this.appId, lang)}
        </main>
      </div>
    `;
  }
}

function sectionFromHash(): SectionName {
  const name = location.hash.slice(1);
  return (SECTIONS as readonly string[]).includes(name) ? (name as SectionName) : 'overview';
}
