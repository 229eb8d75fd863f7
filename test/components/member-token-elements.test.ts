// The elements that write, on a page whose key has the `member` scope: they write as the member
// the page's token names, and show their `sign-in` slot while no member is signed in.
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { waitUntil } from '../wait-until.js';
import { sendKeys } from '@web/test-runner-commands';
import { configure } from '../../src/client/config.js';
import '../../src/components/qb-connect-social/qb-connect-social.js';
import type { QbConnectSocial, QbConnectSocialEvent } from '../../src/components/qb-connect-social/qb-connect-social.js';
import '../../src/components/qb-endorse-button/qb-endorse-button.js';
import type { QbEndorseButton, QbEndorseEvent } from '../../src/components/qb-endorse-button/qb-endorse-button.js';
import type { Dataset } from '../../src/api/schemas.js';
import { MEMBER_KEY, memberTokensFor, mint, mintExpired, siteKey, type SiteKey } from '../member-token-keys.js';
import { APP_ID, guildDataset, setupApi, shadow, type TestApi } from './support.js';

const button = (element: HTMLElement) => shadow(element).querySelector('button');
const signIn = (element: HTMLElement) => shadow(element).querySelector('[part~="sign-in"], [part~="empty"]');
const alert = (element: HTMLElement) => shadow(element).querySelector('[role="alert"]')!;

const endorseBob = (from?: string) =>
  fixture<QbEndorseButton>(
    html`<qb-endorse-button app-id=${APP_ID} to="bob" endorsement-id="helpful" from=${from ?? ''}></qb-endorse-button>`,
  );

async function untilButton(element: HTMLElement): Promise<HTMLButtonElement> {
  await waitUntil(() => button(element) && !button(element)!.disabled, 'no enabled button');
  return button(element)!;
}

