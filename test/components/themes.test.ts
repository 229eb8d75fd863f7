// Every component, loaded, in dark and light color schemes, right-to-left, and with reduced
// motion: axe passes in each, and nothing moves for users who asked for less motion.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import type { TemplateResult } from 'lit';
import '../../src/components/index.js';
import { APP_ID, CHALLENGE_ID, POST_TASK_ID, setupApi, type TestApi } from './support.js';
import { canEmulateMedia, itWhere } from '../engine.js';

const itEmulatingMedia = itWhere(canEmulateMedia, 'its driver cannot emulate media features');

const COMPONENTS: Array<[string, TemplateResult, string]> = [
  ['qb-leaderboard', html`<qb-leaderboard app-id=${APP_ID} highlight="bob" limit="1"></qb-leaderboard>`, 'table'],
  ['qb-user-card', html`<qb-user-card app-id=${APP_ID} account-name="alice"></qb-user-card>`, '.card'],
  ['qb-task-progress', html`<qb-task-progress task-id=${POST_TASK_ID} account-name="alice"></qb-task-progress>`, '.task'],
  ['qb-challenge', html`<qb-challenge challenge-id=${CHALLENGE_ID} account-name="alice"></qb-challenge>`, '.card'],
  [
    'qb-endorse-button',
    html`<qb-endorse-button app-id=${APP_ID} from="alice" to="bob" endorsement-id="helpful"></qb-endorse-button>`,
    'button',
  ],
  ['qb-connect-social', html`<qb-connect-social app-id=${APP_ID} account-name="alice"></qb-connect-social>`, 'form'],
];

function transitionsIn(root: ShadowRoot): string[] {
  return [...root.querySelectorAll('*')]
    .map((element) => getComputedStyle(element).transitionDuration)
    .filter((duration) => duration.split(',').some((part) => part.trim() !== '0s'));
}

describe('themes, direction and motion', () => {
  let api: TestApi;
  before(async () => {
    api = await setupApi();
  });
  after(async () => {
    if (canEmulateMedia) await emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });
    await api.teardown();
  });

  for (const [tag, template, readySelector] of COMPONENTS) {
    itEmulatingMedia(`<${tag}> passes axe in both color schemes and right-to-left`, async () => {
      const wrapper = await fixture<HTMLDivElement>(html`<div dir="rtl" lang="ar">${template}</div>`);
      const element = wrapper.firstElementChild!;
      await waitUntil(() => element.shadowRoot?.querySelector(readySelector), `<${tag}> never loaded`);
      // Without transitions, so that axe sees the colors of a scheme, not a blend on the way.
      await emulateMedia({ reducedMotion: 'reduce', colorScheme: 'dark' });
      const darkText = getComputedStyle(element).color;
      await expect(wrapper).to.be.accessible();
      // Each call replaces every emulated feature, so both are always given.
      await emulateMedia({ reducedMotion: 'reduce', colorScheme: 'light' });
      expect(getComputedStyle(element).color).to.not.equal(darkText);
      await expect(wrapper).to.be.accessible();
      await emulateMedia({ reducedMotion: 'no-preference', colorScheme: 'light' });
    });

    itEmulatingMedia(`<${tag}> has no transitions under prefers-reduced-motion`, async () => {
      const element = await fixture<HTMLElement>(template);
      // The tests' default is no easing at all (support.ts): give this one some to take away.
      element.style.setProperty('--qb-duration', '200ms');
      await waitUntil(() => element.shadowRoot?.querySelector(readySelector), `<${tag}> never loaded`);
      await emulateMedia({ reducedMotion: 'reduce' });
      expect(transitionsIn(element.shadowRoot!)).to.deep.equal([]);
      await emulateMedia({ reducedMotion: 'no-preference' });
    });
  }

  it('lets a page theme every component through --qb-* tokens and ::part', async () => {
    const wrapper = await fixture<HTMLDivElement>(html`<div>
      <style>
        .themed { --qb-color-accent: rgb(120, 0, 60); --qb-color-text: rgb(10, 20, 30); }
        .themed qb-endorse-button::part(button) { border-radius: 0; }
      </style>
      <div class="themed">
        <qb-endorse-button app-id=${APP_ID} from="alice" to="bob" endorsement-id="helpful"></qb-endorse-button>
      </div>
    </div>`);
    const element = wrapper.querySelector('qb-endorse-button')!;
    const button = element.shadowRoot!.querySelector('button')!;
    expect(getComputedStyle(button).backgroundColor).to.equal('rgb(120, 0, 60)');
    expect(getComputedStyle(element).color).to.equal('rgb(10, 20, 30)');
    expect(getComputedStyle(button).borderTopLeftRadius).to.equal('0px');
  });
});
