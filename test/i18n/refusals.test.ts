// The API's refusals in the page's language: an element says why by the refusal's code
// (X-Questboard-Error), the API's English message only as its title.
import { expect, fixture, html } from '@open-wc/testing';
import { waitUntil } from '../wait-until.js';
import '../../src/components/index.js';
import { loadCatalogChunk } from '../../src/i18n/catalog-chunks.js';
import { setCatalogLoader } from '../../src/i18n/page-catalogs.js';
import * as german from '../../src/i18n/catalogs/de.js';
import * as japanese from '../../src/i18n/catalogs/ja.js';
import { APP_ID, shadow, useApi } from '../components/support.js';

setCatalogLoader(loadCatalogChunk);

const MISSING_CHALLENGE = '99999999-9999-4999-8999-999999999999';

/** The element's alert once it says something. */
async function alertOf(element: Element): Promise<HTMLElement> {
  await waitUntil(() => shadow(element).querySelector('[role="alert"]')?.textContent, 'no refusal shown', { timeout: 5000 });
  return shadow(element).querySelector<HTMLElement>('[role="alert"]')!;
}

/** Clicks the element's button once it shows (in its language, once loaded). */
async function press(element: Element): Promise<void> {
  await waitUntil(() => shadow(element).querySelector('button'), 'no button shown');
  shadow(element).querySelector('button')!.click();
}

const endorseNobody = (lang: string) =>
  fixture(html`<div lang=${lang}>
    <qb-endorse-button app-id=${APP_ID} from="alice" to="nobody-here" endorsement-id="helpful"></qb-endorse-button>
  </div>`);

describe('refusals in the page’s language', () => {
  useApi();

  it('a German page says a German refusal, the English message as its title', async () => {
    const page = await endorseNobody('de');
    const element = page.querySelector('qb-endorse-button')!;
    await press(element);
    const alert = await alertOf(element);
    expect(alert.textContent!.trim()).to.equal(`Die Empfehlung ist fehlgeschlagen: ${german.refusals['member-not-found']}`);
    expect(alert.querySelector('[title]')!.getAttribute('title')).to.equal(
      'User not found: to_account is not a member of this app.',
    );
    expect(alert.textContent).not.to.contain('not found');
  });

  it('so does an element that loads, in another language', async () => {
    const page = await fixture(html`<div lang="ja"><qb-challenge challenge-id=${MISSING_CHALLENGE}></qb-challenge></div>`);
    const alert = await alertOf(page.querySelector('qb-challenge')!);
    expect(alert.textContent).to.contain(japanese.refusals['challenge-not-found']);
    expect(alert.querySelector('[title]')!.getAttribute('title')).to.equal('Challenge not found.');
  });

  it('an English page says the English message itself', async () => {
    const page = await endorseNobody('en');
    const element = page.querySelector('qb-endorse-button')!;
    await press(element);
    const alert = await alertOf(element);
    expect(alert.textContent!.trim()).to.equal('Could not endorse: User not found: to_account is not a member of this app.');
  });
});
