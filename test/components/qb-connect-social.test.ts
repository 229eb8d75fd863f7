import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { waitUntil } from '../wait-until.js';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/components/qb-connect-social/qb-connect-social.js';
import type { QbConnectSocial, QbConnectSocialEvent } from '../../src/components/qb-connect-social/qb-connect-social.js';
import { HOSTILE_NAMES, pwned } from './hostile-names.js';
import { APP_ID, API_KEY, guildDataset, injected, useApi, shadow } from './support.js';

const input = (element: QbConnectSocial) => shadow(element).querySelector('input')!;
const message = (element: QbConnectSocial) => shadow(element).querySelector('#message')!;

function form(name = 'alice') {
  return fixture<QbConnectSocial>(html`<qb-connect-social app-id=${APP_ID} account-name=${name}></qb-connect-social>`);
}

async function typeAndSubmit(element: QbConnectSocial, text: string) {
  input(element).focus();
  await sendKeys({ type: text });
  await sendKeys({ press: 'Enter' });
  await element.updateComplete;
}

describe('<qb-connect-social>', () => {
  const api = useApi(guildDataset([...HOSTILE_NAMES]));

  it('has a labelled field and a save button', async () => {
    const element = await form();
    const field = input(element);
    expect(shadow(element).querySelector(`label[for="${field.id}"]`)!.textContent).to.equal('X (Twitter) handle');
    expect(shadow(element).querySelector('button')!.type).to.equal('submit');
    await expect(element).to.be.accessible();
  });

  it('explains an invalid handle next to the field, without a request', async () => {
    const element = await form();
    const sentBefore = api.sent.length;
    await typeAndSubmit(element, 'not a handle!');
    expect(input(element).getAttribute('aria-invalid')).to.equal('true');
    expect(message(element).textContent).to.equal('An X handle has only letters, digits and underscores.');
    expect(message(element).getAttribute('role')).to.equal('alert');
    expect(input(element).getAttribute('aria-describedby')).to.contain('message');
    expect(shadow(element).activeElement).to.equal(input(element));
    expect(api.sent.length).to.equal(sentBefore);
    await expect(element).to.be.accessible();
    await sendKeys({ press: 'Backspace' });
    await element.updateComplete;
    expect(input(element).getAttribute('aria-invalid')).to.equal('false');
  });

  it('rejects an empty and a too long handle', async () => {
    const element = await form();
    await typeAndSubmit(element, '');
    expect(message(element).textContent).to.equal('Enter your X handle.');
    await typeAndSubmit(element, 'a_very_long_handle');
    expect(message(element).textContent).to.equal('An X handle has at most 15 characters.');
  });

  it('saves from the keyboard, drops a leading @ and emits qb-connect-social', async () => {
    const element = await form('carol');
    api.hold();
    const fired = oneEvent(element, 'qb-connect-social') as Promise<QbConnectSocialEvent>;
    await typeAndSubmit(element, '@carol_x');
    expect(shadow(element).querySelector('button')!.textContent!.trim()).to.equal('Saving…');
    expect(shadow(element).querySelector('form')!.getAttribute('aria-busy')).to.equal('true');
    await expect(element).to.be.accessible();
    api.release();
    const event = await fired;
    expect(event.detail).to.deep.equal({ appId: APP_ID, accountName: 'carol', twitterName: 'carol_x' });
    await element.updateComplete;
    expect(message(element).textContent).to.equal('Saved @carol_x.');
    expect(message(element).getAttribute('role')).to.equal('status');
    await expect(element).to.be.accessible();
    const exported = await api.admin.admin.exportApp({ app_id: APP_ID });
    expect(exported.apps?.[0]?.users?.find((user) => user.account_name === 'carol')?.twitter_name).to.equal('carol_x');
  });

  it('shows the server’s refusal readably', async () => {
    const element = await fixture<QbConnectSocial>(
      html`<qb-connect-social app-id="no-such-app" account-name="alice"></qb-connect-social>`,
    );
    await typeAndSubmit(element, 'alice_x');
    await waitUntil(() => /^Could not save/.test(message(element).textContent!), 'no error shown');
    expect(message(element).textContent).to.match(/app_id/);
    expect(message(element).getAttribute('role')).to.equal('alert');
    await expect(element).to.be.accessible();
  });

  it('asks to sign in without a member', async () => {
    const element = await fixture<QbConnectSocial>(
      html`<qb-connect-social app-id=${APP_ID} api-key=${API_KEY}></qb-connect-social>`,
    );
    expect(shadow(element).querySelector('.qb-empty')!.textContent).to.equal('Sign in to connect your X account.');
    await expect(element).to.be.accessible();
  });

  it('saves for hostile account names, rendering nothing of them as markup', async () => {
    for (const name of HOSTILE_NAMES.slice(0, 3)) {
      const element = await form(name);
      const fired = oneEvent(element, 'qb-connect-social') as Promise<QbConnectSocialEvent>;
      await typeAndSubmit(element, 'safe_name');
      expect((await fired).detail.accountName).to.equal(name);
      expect(injected(shadow(element))).to.deep.equal([]);
    }
    expect(pwned()).to.equal(false);
  });
});
