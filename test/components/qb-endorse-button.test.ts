import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { waitUntil } from '../wait-until.js';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/components/qb-endorse-button/qb-endorse-button.js';
import type { QbEndorseButton, QbEndorseEvent } from '../../src/components/qb-endorse-button/qb-endorse-button.js';
import { HOSTILE_NAMES, pwned } from './hostile-names.js';
import { APP_ID, guildDataset, injected, useApi, shadow } from './support.js';

const button = (element: QbEndorseButton) => shadow(element).querySelector('button')!;

function endorse(from: string, to: string, endorsementId = 'helpful') {
  return fixture<QbEndorseButton>(
    html`<qb-endorse-button app-id=${APP_ID} from=${from} to=${to} endorsement-id=${endorsementId}></qb-endorse-button>`,
  );
}

describe('<qb-endorse-button>', () => {
  const api = useApi(guildDataset([...HOSTILE_NAMES]));

  it('is a real button named after the member', async () => {
    const element = await endorse('alice', 'bob');
    expect(button(element).type).to.equal('button');
    expect(button(element).textContent!.trim()).to.equal('Endorse bob');
    expect(button(element).disabled).to.equal(false);
    await expect(element).to.be.accessible();
  });

  it('is pending while the request runs, then done, and emits a typed qb-endorse', async () => {
    const element = await endorse('alice', 'carol');
    api.hold();
    button(element).click();
    await element.updateComplete;
    expect(button(element).getAttribute('aria-disabled')).to.equal('true');
    expect(button(element).textContent!.trim()).to.equal('Endorsing…');
    expect(shadow(element).querySelector('[role="status"]')!.textContent).to.equal('Endorsing…');
    await expect(element).to.be.accessible();
    const fired = oneEvent(document, 'qb-endorse') as Promise<QbEndorseEvent>;
    api.release();
    const event = await fired;
    expect(event.detail).to.deep.equal({ appId: APP_ID, from: 'alice', to: 'carol', endorsementId: 'helpful' });
    expect(event.composed).to.equal(true);
    await element.updateComplete;
    expect(button(element).textContent!.trim()).to.equal('✓ Endorsed');
    expect(button(element).getAttribute('aria-disabled')).to.equal('true');
    await expect(element).to.be.accessible();
    const carol = await api.member.getUserInfo({ app_id: APP_ID, account_name: 'carol' });
    expect(carol.current_xp).to.equal(5);
  });

  it('shows, after a reload, the endorsement the member made before', async () => {
    const first = await endorse('bob', 'carol', 'mentor');
    const fired = oneEvent(first, 'qb-endorse');
    button(first).click();
    await fired;
    first.remove();
    // The page again: a new element over the same store, which asks the API what was made.
    const again = await endorse('bob', 'carol', 'mentor');
    await waitUntil(() => button(again).textContent!.trim() === '✓ Endorsed', 'the endorsement made before is offered again');
    expect(button(again).getAttribute('aria-disabled')).to.equal('true');
    expect(shadow(again).querySelector('[role="status"]')!.textContent).to.equal('Endorsed');
    await expect(again).to.be.accessible();
  });

  it('shows as made an endorsement made elsewhere', async () => {
    await api.member.endorseAccount({ app_id: APP_ID, from_account: 'carol', to_account: 'bob', endorsement_id: 'kind' });
    const made = await endorse('carol', 'bob', 'kind');
    await waitUntil(() => button(made).textContent!.trim() === '✓ Endorsed', 'the endorsement made elsewhere is offered');
  });

  it('endorses from the keyboard', async () => {
    const element = await endorse('bob', 'alice', 'kind');
    const fired = oneEvent(element, 'qb-endorse');
    button(element).focus();
    await sendKeys({ press: 'Enter' });
    await fired;
    const second = await endorse('carol', 'alice', 'kind');
    const firedAgain = oneEvent(second, 'qb-endorse');
    button(second).focus();
    await sendKeys({ press: ' ' });
    await firedAgain;
  });

  it('shows a readable error and lets the member try again', async () => {
    const element = await endorse('alice', 'nobody-here');
    button(element).click();
    await waitUntil(() => shadow(element).querySelector('[role="alert"]')!.textContent !== '', 'no error shown');
    expect(shadow(element).querySelector('[role="alert"]')!.textContent).to.match(/^Could not endorse: User not found/);
    expect(button(element).hasAttribute('aria-disabled')).to.equal(false);
    expect(button(element).getAttribute('aria-describedby')).to.equal('message');
    await expect(element).to.be.accessible();
  });

  it('is disabled while it lacks a pair of different members', async () => {
    const element = await fixture<QbEndorseButton>(
      html`<qb-endorse-button app-id=${APP_ID} from="bob" to="bob" endorsement-id="helpful"></qb-endorse-button>`,
    );
    expect(button(element).disabled).to.equal(true);
    await expect(element).to.be.accessible();
    element.from = 'alice';
    await element.updateComplete;
    expect(button(element).disabled).to.equal(false);
    element.endorsementId = '';
    await element.updateComplete;
    expect(button(element).disabled).to.equal(true);
  });

  it('renders hostile names as text', async () => {
    for (const name of HOSTILE_NAMES) {
      const element = await endorse('alice', name);
      expect(button(element).textContent!.trim()).to.equal(`Endorse ${name}`);
      const fired = oneEvent(element, 'qb-endorse');
      button(element).click();
      expect(((await fired) as QbEndorseEvent).detail.to).to.equal(name);
      expect(injected(shadow(element))).to.deep.equal([]);
    }
    expect(pwned()).to.equal(false);
  });
});