describe('elements that write as the signed-in member', () => {
  let api: TestApi;
  let key: SiteKey;

  const endorsements = async () =>
    ((await api.admin.admin.exportApp({ app_id: APP_ID })).apps?.[0]?.endorsements ?? []).map((e) => [
      e.from_account,
      e.to_account,
    ]);

  before(async () => {
    key = await siteKey();
    api = await setupApi(guildDataset());
    await api.admin.admin.importDataset(memberTokensFor(key) as Dataset);
  });
  beforeEach(() => configure({ apiKey: MEMBER_KEY, memberToken: undefined }));
  after(() => api.teardown());

  describe('<qb-endorse-button> without from', () => {
    it('shows the sign-in slot instead of a button while no member is signed in', async () => {
      const element = await endorseBob();
      await waitUntil(() => signIn(element), 'no sign-in state');
      expect(button(element)).to.equal(null);
      expect(signIn(element)!.textContent!.trim()).to.equal('Sign in to endorse.');
      await expect(element).to.be.accessible();
    });

    it("shows the site's own sign-in link there, which the keyboard reaches", async () => {
      const element = await fixture<QbEndorseButton>(html`
        <qb-endorse-button app-id=${APP_ID} to="bob" endorsement-id="helpful">
          <a slot="sign-in" href="#sign-in">Sign in to endorse bob</a>
        </qb-endorse-button>
      `);
      await waitUntil(() => signIn(element), 'no sign-in state');
      const link = element.querySelector('a')!;
      const slot = shadow(element).querySelector<HTMLSlotElement>('slot[name="sign-in"]')!;
      expect(slot.assignedElements()).to.deep.equal([link]);
      const before = document.createElement('button');
      element.before(before);
      before.focus();
      await sendKeys({ press: 'Tab' });
      expect(document.activeElement).to.equal(link);
      before.remove();
      await expect(element).to.be.accessible();
    });

    it("endorses as the token's member, who is the detail's from", async () => {
      configure({ memberToken: () => mint(key) });
      const element = await endorseBob();
      const fired = oneEvent(element, 'qb-endorse') as Promise<QbEndorseEvent>;
      (await untilButton(element)).click();
      expect((await fired).detail).to.deep.equal({ appId: APP_ID, from: 'alice', to: 'bob', endorsementId: 'helpful' });
      expect(await endorsements()).to.deep.include(['alice', 'bob']);
    });

    it('is disabled for the member the token names: no one endorses themselves', async () => {
      configure({ memberToken: await mint(key, { sub: 'bob' }) });
      const element = await endorseBob();
      await waitUntil(() => button(element), 'no button');
      await element.updateComplete;
      expect(button(element)!.disabled).to.equal(true);
    });

    it('follows a sign-in: configure({ memberToken }) turns the sign-in slot into a button for that member', async () => {
      const element = await endorseBob();
      await waitUntil(() => signIn(element), 'no sign-in state');
      configure({ memberToken: await mint(key, { sub: 'carol' }) });
      const fired = oneEvent(element, 'qb-endorse') as Promise<QbEndorseEvent>;
      (await untilButton(element)).click();
      expect((await fired).detail.from).to.equal('carol');
      expect(await endorsements()).to.deep.include(['carol', 'bob']);
    });

    it('gives way to the sign-in slot, saying why, when the API says the token has expired', async () => {
      configure({ memberToken: await mintExpired(key, { sub: 'carol' }) });
      const element = await fixture<QbEndorseButton>(
        html`<qb-endorse-button app-id=${APP_ID} to="alice" endorsement-id="kind"></qb-endorse-button>`,
      );
      (await untilButton(element)).click();
      await waitUntil(() => signIn(element), 'no sign-in state');
      expect(button(element)).to.equal(null);
      expect(alert(element).textContent).to.match(/^Could not endorse: Expired member token/);
      expect(await endorsements()).not.to.deep.include(['carol', 'alice']);
      await expect(element).to.be.accessible();
    });
  });

  it('<qb-endorse-button from="bob"> with a token for alice: refused, nothing written', async () => {
    configure({ memberToken: await mint(key) });
    const element = await fixture<QbEndorseButton>(
      html`<qb-endorse-button app-id=${APP_ID} from="bob" to="carol" endorsement-id="helpful"></qb-endorse-button>`,
    );
    (await untilButton(element)).click();
    await waitUntil(() => alert(element).textContent !== '', 'no error shown');
    expect(alert(element).textContent).to.equal(
      'Could not endorse: Not allowed: with a member key, from_account must be the member the token names (or be left out).',
    );
    expect(await endorsements()).not.to.deep.include(['bob', 'carol']);
  });

  describe('<qb-connect-social> without account-name', () => {
    it("shows the sign-in slot, with the site's link, while no member is signed in", async () => {
      const element = await fixture<QbConnectSocial>(html`
        <qb-connect-social app-id=${APP_ID}><a slot="sign-in" href="#sign-in">Sign in</a> to connect X</qb-connect-social>
      `);
      await waitUntil(() => signIn(element), 'no sign-in state');
      expect(shadow(element).querySelector('form')).to.equal(null);
      const slot = shadow(element).querySelector<HTMLSlotElement>('slot[name="sign-in"]')!;
      expect(slot.assignedElements()).to.deep.equal([element.querySelector('a')]);
      await expect(element).to.be.accessible();
    });

    it("saves the handle of the token's member", async () => {
      configure({ memberToken: await mint(key, { sub: 'carol' }) });
      const element = await fixture<QbConnectSocial>(html`<qb-connect-social app-id=${APP_ID}></qb-connect-social>`);
      await waitUntil(() => shadow(element).querySelector('input'), 'no form');
      shadow(element).querySelector('input')!.focus();
      await sendKeys({ type: 'carol_builds' });
      const fired = oneEvent(element, 'qb-connect-social') as Promise<QbConnectSocialEvent>;
      await sendKeys({ press: 'Enter' });
      expect((await fired).detail).to.deep.equal({ appId: APP_ID, accountName: 'carol', twitterName: 'carol_builds' });
      const exported = await api.admin.admin.exportApp({ app_id: APP_ID });
      expect(exported.apps?.[0]?.users?.find((user) => user.account_name === 'carol')?.twitter_name).to.equal('carol_builds');
    });
  });
});
